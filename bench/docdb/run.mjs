// Lookup cost of the local document store as the collection grows: FerretDB
// on SQLite against FerretDB on PostgreSQL with GIN twins of its indexes.
//
//   ./dev infra                       (PostgreSQL on 5432, .local/bin/docdb built)
//   node bench/docdb/run.mjs          (see README.md for options)
//
// For each backend the script starts its own docdb launcher on a spare port
// (SQLite: data in a temp dir; PostgreSQL: its own database bench_docdb in the
// cluster of ./dev, created if missing), loads a sessions-like collection in
// steps (default 1,000, then 50,000, then 200,000 documents) and at each step
// runs `findOne` by _id, by a uniquely indexed field and by a three-field
// compound filter from 8 concurrent callers for a few seconds each, printing
// ops/s, p50 and p99. On PostgreSQL it finally prints EXPLAIN ANALYZE of the
// SQL FerretDB sends for those filters, to show the GIN indexes at work.
import { spawn, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConnection } from 'node:net';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The mongodb driver is a dependency of @folio/telemetry; borrow it from there.
const { MongoClient, ObjectId } = createRequire(join(root, 'packages', 'telemetry', 'package.json'))('mongodb');

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const SIZES = (args.get('sizes') ?? '1000,50000,200000').split(',').map(Number);
// SQLite reads the whole collection per lookup: past this size a run would take minutes.
const SQLITE_MAX = Number(args.get('sqlite-max') ?? 50_000);
const BACKENDS = (args.get('backends') ?? 'sqlite,postgresql').split(',');
const CALLERS = Number(args.get('callers') ?? 8);
const SECONDS = Number(args.get('seconds') ?? 3);
const PG_ADMIN_URL = args.get('pg') ?? process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DOCDB = args.get('docdb') ?? join(root, '.local', 'bin', 'docdb');
const PORTS = { sqlite: 27091, postgresql: 27092 };
const TENANTS = 20;

// ------------------------------------------------------------- docdb --

function portOpen(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function pgUrl(database) {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

function psql(database, sql) {
  return execFileSync('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', pgUrl(database), '-c', sql], {
    encoding: 'utf8',
    env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' },
  });
}

async function startDocdb(backend) {
  const port = PORTS[backend];
  if (await portOpen(port)) throw new Error(`port ${port} is taken; stop what holds it`);
  const flags = ['-listen', `127.0.0.1:${port}`, '-backend', backend, '-log-level', 'error'];
  let dataDir;
  if (backend === 'sqlite') {
    dataDir = mkdtempSync(join(tmpdir(), 'bench-docdb-'));
    flags.push('-data-dir', dataDir);
  } else {
    // A database of our own: a fresh one each run, so sizes start from zero.
    psql('postgres', 'DROP DATABASE IF EXISTS bench_docdb WITH (FORCE)');
    psql('postgres', 'CREATE DATABASE bench_docdb');
    flags.push('-postgresql-url', pgUrl('bench_docdb'));
  }
  const child = spawn(DOCDB, flags, { stdio: ['ignore', 'inherit', 'inherit'] });
  for (let i = 0; i < 150 && !(await portOpen(port)); i++) {
    if (child.exitCode !== null) throw new Error(`docdb (${backend}) exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url: `mongodb://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      else psql('postgres', 'DROP DATABASE IF EXISTS bench_docdb WITH (FORCE)');
    },
  };
}

// -------------------------------------------------------------- data --

// A session-like document: what identity and reader look up per request.
function doc(i) {
  return {
    _id: new ObjectId(),
    tenant_id: (i % TENANTS) + 1,
    user_id: `user-${Math.floor(i / 10)}`,
    issue_id: 1000 + (i % 10),
    email: `reader${i}@example.com`,
    token_hash: `h${i.toString(16).padStart(12, '0')}`,
    created_at: new Date(1_700_000_000_000 + i * 1000),
    device: { name: 'Pixel', os: 'Android' },
  };
}

async function loadUpTo(coll, from, to) {
  const batch = 1000;
  for (let i = from; i < to; i += batch) {
    const docs = [];
    for (let j = i; j < Math.min(to, i + batch); j++) docs.push(doc(j));
    await coll.insertMany(docs, { ordered: false });
  }
}

// ----------------------------------------------------------- measure --

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

// Runs `lookup(n)` from CALLERS callers for SECONDS; every lookup must find a document.
async function measure(lookup) {
  const timings = [];
  const until = performance.now() + SECONDS * 1000;
  let n = 0;
  const caller = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      const found = await lookup(n++);
      timings.push(performance.now() - start);
      if (!found) throw new Error('lookup found nothing');
    }
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: CALLERS }, caller));
  const elapsed = (performance.now() - began) / 1000;
  timings.sort((a, b) => a - b);
  return { ops: timings.length / elapsed, p50: percentile(timings, 50), p99: percentile(timings, 99) };
}

