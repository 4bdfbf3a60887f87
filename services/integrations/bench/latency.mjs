// Latency of the local engines through the real service and a real gRPC
// client: translate (en->es, en->pt pivot), listen cold (new text every time)
// and cached, dictionary, summarize. Starts the built service in-process
// against the local stack (./dev infra) with a throw-away database and cache
// prefix, sends BENCH_N sequential requests per case (default 20) and prints
// p50/p95 in milliseconds. Run: pnpm --filter @folio/integrations build && pnpm --filter @folio/integrations bench
import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { encryptText } from '@folio/crypto';
import { createPromiseClient } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { integrations } from '@folio/proto';
import mongoose from 'mongoose';
import { Redis } from 'ioredis';
import { startIntegrations } from '../dist/app.js';
import { loadIntegrationsConfig } from '../dist/config.js';

const N = Number(process.env.BENCH_N ?? 20);
const run = randomUUID().slice(0, 8);
const config = loadIntegrationsConfig({
  ...process.env,
  GRPC_PORT: '0',
  LOG_LEVEL: 'warn',
  MONGO_URL: `mongodb://127.0.0.1:27017/bench_integrations_${run}`,
  LISTEN_CACHE_PREFIX: `bench:listen:${run}`,
  QUEUE_PREFIX: `bench-integrations-${run}`,
  IDENTITY_EVENTS_EXCHANGE: `bench.identity.events.${run}`,
  READER_ADDR: '',
});
const service = await startIntegrations(config, createLogger({ service: 'integrations-bench', level: 'warn' }));
const client = createPromiseClient(integrations.IntegrationsServiceClient, `127.0.0.1:${service.grpcPort}`, { defaultDeadlineMs: 60_000 });
const token = `bench-reader-token-${run}`;
const caller = { tenantId: 1, userId: 1, issueId: 1, readerToken: token, apiVersion: integrations.ApiVersion.API_VERSION_V2, tenantLang: 'en', ttsEnabled: true };
const enc = (text) => encryptText(token, text);

const SENTENCES = [
  'The lighthouse keeper climbed the spiral stairs every evening to light the lamp.',
  'Ships approaching the harbour relied on its beam to avoid the rocks below.',
  'In winter storms he stayed awake until dawn, watching the sea and the light.',
  'The village sold fish and bread to the sailors who came ashore in spring.',
  'When the lamp was automated, the keeper left the island and moved to the city.',
  'Years later he still woke at dusk, as if the lamp were waiting for him.',
];
const passage = Array.from({ length: 4 }, () => SENTENCES.join(' ')).join(' ').slice(0, 1800);

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function measure(name, call) {
  await call(-1); // warm-up: first process start, WordNet indexes, connection
  const times = [];
  for (let i = 0; i < N; i++) {
    const started = performance.now();
    await call(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const row = { case: name, n: N, p50_ms: Math.round(percentile(times, 50)), p95_ms: Math.round(percentile(times, 95)), max_ms: Math.round(times.at(-1)) };
  console.log(JSON.stringify(row));
  return row;
}

const rows = [];
try {
  rows.push(await measure('translate en->es (~80 chars)', (i) => client.translate({ caller, text: enc(`${SENTENCES[Math.abs(i) % 6]} (${i})`), targetLang: 'es' })));
  rows.push(await measure('translate en->pt pivot (~80 chars)', (i) => client.translate({ caller, text: enc(`${SENTENCES[Math.abs(i) % 6]} (${i})`), targetLang: 'pt' })));
  rows.push(await measure('listen cold (~80 chars, new text each)', (i) => client.listen({ caller, text: enc(`${SENTENCES[Math.abs(i) % 6]} Take ${i} ${run}.`), voiceId: 'Joanna' })));
  const cachedText = enc(SENTENCES[0]);
  rows.push(await measure('listen cached', () => client.listen({ caller, text: cachedText, voiceId: 'Joanna' })));
  rows.push(await measure('dictionary en (WordNet)', () => client.define({ caller, text: enc('lighthouse'), lang: 'en' })));
  rows.push(await measure('summarize (~1800 chars, TextRank)', () => client.runAiAction({ caller, action: 'summarize', text: enc(passage), lang: 'en' })));
  console.log('\n| case | n | p50 ms | p95 ms |\n|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.case} | ${row.n} | ${row.p50_ms} | ${row.p95_ms} |`);
} finally {
  client.close();
  await service.stop();
  const redis = new Redis(config.REDIS_URL);
  const keys = await redis.keys(`${config.LISTEN_CACHE_PREFIX}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  const connection = await mongoose.createConnection(config.MONGO_URL).asPromise();
  await connection.dropDatabase();
  await connection.close();
  const broker = await amqp.connect(config.AMQP_URL);
  const channel = await broker.createChannel();
  for (const suffix of ['', '.retry', '.dead']) await channel.deleteQueue(`${config.QUEUE_PREFIX}.account-eraser${suffix}`);
  await channel.deleteExchange(config.IDENTITY_EVENTS_EXCHANGE);
  await broker.close();
}
