// Scale dataset, loaded beside the demo data: 20,000 users spread
// over the six demo tenants (with memberships), 60,000 sessions with their
// refresh tokens, 100,000 issues (with their commerce offers), 100,000 grants,
// 200,000 reading positions and 50,000 notes, at `--factor` times those counts.
//
//   pnpm bench:scale-data [-- --factor=0.05] [--db-prefix=folio_] [--remove]
//
// Documents go through each service's own mongoose models (services/*/dist,
// so build first: ./dev up does) with the fields its seed or write path
// sets, in insertMany chunks of 1,000. Every id is a function of the record's
// number (see plan.mjs), so a re-run skips the chunks that are there and
// completes a half-written one (duplicate keys are ignored): it is resumable
// and never duplicates. --remove deletes exactly what it wrote.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateIssue } from '../search/corpus.mjs';
import {
  ISSUE_ID_BASE,
  NOTE_ID_BASE,
  USER_ID_BASE,
  counts,
  scaleIssueId,
  scaleIssueTenant,
  scaleUserEmail,
  scaleUserId,
  scaleUserTenants,
} from './plan.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = new Map(
  process.argv.slice(2).filter((arg) => arg.startsWith('--')).map((arg) => {
    const [key, value] = arg.slice(2).split('=');
    return [key, value ?? 'true'];
  }),
);
const FACTOR = Number(args.get('factor') ?? 1);
const MONGO = args.get('mongo') ?? process.env.BENCH_MONGO_URL ?? 'mongodb://127.0.0.1:27017';
const PREFIX = args.get('db-prefix') ?? 'folio_';
const CHUNK = 1_000;
if (!(FACTOR > 0 && FACTOR <= 10)) throw new Error('--factor must be in (0, 10]');
const N = counts(FACTOR);

const service = (name) => {
  const dir = join(root, 'services', name);
  return {
    require: createRequire(join(dir, 'package.json')),
    dist: (path) => import(pathToFileURL(join(dir, 'dist', path)).href),
  };
};
const identity = service('identity');
const { connectMongo, ensureIndexes, isTooManyToDeleteAtOnce } = await import(pathToFileURL(identity.require.resolve('@folio/mongo')).href);
const { Types } = identity.require('mongoose');
const models = {
  identity: (await identity.dist('data/schemas.js')).identityModels,
  catalog: (await service('catalog').dist('data/schemas.js')).catalogModels,
  commerce: (await service('commerce').dist('data/schemas.js')).commerceModels,
  reader: (await service('reader').dist('data/schemas.js')).readerModels,
  notes: (await service('notes').dist('data/schemas.js')).notesModels,
};

/** A stable ObjectId for collections whose _id the service leaves to the driver. */
const objectId = (key) => new Types.ObjectId(createHash('sha256').update(key).digest('hex').slice(0, 24));
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
/** Generation time, truncated to the day: a re-run the same day writes identical documents. */
const NOW = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z');
const minutesAgo = (m) => new Date(NOW.getTime() - m * 60_000);
// Issues carry the time their chunk is written as their change, as the seed's do: the running
// catalog's change feed (updated_at, change_bucket; it re-reads a few seconds back) picks them up.
const { changeBucket } = await service('catalog').dist('data/change-buckets.js');
const stamped = (issue) => {
  const now = new Date();
  return { ...issue, updated_at: now, change_bucket: changeBucket(now) };
};
const SHELVES = { 1: ['fiction', 'nonfiction', 'magazines', 'audio'], 2: ['novelas', 'revistas'], 3: ['romances'], 4: ['narrativa'], 5: [], 6: ['comics'] };
const CURRENCY = { 1: 'USD', 2: 'ARS', 3: 'BRL', 4: 'EUR', 5: 'USD', 6: 'USD' };

