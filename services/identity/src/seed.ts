// Loads the demo dataset's identity part (tenants with their settings, users
// with their memberships, help subjects) into identity's database. The
// dataset's admin users are made publisher owners of every tenant they have
// an account in (admin@example.com of tenant 1): an owner to manage the
// store's staff and API keys.
// Idempotent: re-running updates records in place and never duplicates them.
//   node dist/seed.js            (FIXTURES_PATH overrides the dataset file)
//
// Tenant settings the shared dataset does not carry (web origins, the public
// OPDS catalog) come from the project's own overlay,
// fixtures/tenant-settings.json, applied over the dataset's tenants: the
// dataset stays a verbatim copy of the shared file. A tenant the overlay does
// not name gets the defaults (no web origins, a closed catalog).
//
// The seed is the only place tenants are written, so it is where
// tenant.updated comes from: with `events`, one per tenant, and every service
// that caches tenant settings drops that tenant. The command line writes them
// to identity's outbox; the running service's relay publishes them.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createLogger } from '@folio/logger';
import { Broker, Outbox, TENANT_UPDATED, type TenantUpdatedPayload } from '@folio/messaging';
import { bumpSequence, connectMongo, type Connection } from '@folio/mongo';
import { openIdentityRepositories } from './data/index.js';
import { searchable } from './domain/discovery.js';
import type { EventSink } from './domain/ports.js';
import { OutboxEventSink } from './events/publisher.js';
import { loadIdentityConfig } from './config.js';

export interface DatasetTenant {
  id: number;
  name: string;
  domain: string;
  logo: string;
  country_code: string | null;
  country_name: string | null;
  colors: { primary: string; secondary: string };
  plan_active: boolean;
  aggregator_id: number | null;
  currency: string;
  lang: string;
  preview_percentage: number;
  free_access: boolean;
  features: { storefront_search: boolean; tts: boolean; search: boolean; concurrency_limit: boolean; chinese_voice: boolean };
  mobile_app: { scheme: string } | null;
  signup_country_code: string | null;
  help_subjects_hidden: string[];
  reader: unknown;
  exit_url: string;
  twitter_user: string;
}

/** fixtures/tenant-settings.json: settings by tenant id, over the dataset's. */
export interface TenantSettingsOverlay {
  tenants: Record<string, { web_origins?: string[]; opds_public_catalog?: boolean }>;
}

/** `scheme://host`, with an optional `:port` or `:*` (any port); lower case, no path. */
const WEB_ORIGIN = /^https?:\/\/[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:(\d{1,5}|\*))?$/;

/** The overlay's file next to the dataset (the repository's fixtures/ by default). */
export function defaultTenantSettingsPath(): string {
  return fileURLToPath(new URL('../../../fixtures/tenant-settings.json', import.meta.url));
}

export function loadTenantSettings(path = defaultTenantSettingsPath()): TenantSettingsOverlay {
  const overlay = JSON.parse(readFileSync(path, 'utf8')) as TenantSettingsOverlay;
  for (const [id, settings] of Object.entries(overlay.tenants ?? {})) {
    for (const origin of settings.web_origins ?? []) {
      // A typo here would silently lock a store's web reader out: refuse to seed it.
      if (!WEB_ORIGIN.test(origin)) throw new Error(`${path}: tenant ${id}: ${origin} is not scheme://host[:port|:*] in lower case`);
    }
  }
  return overlay;
}

export interface DatasetUser {
  email: string;
  admin: boolean;
  picture: string;
  tenants: number[];
}

export interface IdentityDataset {
  tenants: DatasetTenant[];
  users: DatasetUser[];
  help: {
    subjects: string[];
    labels: Record<string, Record<string, string>>;
    routing: Record<string, string>;
    generic_app_only: string[];
  };
}

export interface SeedSummary {
  tenants: number;
  users: number;
  memberships: number;
  helpSubjects: number;
}

