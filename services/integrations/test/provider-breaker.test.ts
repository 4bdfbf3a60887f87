// A provider that hangs: each call is cut at its timeout and answered 503
// with a Retry-After (UNAVAILABLE), then the breaker opens and calls fail at
// once without reaching the provider, until it is given another try.
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, newReader, startStandIn, startTestIntegrations, type StandIn, type TestIntegrations } from './support.js';

describe('provider circuit breaker', () => {
  let app: TestIntegrations;
  let hanging: StandIn;
  const reader = newReader();

  beforeAll(async () => {
    // Never answers: the request is read and left open.
    hanging = await startStandIn(() => {});
    app = await startTestIntegrations({
      TRANSLATE_HOSTED_URL: `${hanging.url}/language/translate/v2`,
      LISTEN_HOSTED_URL: hanging.url,
      TRANSLATE_TIMEOUT_MS: '300',
      LISTEN_TIMEOUT_MS: '300',
      BREAKER_VOLUME: '2',
      BREAKER_ERROR_PERCENT: '50',
      BREAKER_RESET_MS: '20000',
    });
  });
  afterAll(async () => {
    await app.stop();
    await hanging.close();
  });

  const translate = () => app.client.translate({ caller: reader.caller(), text: reader.encrypt('Hello'), targetLang: 'es' });

  it('when the translation provider hangs, then calls time out as UNAVAILABLE with retry-after, the breaker opens and later calls fail fast', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const started = performance.now();
      const error = await expectRefusal(translate(), 'UNAVAILABLE');
      expect(performance.now() - started).toBeGreaterThanOrEqual(250);
      expect(error.details.retryAfterSeconds).toBeGreaterThan(0);
    }
    // Each attempt was sent (one may be cut before the stand-in parsed it).
    const reached = hanging.requests.length;
    expect(reached).toBeGreaterThanOrEqual(1);
    expect(reached).toBeLessThanOrEqual(2);

    const started = performance.now();
    const open = await expectRefusal(translate(), 'UNAVAILABLE');
    expect(performance.now() - started).toBeLessThan(200);
    expect(open.details.retryAfterSeconds).toBe(20);
    expect(open.message).toMatch(/temporarily unavailable/);
    expect(hanging.requests.length).toBe(reached);
  });

  it('when the speech provider hangs, then listen fails with UNAVAILABLE too (its own breaker) and nothing is cached', async () => {
    const error = await expectRefusal(app.client.listen({ caller: reader.caller(), text: reader.encrypt('Hello there'), voiceId: 'Joanna' }), 'UNAVAILABLE');
    expect(error.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(await app.redis.keys(`${app.config.LISTEN_CACHE_PREFIX}:*`)).toEqual([]);
    const polly = hanging.requests.find((request) => request.path === '/v1/speech')!;
    expect(JSON.parse(polly.body)).toMatchObject({ OutputFormat: 'mp3', Text: 'Hello there', VoiceId: 'Joanna', TextType: 'text' });
  });
});

describe('local engine that hangs', () => {
  let app: TestIntegrations;
  let dir: string;
  const reader = newReader();

  beforeAll(async () => {
    // An "apertium" that lists one pair and then never translates.
    dir = await mkdtemp(join(tmpdir(), 'integrations-hang-'));
    const bin = join(dir, 'apertium');
    await writeFile(bin, '#!/bin/sh\nif [ "$1" = "-l" ]; then echo eng-spa; exit 0; fi\nexec sleep 30\n');
    await chmod(bin, 0o755);
    app = await startTestIntegrations({ APERTIUM_BIN: bin, TRANSLATE_TIMEOUT_MS: '400' });
  });
  afterAll(async () => {
    await app.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('when Apertium hangs, then the call is UNAVAILABLE at its timeout and the process group is killed', async () => {
    const started = performance.now();
    const error = await expectRefusal(app.client.translate({ caller: reader.caller(), text: reader.encrypt('Hello there'), targetLang: 'es' }), 'UNAVAILABLE');
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(error.details.retryAfterSeconds).toBeGreaterThan(0);
    // Nothing of the pipeline is left running.
    await waitFor(() => (execFileSync('ps', ['-eo', 'args']).toString().includes(dir) ? undefined : true), {
      timeoutMs: 3_000,
      what: 'the hung pipeline to be killed',
    });
  });
});
