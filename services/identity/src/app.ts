// Wires the identity service: database, Redis rate limiter, SMTP, broker with
// the outbox relay and the consumers, signing keys, and the gRPC server.
// Tests start it in-process on port 0 with a fresh database.
import { createLogger, type Logger } from '@folio/logger';
import { Outbox } from '@folio/messaging';
import { identity } from '@folio/proto';
import { RateLimiter } from '@folio/rate-limit';
import { startService } from '@folio/service';
import type { IdentityConfig } from './config.js';
import { deviceKeyAccounts } from './data/device-keys.js';
import { IdentityReadCache, openIdentityRepositories } from './data/index.js';
import { RedisRefreshLocks } from './data/refresh-locks.js';
import { RedisSessionLiveness } from './data/session-liveness.js';
import { RedisUserVersions } from './data/user-versions.js';
import { AccountEraser } from './domain/account-erasure.js';
import { AuditLog } from './domain/audit-log.js';
import { CursorCodec } from './domain/cursor.js';
import { DeviceKeys } from './domain/device-keys.js';
import { TenantDiscovery } from './domain/discovery.js';
import { EmailLogin } from './domain/email-login.js';
import { HelpDesk } from './domain/help.js';
import { HelpRouter, type HelpChannel } from './domain/help-routing.js';
import { PublisherApiKeys } from './domain/publisher-api-keys.js';
import { PushRegistrations } from './domain/push.js';
import { Sessions } from './domain/sessions.js';
import { SigningKeys } from './domain/signing-keys.js';
import { SocialLogin } from './domain/social-login.js';
import { StaffDirectory } from './domain/staff.js';
import { AppleProvider, FacebookProvider, GoogleProvider } from './domain/social/index.js';
import { TenantDirectory } from './domain/tenants.js';
import { UserAccounts } from './domain/users.js';
import { startIdentityConsumers } from './events/consumers.js';
import { subscribeReadCacheInvalidation } from './events/read-cache-invalidation.js';
import { EmailHelpChannel, WebhookHelpChannel } from './events/help-channels.js';
import { OutboxEventSink } from './events/publisher.js';
import { identityHandlers } from './grpc/handlers.js';
import { LoginCodeMailer } from './mail/login-code.js';
import { SmtpMailer } from './mail/mailer.js';

export const SERVICE_NAME = 'svc.identity.v1.IdentityService';

export interface RunningIdentity {
  grpcPort: number;
  /** Stops taking calls, drains consumers and the outbox, closes every connection. */
  stop(): Promise<void>;
  /** Makes a new active signing key (old public keys stay in the JWKS); returns its kid. */
  rotateSigningKey(): Promise<string>;
}

