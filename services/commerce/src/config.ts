// Typed configuration of the commerce service, parsed once at boot. Every
// other module receives the parsed object; nothing else reads process.env.
import { accountEraserEnv, env, loadConfig, serviceEnv } from '@folio/config';
import { z } from 'zod';

export const configSchema = serviceEnv({ grpcPort: 50053, database: 'folio_commerce' }).extend({
  /** identity: tenants (currency, free access, app schemes), users' e-mails, memberships. */
  IDENTITY_ADDR: env.grpcAddress('127.0.0.1:50051'),
  /** catalog: issue names on the checkout page (the offer's seeded name is the fallback). */
  CATALOG_ADDR: env.grpcAddress('127.0.0.1:50052'),
  /** Deadline of calls to identity and catalog. */
  PEER_DEADLINE_MS: env.int(2_000).pipe(z.number().min(1)),
  /** The catalog lookup of the checkout page gives up sooner: the page has a fallback name. */
  CATALOG_DEADLINE_MS: env.int(500).pipe(z.number().min(1)),
  /** How long tenant settings read from identity are reused. */
  TENANT_CACHE_SECONDS: env.int(30).pipe(z.number().min(0)),
  // How long offers (by issue, and the free issues of a tenant) are served from memory (0: read each time); see MongoOfferRepository (data/offers.ts).
  OFFER_CACHE_SECONDS: env.int(60).pipe(z.number().min(0)),

  /** Return scheme of the generic app (spec: scheme resolution rules 1 and 3). */
  DEFAULT_APP_SCHEME: z
    .string()
    .default('folio://')
    .refine((v) => /^[a-z][a-z0-9+.-]*:(\/\/)?$/i.test(v), 'must be a URL scheme such as folio://'),
  /** Lifetime of the web session opened by the purchase redirect (cookie Max-Age). */
  CHECKOUT_SESSION_TTL_MINUTES: env.int(60).pipe(
    z
      .number()
      .min(1)
      .max(24 * 60),
  ),
  /** Path of the web checkout page on the store: the purchase redirect's Location. */
  CHECKOUT_PATH: env.string('/app/checkout'),
  /** Where the checkout page's form posts. */
  CHECKOUT_PAY_PATH: env.string('/app/checkout/pay'),
  /**
   * Payment provider behind the checkout. Only the local test provider exists
   * today (no money moves; the page says so); a hosted adapter comes later.
   */
  PAYMENT_PROVIDER: z.enum(['local-test']).default('local-test'),

  /** Topic exchange commerce publishes to (purchase.completed). */
  EVENTS_EXCHANGE: env.string('commerce.events'),
  /** identity's exchange (account.deleted, tenant.updated) and the eraser's queue and retries. */
  ...accountEraserEnv('commerce'),

  /** Seed script only: the demo dataset; defaults to <repo>/fixtures/demo-dataset.json. */
  FIXTURES_PATH: z.string().optional(),
});

export type CommerceConfig = z.infer<typeof configSchema>;

export function loadCommerceConfig(environment: Record<string, string | undefined> = process.env): CommerceConfig {
  return loadConfig(configSchema, environment);
}