async function lookups(coll, size) {
  // Sample the documents to look up from the whole collection, spread evenly.
  const sample = await coll
    .find({}, { projection: { _id: 1, email: 1, tenant_id: 1, user_id: 1, issue_id: 1 } })
    .toArray();
  const pick = (n) => sample[(n * 7919) % sample.length];
  if (sample.length !== size) throw new Error(`expected ${size} documents, found ${sample.length}`);
  return {
    'findOne {_id}': (n) => coll.findOne({ _id: pick(n)._id }),
    'findOne {email}': (n) => coll.findOne({ email: pick(n).email }),
    'findOne {tenant_id, user_id, issue_id}': (n) => {
      const d = pick(n);
      return coll.findOne({ tenant_id: d.tenant_id, user_id: d.user_id, issue_id: d.issue_id });
    },
  };
}

function explain(size) {
  const table = psql('bench_docdb', `SELECT _jsonb->>'table' FROM bench_docdb._ferretdb_database_metadata WHERE _jsonb->>'_id' = 'sessions'`).trim();
  const one = psql('bench_docdb', `SELECT _jsonb FROM bench_docdb."${table}" OFFSET ${Math.floor(size / 2)} LIMIT 1`).trim();
  const d = JSON.parse(one);
  const q = (v) => `'${JSON.stringify(v).replaceAll("'", "''")}'`;
  // The SQL FerretDB 1.24 sends (query.go, prepareWhereClause; `_id` as the
  // launcher's patch sends it, with = on the unique B-tree's expression), with
  // the parameters inlined as a custom plan sees them; no LIMIT, which
  // FerretDB pushes down only when the filter is empty.
  const where = {
    '_id': `_jsonb->'_id' = ${q(d._id)}`,
    'email': `_jsonb->'email' @> ${q(d.email)}`,
    'tenant_id, user_id, issue_id': `_jsonb->'tenant_id' @> ${q(d.tenant_id)} AND _jsonb->'user_id' @> ${q(d.user_id)} AND _jsonb->'issue_id' @> ${q(d.issue_id)}`,
  };
  for (const [label, clause] of Object.entries(where)) {
    const sql = `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) SELECT _jsonb FROM bench_docdb."${table}" WHERE ${clause}`;
    console.log(`\nEXPLAIN ${label} at ${size.toLocaleString('en')} documents:\n  ${sql.replace('EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ', '')}`);
    console.log(psql('bench_docdb', sql).trimEnd().replace(/^/gm, '  '));
  }
}

// -------------------------------------------------------------- main --

if (!existsSync(DOCDB)) throw new Error(`${DOCDB} is missing: run ./dev infra first`);
console.log(`docdb lookups, ${CALLERS} concurrent callers, ${SECONDS} s per row, ${new Date().toISOString()}`);
const rows = [];
for (const backend of BACKENDS) {
  const docdb = await startDocdb(backend);
  const client = await MongoClient.connect(`${docdb.url}/bench_docdb`, { maxPoolSize: CALLERS });
  try {
    const coll = client.db().collection('sessions');
    // The indexes a service would declare in its mongoose schema.
    await coll.createIndex({ email: 1 }, { unique: true });
    await coll.createIndex({ tenant_id: 1, user_id: 1, issue_id: 1 });
    let loaded = 0;
    for (const size of SIZES) {
      if (backend === 'sqlite' && size > SQLITE_MAX) continue;
      const start = performance.now();
      await loadUpTo(coll, loaded, size);
      console.log(`${backend}: loaded ${(size - loaded).toLocaleString('en')} documents in ${((performance.now() - start) / 1000).toFixed(1)} s`);
      loaded = size;
      for (const [label, lookup] of Object.entries(await lookups(coll, size))) {
        const r = await measure(lookup);
        rows.push({ backend, size, label, ...r });
        console.log(`  ${backend.padEnd(10)} ${String(size).padStart(7)}  ${label.padEnd(40)} ${r.ops.toFixed(0).padStart(6)} ops/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms`);
      }
    }
    if (backend === 'postgresql') explain(loaded);
  } finally {
    await client.close();
    await docdb.stop();
  }
}

console.log('\n| Backend | Documents | Query | ops/s | p50 ms | p99 ms |\n|---|---:|---|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.backend} | ${r.size.toLocaleString('en')} | \`${r.label}\` | ${r.ops.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`);
}