// Issues are generated in order (the corpus is one deterministic stream) and kept for the records that refer to them.
const issues = Array.from({ length: N.issues }, (_, i) => {
  const k = i + 1;
  const tenant = scaleIssueTenant(k);
  const base = generateIssue(k);
  const id = scaleIssueId(k);
  return {
    ...base,
    _id: id,
    tenant_id: tenant,
    slug: base.slug.replace(/-\d+$/, `-${id}`),
    external_id: `SCALE-${id}`,
    collections: SHELVES[tenant].length ? [SHELVES[tenant][k % SHELVES[tenant].length]] : [],
    deleted_at: null,
  };
});
const issuesOfTenant = new Map();
for (const issue of issues) {
  if (issue.type === 'physical') continue;
  if (!issuesOfTenant.has(issue.tenant_id)) issuesOfTenant.set(issue.tenant_id, []);
  issuesOfTenant.get(issue.tenant_id).push(issue);
}
/** The j-th readable issue of a user's tenants (deterministic). */
function issueFor(n, j) {
  const tenants = scaleUserTenants(n);
  const tenant = tenants[j % tenants.length];
  const list = issuesOfTenant.get(tenant) ?? issuesOfTenant.get(1);
  return list[(n * 7919 + j * 104_729) % list.length];
}
const userN = (i, total) => 1 + (i % Math.min(total, N.users));

/** The record plan: collection, count, i -> document. */
const plan = [
  { db: 'identity', model: 'users', count: N.users, doc: (i) => ({ _id: scaleUserId(i + 1), email: scaleUserEmail(i + 1), admin: false, picture: '', created_at: minutesAgo(i) }) },
  {
    db: 'identity',
    model: 'memberships',
    count: N.users,
    // One document per (user, tenant); users with two tenants get their second one here as well (see expand).
    expand: (i) => scaleUserTenants(i + 1).map((tenant) => ({ _id: objectId(`membership:${scaleUserId(i + 1)}:${tenant}`), user_id: scaleUserId(i + 1), tenant_id: tenant, created_at: minutesAgo(i) })),
  },
  {
    db: 'identity',
    model: 'sessions',
    count: N.sessions,
    doc: (i) => {
      const n = userN(i, N.sessions);
      const login = minutesAgo(N.sessions - i);
      return { _id: objectId(`session:${i}`), jti: `00000000-5ca1-4000-8000-${String(i).padStart(12, '0')}`, user_id: scaleUserId(n), family_id: `scale-family-${i}`, login_at: login, created_at: login, expires_at: new Date(login.getTime() + 30 * 86_400_000), status: 'active' };
    },
  },
  {
    db: 'identity',
    model: 'refreshTokens',
    count: N.sessions,
    doc: (i) => {
      const n = userN(i, N.sessions);
      const login = minutesAgo(N.sessions - i);
      return {
        _id: objectId(`refresh:${i}`),
        hash: sha256(`scale-refresh-token-${i}`),
        family_id: `scale-family-${i}`,
        user_id: scaleUserId(n),
        jti: `00000000-5ca1-4000-8000-${String(i).padStart(12, '0')}`,
        parent_hash: `family:scale-family-${i}`,
        status: 'active',
        created_at: login,
        expires_at: new Date(login.getTime() + 30 * 86_400_000),
        rotated_at: null,
      };
    },
  },
  { db: 'catalog', model: 'issues', count: N.issues, doc: (i) => stamped(issues[i]) },
  {
    db: 'commerce',
    model: 'offers',
    count: N.issues,
    doc: (i) => {
      const issue = issues[i];
      const free = i % 10 === 0;
      return { _id: issue._id, tenant_id: issue.tenant_id, type: issue.type, name: issue.name, free, sale: 'individual', licensing: 'standard', prices: free ? [] : [{ currency: CURRENCY[issue.tenant_id], amount: 1.99 + (i % 20), discount: null }], updated_at: NOW };
    },
  },
  {
    db: 'commerce',
    model: 'grants',
    count: N.grants,
    doc: (i) => {
      const n = userN(i, N.grants);
      const issue = issueFor(n, Math.floor(i / N.users));
      const email = scaleUserEmail(n);
      const source = ['purchase', 'gift', 'admin', 'retail_license'][i % 4];
      return { _id: `seed:${email}:${issue._id}:${source}`, tenant_id: issue.tenant_id, issue_id: issue._id, user_id: null, email, source, expires_at: null, revoked: false, order_id: null, created_at: NOW, erased_at: null };
    },
  },
  {
    db: 'reader',
    model: 'positions',
    count: N.positions,
    doc: (i) => {
      const n = userN(i, N.positions);
      const issue = issueFor(n, Math.floor(i / N.users) + 1);
      const location = issue.type === 'audio' ? { currentSeek: i % 3600, currentTrack: 1 } : issue.type === 'pdf' ? { page: 1 + (i % 40) } : { chapterHref: 'chapter-1.xhtml', cfi: `epubcfi(/6/2!/4/${2 * (1 + (i % 30))})` };
      return { _id: `${scaleUserId(n)}:${issue.tenant_id}:${issue._id}`, user_id: scaleUserId(n), tenant_id: issue.tenant_id, issue_id: issue._id, location, read_at: minutesAgo(i) };
    },
  },
  {
    db: 'notes',
    model: 'notes',
    count: N.notes,
    doc: (i) => {
      const n = userN(i, N.notes);
      const issue = issueFor(n, Math.floor(i / N.users) + 1);
      const text = `scale highlight ${i}`;
      const pdf = issue.type === 'pdf';
      return {
        _id: NOTE_ID_BASE + i + 1,
        tenant_id: issue.tenant_id,
        user_id: scaleUserId(n),
        issue_id: issue._id,
        uuid: `00000000-5ca1-4000-9000-${String(i).padStart(12, '0')}`,
        color: ['yellow', 'green', 'blue', 'pink'][i % 4],
        total_length: text.length,
        total_text: text,
        annotation_text: i % 3 ? null : 'a note of the scale dataset',
        start_page: pdf ? 1 + (i % 40) : null,
        start_page_start_offset: pdf ? i % 500 : null,
        start_page_length: pdf ? text.length : null,
        end_page: pdf ? 1 + (i % 40) : null,
        end_page_length: pdf ? text.length : null,
        epub_location_start_cfi: pdf ? null : `epubcfi(/6/2!/4/2,/1:${i % 500},/1:${(i % 500) + text.length})`,
        epub_location_end_cfi: pdf ? null : `epubcfi(/6/2!/4/2/1:${(i % 500) + text.length})`,
        epub_chapter: pdf ? null : 'chapter-1.xhtml',
        epub_location_start_char: pdf ? null : String(i % 500),
        epub_location_list: null,
        epub_location_text: null,
        created_at: minutesAgo(i),
        updated_at: minutesAgo(i),
      };
    },
  },
];

