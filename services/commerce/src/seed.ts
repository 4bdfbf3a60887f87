// Loads the demo dataset's commerce part into commerce's database: an offer
// per issue (tenant, type, name, free, sale, licensing, prices and
// discounts), the access grants and the subscriptions.
// Idempotent: records have stable ids and are replaced in place.
//   node dist/seed.js            (FIXTURES_PATH overrides the dataset file)
//
// Users: the dataset names them by e-mail, identity gives them integer ids.
// Grants and plans are stored under the e-mail, and access queries match a
// user by id or by the e-mail identity reports for that id (asked once, then
// kept). So the seed needs neither identity running nor the ids identity
// happened to assign, and it can run in any order with identity's seed.
//
// Services cache access decisions and offers: with `events`, the seed records
// one access.changed per tenant it touched (no user: seeded grants are keyed
// by e-mail), and every reader drops that tenant's entries. The command line
// writes them to commerce's outbox; the running service's relay publishes them.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createLogger } from '@folio/logger';
import { ACCESS_CHANGED, Broker, Outbox, type AccessChangedPayload } from '@folio/messaging';
import { connectMongo, type Connection } from '@folio/mongo';
import { loadCommerceConfig } from './config.js';
import { openCommerceRepositories } from './data/index.js';
import type { EventSink } from './domain/ports.js';
import { GRANT_SOURCES, type GrantSource, type Licensing, type Sale } from './domain/repositories.js';
import { parseDateTime } from './domain/time.js';
import { OutboxEventSink } from './events/publisher.js';

export interface DatasetIssue {
  id: number;
  tenant_id: number;
  name: string;
  type: string;
  free: boolean;
  sale?: Sale;
  licensing?: Licensing;
  prices?: { currency: string; amount: number; discount?: { amount: number; percentage?: number | null; ends_at?: string | null } | null }[];
}

export interface DatasetGrant {
  email: string;
  issue_id: number;
  reason?: string;
  source: GrantSource;
  expires_at?: string | null;
  revoked?: boolean;
}

export interface DatasetSubscription {
  email: string;
  tenant_id: number;
  plan: string;
  covers: 'all' | number[];
  active: boolean;
  ends_at?: string | null;
}

export interface CommerceDataset {
  issues: DatasetIssue[];
  access: DatasetGrant[];
  subscriptions: DatasetSubscription[];
}

export interface SeedDeps {
  /** Where skipped records are reported; default: nowhere. */
  warn?: (message: string) => void;
  now?: Date;
  /** Where access.changed goes for each tenant seeded; default: nowhere (nothing caches yet). */
  events?: EventSink;
}

export interface SeedSummary {
  offers: number;
  grants: number;
  subscriptions: number;
  skipped: number;
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function seedCommerce(connection: Connection, dataset: CommerceDataset, deps: SeedDeps = {}): Promise<SeedSummary> {
  const store = await openCommerceRepositories(connection);
  const now = deps.now ?? new Date();
  const warn = deps.warn ?? (() => {});
  const tenantOf = new Map<number, number>();
  let skipped = 0;

  for (const issue of dataset.issues) {
    tenantOf.set(issue.id, issue.tenant_id);
    await store.offers.put({
      _id: issue.id,
      tenant_id: issue.tenant_id,
      type: issue.type,
      name: issue.name,
      free: issue.free,
      sale: issue.sale ?? 'individual',
      licensing: issue.licensing ?? 'standard',
      prices: (issue.prices ?? []).map((price) => ({
        currency: price.currency.toUpperCase(),
        amount: price.amount,
        discount: price.discount
          ? { amount: price.discount.amount, percentage: price.discount.percentage ?? null, ends_at: parseDateTime(price.discount.ends_at) }
          : null,
      })),
      updated_at: now,
    });
  }

  let grants = 0;
  for (const grant of dataset.access) {
    const tenantId = tenantOf.get(grant.issue_id);
    if (tenantId === undefined || !GRANT_SOURCES.includes(grant.source)) {
      warn(`grant of ${grant.email} for issue ${grant.issue_id} skipped: unknown issue or source ${grant.source}`);
      skipped += 1;
      continue;
    }
    const email = normalizeEmail(grant.email);
    await store.grants.put({
      _id: `seed:${email}:${grant.issue_id}:${grant.source}`,
      tenant_id: tenantId,
      issue_id: grant.issue_id,
      user_id: null,
      email,
      source: grant.source,
      expires_at: parseDateTime(grant.expires_at),
      revoked: grant.revoked ?? false,
      order_id: null,
      created_at: now,
      erased_at: null,
    });
    grants += 1;
  }

  for (const plan of dataset.subscriptions) {
    const email = normalizeEmail(plan.email);
    await store.subscriptions.put({
      _id: `seed:${email}:${plan.tenant_id}:${plan.plan}`,
      tenant_id: plan.tenant_id,
      user_id: null,
      email,
      plan: plan.plan,
      covers_all: plan.covers === 'all',
      issue_ids: plan.covers === 'all' ? [] : plan.covers,
      active: plan.active,
      ends_at: parseDateTime(plan.ends_at),
      created_at: now,
    });
  }

  if (deps.events) {
    const touched = new Set<number>([...tenantOf.values(), ...dataset.subscriptions.map((plan) => plan.tenant_id)]);
    for (const tenantId of touched) {
      await deps.events.publish<AccessChangedPayload>(ACCESS_CHANGED, { tenant_id: tenantId }, { id: randomUUID(), tenantId });
    }
  }

  return { offers: dataset.issues.length, grants, subscriptions: dataset.subscriptions.length, skipped };
}

async function main(): Promise<void> {
  const config = loadCommerceConfig();
  const path = config.FIXTURES_PATH ?? fileURLToPath(new URL('../../../fixtures/demo-dataset.json', import.meta.url));
  const dataset = JSON.parse(await readFile(path, 'utf8')) as CommerceDataset;
  const connection = await connectMongo(config.MONGO_URL);
  // Published now when the broker is up, else by the running service's relay: a broker that is down delays, never fails, the seed.
  const logger = createLogger({ service: 'commerce-seed', level: 'warn' });
  const broker = await Broker.connect(config.AMQP_URL, { logger, lazy: true, name: 'commerce-seed' });
  const outbox = new Outbox(connection, broker, { exchange: config.EVENTS_EXCHANGE, logger });
  const events = new OutboxEventSink(outbox);
  try {
    const summary = await seedCommerce(connection, dataset, { warn: (line) => console.warn(`commerce: ${line}`), events });
    console.log(
      `commerce: seeded ${summary.offers} offers, ${summary.grants} grants, ${summary.subscriptions} subscriptions` +
        `${summary.skipped ? ` (${summary.skipped} skipped)` : ''} from ${path}`,
    );
  } finally {
    // Lets a relay pass already under way finish, so that no row stays leased to this process.
    await outbox.stop();
    await broker.close();
    await connection.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`commerce: seed failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
