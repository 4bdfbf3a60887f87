// The gateway: authenticates, resolves the tenant, validates input, calls the
// services over gRPC (deadline + breaker) and maps their answers to HTTP. It
// holds no business data. Port 0 picks a free port (component tests).
import { createServer, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import express from 'express';
import helmet from 'helmet';
import { Redis } from 'ioredis';
import { closeHealthClients } from '@folio/grpc';
import { createLogger, type Logger } from '@folio/logger';
import { RateLimiter } from '@folio/rate-limit';
import { startService } from '@folio/service';
import { httpMetricsMiddleware } from '@folio/telemetry';
import type { GatewayConfig } from './config.js';
import { trustedProxies } from './http/client-ip.js';
import { requestContext } from './http/context.js';
import { Cors } from './http/cors.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { healthRouter } from './http/health.js';
import { mediaProxy } from './http/media-proxy.js';
import { routedRequests } from './http/pipeline.js';
import { ReaderTokenVerifier } from './http/reader-token.js';
import { ResponseCache } from './http/response-cache.js';
import { subscribeResponseInvalidation } from './peers/response-invalidation.js';
import { RateLimits } from './http/rate-limit.js';
import type { Route, Services } from './http/route.js';
import { AuditLog } from './peers/audit-log.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { docsRouter } from './openapi/docs.js';
import { routeTable } from './routes/index.js';
import { closeUpstreams, createUpstreams, type Upstreams } from './peers/index.js';
import { AccessTokenVerifier } from './peers/jwks.js';
import { TenantDirectory } from './peers/tenants.js';

/** On stop, how long an idle keep-alive connection may still bring a request (answered with `Connection: close`). */
const IDLE_CONNECTION_GRACE_MS = 1_000;
const netServerClose = NetServer.prototype.close;

/** Node's default is 16 KiB; a 16 KB token must still reach its 401 rather than a bare 431. */
const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Node's own answers to a request it cannot parse, except that a header
 * overflow says why in the usual JSON body instead of an empty 431.
 */
function headerOverflowAnswer(error: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }): void {
  if (socket.writable && !socket.bytesWritten) {
    const body = JSON.stringify({ message: 'Request header fields too large.' });
    const response =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? `HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n'
          : 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';
    socket.write(response);
  }
  socket.destroy(error);
}

export interface GatewayDeps {
  logger?: Logger;
  /** A Redis connection owned by the caller (not closed on stop). */
  redis?: Redis;
  /** Replaces the route table (tests of the pipeline itself). */
  routes?: readonly Route[];
}

export interface Gateway {
  port: number;
  url: string;
  upstreams: Upstreams;
  stop(): Promise<void>;
}

export async function startGateway(config: GatewayConfig, deps: GatewayDeps = {}): Promise<Gateway> {
  const logger = deps.logger ?? createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  // Each connection and server closes on stop, newest first, or when start-up fails half-way.
  return startService('gateway', logger, async (kit) => {
    // Not kit.redis: a caller may lend its own client, and an outage is logged at most every 10 s, not per error.
    const ownsRedis = !deps.redis;
    const redis =
      deps.redis ??
      new Redis(config.REDIS_URL, {
        // Fail a command within a second instead of queueing it through a long outage.
        maxRetriesPerRequest: 1,
        commandTimeout: 1_000,
        connectTimeout: 2_000,
        // Commands of one event-loop turn (the admissions of concurrent requests)
        // leave in one write and one reply read instead of one syscall pair each.
        enableAutoPipelining: true,
      });
    let lastRedisError = 0;
    redis.on('error', (error) => {
      if (Date.now() - lastRedisError < 10_000) return;
      lastRedisError = Date.now();
      logger.warn({ err: error }, 'redis connection error');
    });
    if (ownsRedis) kit.onStop(() => redis.quit().catch(() => redis.disconnect()));

    const upstreams = createUpstreams(config, logger);
    kit.onStop(() => {
      closeUpstreams(upstreams);
      closeHealthClients();
    });
    const identity = upstreams.identity.client;
    const services: Services = {
      identity,
      catalog: upstreams.catalog.client,
      commerce: upstreams.commerce.client,
      reader: upstreams.reader.client,
      readerSync: upstreams.readerSync.client,
      notes: upstreams.notes.client,
      integrations: upstreams.integrations.client,
      tenants: new TenantDirectory(identity, config.TENANT_CACHE_TTL_MS),
      audit: new AuditLog(identity, logger),
    };
    const verifier = new AccessTokenVerifier(identity, {
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      cacheSize: config.VERIFIED_TOKEN_CACHE_SIZE,
    });
    const limits = new RateLimits(new RateLimiter(redis, config.RATE_LIMIT_PREFIX), logger, config.GLOBAL_RATE_LIMIT_PER_MINUTE);
    // The owners' events that drop cached responses. Lazy: the gateway serves without the broker, uncached.
    const broker = await kit.broker(config.AMQP_URL);
    let responses: ResponseCache | undefined;
    const invalidation = await subscribeResponseInvalidation({
      broker,
      logger,
      cache: { forget: (scope) => responses?.forget(scope) },
      exchanges: { commerce: config.COMMERCE_EVENTS_EXCHANGE, identity: config.IDENTITY_EVENTS_EXCHANGE, catalog: config.CATALOG_EVENTS_EXCHANGE },
    });
    kit.onStop(() => invalidation.stop());
    responses = new ResponseCache(
      {
        ttlMs: config.RESPONSE_CACHE_TTL_MS,
        maxBytes: config.RESPONSE_CACHE_MAX_BYTES,
        settleMs: config.RESPONSE_CACHE_SETTLE_MS,
        versionPrefix: config.USER_VERSION_PREFIX,
      },
      redis,
      () => invalidation.live(),
      logger,
    );
    const routes = deps.routes ?? routeTable;
    const document = buildOpenApiDocument(routes, { serverUrl: config.PUBLIC_BASE_URL });

    const app = express();
    app.disable('x-powered-by');
    // Drain: once stop() begins, every response not yet started (in flight or
    // arriving on an open keep-alive connection) says `Connection: close`, so no
    // client sends another request on a connection that is about to close.
    let draining = false;
    const unanswered = new Set<ServerResponse>();
    app.use((_req, res, next) => {
      if (draining) res.shouldKeepAlive = false;
      else {
        unanswered.add(res);
        res.once('close', () => unanswered.delete(res));
      }
      next();
    });
    app.set('etag', false);
    // Client IPs come from our own resolver (TRUSTED_PROXIES), never from express.
    app.set('trust proxy', false);
    // First, so it times the whole pipeline; the series are served on METRICS_PORT, not here.
    app.use(httpMetricsMiddleware());

    app.use(requestContext(trustedProxies(config.TRUSTED_PROXIES), logger));
    app.use(
      helmet({
        contentSecurityPolicy: {
          useDefaults: true,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'"],
            // Swagger UI sets inline styles on its elements.
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", 'data:'],
            connectSrc: ["'self'", new URL(config.PUBLIC_BASE_URL).origin],
            fontSrc: ["'self'", 'data:'],
            objectSrc: ["'none'"],
            frameAncestors: ["'none'"],
            // The local stack is plain HTTP on *.localhost: do not push browsers to https.
            upgradeInsecureRequests: null,
          },
        },
      }),
    );
    app.use((_req, res, next) => {
      res.set('Cache-Control', 'no-store');
      next();
    });
    app.use(healthRouter(redis, upstreams));
    // Content files, streamed from the reader's media server; the signed URL is the
    // credential. Outside the global per-IP limit: an offline download of a long PDF
    // fetches every page image at once.
    const media = mediaProxy({ upstreamUrl: config.READER_MEDIA_URL, timeoutMs: config.MEDIA_TIMEOUT_MS, logger });
    kit.onStop(() => media.close());
    app.use('/media', media.handler);
    const bodyParsers = [
      // JSON and its +json types: OPDS Progression documents come as application/opds-progression+json.
      express.json({ limit: config.BODY_LIMIT, type: ['application/json', 'application/*+json'] }),
      // The web checkout's pay form posts application/x-www-form-urlencoded.
      express.urlencoded({ extended: false, limit: config.BODY_LIMIT, parameterLimit: 50 }),
    ];
    const readerTokens = new ReaderTokenVerifier(services.reader, {
      livenessPrefix: config.READER_SESSION_LIVENESS_PREFIX,
      cacheSize: config.VERIFIED_READER_TOKEN_CACHE_SIZE,
    });
    // Browser pages on other origins (http/cors.ts): ahead of every routed answer, the docs and 404s.
    app.use(new Cors(routes, { tenants: services.tenants, production: config.NODE_ENV === 'production', logger }).middleware);
    // Routed requests: each route's admission counts the global limit in its one Redis round trip.
    app.use(
      routedRequests(routes, {
        services,
        verifier,
        limits,
        sessionKeyPrefix: config.SESSION_LIVENESS_PREFIX,
        responses,
        readerTokens,
        bodyParsers,
        uploadMaxBytes: config.PUBLISHER_UPLOAD_MAX_MB * 1024 * 1024,
      }),
    );
    // Everything else (the docs, 404s) counts here, then parses as before.
    app.use(limits.globalLimit());
    app.use(...bodyParsers);
    app.use(docsRouter(document));
    app.use(notFoundHandler);
    app.use(errorHandler(logger));

    // Room for long headers, so that an oversized token gets the 401 body of any
    // bad token rather than Node's bare 431; past that, a 431 with a JSON body.
    const server: Server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, app);
    server.on('clientError', headerOverflowAnswer);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.HTTP_PORT, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // Stop taking requests first: answer what is in flight (with `Connection: close`), then close.
    kit.onStop(async () => {
      draining = true;
      for (const res of unanswered) if (!res.headersSent) res.shouldKeepAlive = false;
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.closeAllConnections();
          resolve();
        }, config.SHUTDOWN_TIMEOUT_MS);
        force.unref();
        // Stop listening (new connections are refused) without http's
        // closeIdleConnections(): a request already sent on an idle keep-alive
        // connection would meet a reset. Such a request is answered (with
        // `Connection: close`); connections still idle after a grace close.
        const idle = setTimeout(() => server.closeIdleConnections(), IDLE_CONNECTION_GRACE_MS);
        idle.unref();
        netServerClose.call(server, () => {
          clearTimeout(force);
          clearTimeout(idle);
          resolve();
        });
      });
    });
    const { port } = server.address() as AddressInfo;
    logger.info({ port }, 'gateway listening');

    // A second stop() waits for the first to finish.
    let stopped: Promise<void> | undefined;
    return {
      port,
      url: `http://127.0.0.1:${port}`,
      upstreams,
      stop: () => (stopped ??= kit.stop().then(() => logger.info('gateway stopped'))),
    };
  });
}