/** What --remove deletes: exactly the generator's records, those whose field is above the generator's base. */
const REMOVE = {
  'identity.users': ['_id', USER_ID_BASE],
  'identity.memberships': ['user_id', USER_ID_BASE],
  'identity.sessions': ['user_id', USER_ID_BASE],
  'identity.refreshTokens': ['user_id', USER_ID_BASE],
  'catalog.issues': ['_id', ISSUE_ID_BASE],
  'commerce.offers': ['_id', ISSUE_ID_BASE],
  'commerce.grants': ['issue_id', ISSUE_ID_BASE],
  'reader.positions': ['user_id', USER_ID_BASE],
  'notes.notes': ['_id', NOTE_ID_BASE],
};

/**
 * A deleteMany of the 100,000 issues is refused by FerretDB on PostgreSQL
 * (packages/mongo/src/delete-expired.ts says why), so the range above the
 * base goes in windows, halved whenever one still matches too many.
 */
async function removeAbove(target, field, base, label) {
  const last = (await target.findOne({ [field]: { $gt: base } }, { [field]: 1 }).sort({ [field]: -1 }).lean())?.[field];
  let removed = 0;
  let step = 50_000;
  for (let low = base; last !== undefined && low < last; ) {
    try {
      removed += (await target.deleteMany({ [field]: { $gt: low, $lte: low + step } })).deletedCount;
      low += step;
      process.stdout.write(`\r${label}: removed ${removed.toLocaleString('en')}`);
    } catch (error) {
      if (!isTooManyToDeleteAtOnce(error) || step === 1) throw error;
      step = Math.ceil(step / 2);
    }
  }
  return removed;
}