export async function seedIdentity(
  connection: Connection,
  dataset: IdentityDataset,
  deps: { events?: EventSink; settings?: TenantSettingsOverlay } = {},
): Promise<SeedSummary> {
  const store = await openIdentityRepositories(connection);

  for (const tenant of dataset.tenants) {
    const settings = deps.settings?.tenants[String(tenant.id)] ?? {};
    await store.tenants.upsertSeeded({
      _id: tenant.id,
      name: tenant.name,
      name_search: searchable(tenant.name),
      domain: tenant.domain.toLowerCase(),
      logo: tenant.logo,
      country_code: tenant.country_code ?? null,
      country_name: tenant.country_name ?? null,
      colors: tenant.colors,
      plan_active: tenant.plan_active,
      aggregator_id: tenant.aggregator_id ?? null,
      currency: tenant.currency,
      lang: tenant.lang,
      preview_percentage: tenant.preview_percentage,
      free_access: tenant.free_access,
      features: tenant.features,
      mobile_app_scheme: tenant.mobile_app?.scheme ?? null,
      signup_country_code: tenant.signup_country_code?.toUpperCase() ?? null,
      help_subjects_hidden: tenant.help_subjects_hidden ?? [],
      reader: tenant.reader ?? {},
      exit_url: tenant.exit_url,
      twitter_user: tenant.twitter_user ?? '',
      web_origins: settings.web_origins ?? [],
      opds_public_catalog: settings.opds_public_catalog ?? false,
    });
    await deps.events?.publish<TenantUpdatedPayload>(TENANT_UPDATED, { tenant_id: tenant.id }, { tenantId: tenant.id, id: randomUUID() });
  }

  // Ids 1..n in dataset order; the sequence moves past them first so that no login can take one meanwhile.
  await bumpSequence(connection, 'users', dataset.users.length);
  let memberships = 0;
  for (const [index, user] of dataset.users.entries()) {
    const saved = await store.users.upsertSeeded(index + 1, {
      email: user.email.trim().toLowerCase(),
      admin: user.admin,
      picture: user.picture,
    });
    for (const tenantId of user.tenants) {
      await store.memberships.ensure(saved._id, tenantId);
      // The seed gives this role and takes none: the other roles given through the API survive a re-seed.
      if (user.admin) await store.memberships.setStaffRole(saved._id, tenantId, 'owner');
      memberships += 1;
    }
  }

  // Member counts are recomputed from the memberships, which repairs any drift.
  for (const tenantId of await store.tenants.allIds()) {
    await store.tenants.setMemberCount(tenantId, await store.memberships.countIn(tenantId));
  }

  await store.helpConfig.replace({
    subjects: dataset.help.subjects,
    labels: dataset.help.labels,
    routing: dataset.help.routing,
    generic_app_only: dataset.help.generic_app_only ?? [],
  });

  return { tenants: dataset.tenants.length, users: dataset.users.length, memberships, helpSubjects: dataset.help.subjects.length };
}

async function main(): Promise<void> {
  const config = loadIdentityConfig();
  const path = config.FIXTURES_PATH ?? fileURLToPath(new URL('../../../fixtures/demo-dataset.json', import.meta.url));
  const dataset = JSON.parse(await readFile(path, 'utf8')) as IdentityDataset;
  const connection = await connectMongo(config.MONGO_URL);
  // Published now when the broker is up, else by the running service's relay: a broker that is down delays, never fails, the seed.
  const logger = createLogger({ service: 'identity-seed', level: 'warn' });
  const broker = await Broker.connect(config.AMQP_URL, { logger, lazy: true, name: 'identity-seed' });
  const outbox = new Outbox(connection, broker, { exchange: config.EVENTS_EXCHANGE, logger });
  const events = new OutboxEventSink(outbox);
  try {
    const summary = await seedIdentity(connection, dataset, { events, settings: loadTenantSettings(config.TENANT_SETTINGS_PATH) });
    console.log(
      `identity: seeded ${summary.tenants} tenants, ${summary.users} users, ${summary.memberships} memberships, ${summary.helpSubjects} help subjects from ${path}`,
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
    console.error(`identity: seed failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