export async function startIdentity(config: IdentityConfig, options: { logger?: Logger } = {}): Promise<RunningIdentity> {
  const logger = options.logger ?? createLogger({ service: 'identity', level: config.LOG_LEVEL });
  // Each connection closes on stop, newest first, or when start-up fails half-way.
  return startService('identity', logger, async (kit) => {
    const connection = await kit.mongo(config.MONGO_URL);
    // A command fails within a second instead of hanging a login through a Redis outage.
    const redis = kit.redis(config.REDIS_URL, { maxRetriesPerRequest: 1, connectTimeout: 5_000, commandTimeout: 1_000 });

    const readCache = new IdentityReadCache({ ttlMs: config.READ_CACHE_TTL_MS, maxEntries: config.READ_CACHE_MAX_ENTRIES });
    const store = await openIdentityRepositories(connection, readCache, new RedisUserVersions(redis, logger, config.USER_VERSION_PREFIX));
    const limiter = new RateLimiter(redis, config.RATE_LIMIT_PREFIX);

    const mailer = new SmtpMailer(config.SMTP_URL, config.SMTP_FROM);
    kit.onStop(() => mailer.close());

    const broker = await kit.broker(config.AMQP_URL);
    const outbox = new Outbox(connection, broker, { exchange: config.EVENTS_EXCHANGE, logger });
    await outbox.ensureIndexes();
    outbox.start();
    kit.onStop(() => outbox.stop());
    const events = new OutboxEventSink(outbox);

    const keys = new SigningKeys(store.signingKeys, {
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
    });
    await keys.ensureActive();

    const tenants = new TenantDirectory(store);
    const users = new UserAccounts(store);
    const sessions = new Sessions(
      store,
      keys,
      {
        refreshTokenTtlDays: config.REFRESH_TOKEN_TTL_DAYS,
        refreshReuseGraceSeconds: config.REFRESH_REUSE_GRACE_SECONDS,
        sessionLimit: config.SESSION_LIMIT,
        accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
      },
      logger,
      new RedisSessionLiveness(redis, logger, config.SESSION_LIVENESS_PREFIX),
      new RedisRefreshLocks(redis, logger, `${config.RATE_LIMIT_PREFIX}:refresh-lock`),
    );
    const emailLogin = new EmailLogin(
      { store, users, tenants, sessions, limiter, codes: new LoginCodeMailer(mailer), logger },
      {
        codeLength: config.LOGIN_CODE_LENGTH,
        codeTtlSeconds: config.LOGIN_CODE_TTL_SECONDS,
        maxAttempts: config.LOGIN_CODE_MAX_ATTEMPTS,
        pepper: config.CODE_PEPPER,
      },
    );
    const timeoutMs = config.SOCIAL_TIMEOUT_MS;
    const socialLogin = new SocialLogin(
      [
        new GoogleProvider({ userinfoUrl: config.GOOGLE_USERINFO_URL, timeoutMs }),
        new FacebookProvider({ graphUrl: config.FACEBOOK_GRAPH_URL, timeoutMs }),
        new AppleProvider({ jwksUrl: config.APPLE_JWKS_URL, issuer: config.APPLE_ISSUER, audience: config.APPLE_AUDIENCE, timeoutMs }),
      ],
      { users, tenants, sessions, logger },
    );
    const discovery = new TenantDiscovery(store, new CursorCodec(config.CURSOR_SECRET));
    const help = new HelpDesk(store, tenants, events);
    const push = new PushRegistrations(store, tenants, events);
    const eraser = new AccountEraser(store, events, logger, sessions);
    const deviceKeys = new DeviceKeys(store.deviceKeys, deviceKeyAccounts(store.users, store.memberships), limiter, logger);
    const apiKeys = new PublisherApiKeys(store.publisherApiKeys, limiter, logger);
    const staff = new StaffDirectory(store, apiKeys);
    const auditLog = new AuditLog(store.auditEntries);

    const channel = (webhook: string | undefined, inbox: string): HelpChannel =>
      webhook ? new WebhookHelpChannel(webhook) : new EmailHelpChannel(mailer, inbox);
    const helpRouter = new HelpRouter({
      support: new EmailHelpChannel(mailer, config.SUPPORT_EMAIL),
      engineering: channel(config.ENGINEERING_WEBHOOK_URL, config.ENGINEERING_EMAIL),
      messaging: channel(config.MESSAGING_WEBHOOK_URL, config.MESSAGING_EMAIL),
    });
    const consumers = await startIdentityConsumers({
      broker,
      connection,
      logger,
      helpRouter,
      eraser,
      settings: {
        exchange: config.EVENTS_EXCHANGE,
        queuePrefix: config.QUEUE_PREFIX,
        maxRetries: config.CONSUMER_MAX_RETRIES,
        retryDelayMs: config.CONSUMER_RETRY_DELAY_MS,
      },
    });
    kit.onStop(() => Promise.all(consumers.map((consumer) => consumer.stop())));
    const readCacheInvalidation = await subscribeReadCacheInvalidation({ broker, logger, cache: readCache, exchange: config.EVENTS_EXCHANGE });
    kit.onStop(() => readCacheInvalidation.stop());

    const grpc = await kit.grpc(config, [
      {
        name: SERVICE_NAME,
        definition: identity.IdentityServiceService,
        handlers: identityHandlers({
          emailLogin,
          socialLogin,
          sessions,
          keys,
          users,
          tenants,
          discovery,
          help,
          push,
          deviceKeys,
          staff,
          apiKeys,
          auditLog,
        }),
      },
    ]);

    return {
      grpcPort: grpc.port,
      stop: kit.stop,
      rotateSigningKey: () => keys.rotate(),
    };
  });
}