/**
 * The catalog learns of a removal only through a tombstone (services/catalog,
 * catalog-sync.ts); an issue deleted outright stays in a running replica's
 * view and in every snapshot it writes, so listings and search keep it, and a
 * demo run after a scale run measures a catalog of 100,000 issues. Tombstones
 * do not help here: marking 50,000 issues takes FerretDB a minute, longer than
 * the few seconds a catch-up re-reads, and a running catalog missed 58,000 of
 * 100,000 marks. So the stored snapshot goes and the catalog restarts, which
 * reads the catalog whole: through ./dev when it runs the stack's catalog,
 * else it is left to the operator.
 */
async function reloadCatalog() {
  const dropped = (await connections.catalog.collection('snapshots').deleteMany({})).deletedCount;
  console.log(`${PREFIX}catalog.snapshots: dropped ${dropped} documents`);
  if (PREFIX === 'folio_' && existsSync(join(root, '.local', 'run', 'catalog.pid'))) {
    console.log('restarting catalog so that it reads the catalog whole (./dev restart catalog) …');
    execFileSync(join(root, 'dev'), ['restart', 'catalog'], { stdio: 'inherit' });
  } else {
    console.log('restart every catalog replica now, so that each reads the catalog whole');
  }
}

const connections = {};
const modelsOf = {};
for (const db of Object.keys(models)) {
  connections[db] = await connectMongo(`${MONGO}/${PREFIX}${db}`);
  modelsOf[db] = models[db](connections[db]);
}

const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
try {
  if (args.has('remove')) {
    for (const [key, [field, base]] of Object.entries(REMOVE)) {
      const [db, model] = key.split('.');
      const label = `${PREFIX}${db}.${model}`;
      const removed = await removeAbove(modelsOf[db][model], field, base, label);
      console.log(`\r${label}: removed ${removed.toLocaleString('en')} (${seconds()} s)`);
    }
    await reloadCatalog();
  } else {
    console.log(`scale data x${FACTOR} into ${MONGO}/${PREFIX}<service>: ${Object.entries(N).map(([k, v]) => `${v.toLocaleString('en')} ${k}`).join(', ')}`);
    for (const db of Object.keys(models)) await ensureIndexes(connections[db]);
    for (const step of plan) await load(step);
    // Tenants' member counts (discovery sorts on them) are recomputed from the memberships, as identity's seed does.
    const { tenants, memberships } = modelsOf.identity;
    for (const tenant of await tenants.find({}, { _id: 1 }).lean()) {
      await tenants.updateOne({ _id: tenant._id }, { $set: { member_count: await memberships.countDocuments({ tenant_id: tenant._id }) } });
    }
    console.log(`done in ${seconds()} s`);
  }
} finally {
  for (const connection of Object.values(connections)) await connection.close();
}

async function load({ db, model, count, doc, expand }) {
  const target = modelsOf[db][model];
  const docsOf = expand ?? ((i) => [doc(i)]);
  let written = 0;
  let skipped = 0;
  const stepStart = performance.now();
  for (let from = 0; from < count; from += CHUNK) {
    const to = Math.min(count, from + CHUNK);
    const docs = [];
    for (let i = from; i < to; i++) docs.push(...docsOf(i));
    // Resume: a chunk whose last document exists was written completely before.
    if (await target.exists({ _id: docs.at(-1)._id })) {
      skipped += docs.length;
      continue;
    }
    try {
      await target.insertMany(docs, { ordered: false });
      written += docs.length;
    } catch (error) {
      const failures = error.writeErrors ?? [];
      if (!failures.length || failures.some((failure) => (failure.code ?? failure.err?.code) !== 11000)) throw error;
      written += docs.length - failures.length;
      skipped += failures.length;
    }
    process.stdout.write(`\r${PREFIX}${db}.${model}: ${to.toLocaleString('en')} / ${count.toLocaleString('en')}`);
  }
  const took = ((performance.now() - stepStart) / 1000).toFixed(1);
  process.stdout.write(`\r${PREFIX}${db}.${model}: ${written.toLocaleString('en')} written, ${skipped.toLocaleString('en')} already there, ${took} s\n`);
}
