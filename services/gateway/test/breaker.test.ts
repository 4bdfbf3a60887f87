// Circuit breakers on the upstream clients, against real gRPC servers: one
// whose handlers never answer (a hung service) and one that answers every
// call with a domain refusal (a healthy service saying no).
import { Server, ServerCredentials, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { httpStatusOf, notFound, type DomainError } from '@folio/errors';
import { startGrpcServer, type GrpcServer } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { catalog, identity } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../src/app.js';
import { createUpstream } from '../src/peers/index.js';
import { gatewayConfig, httpClient } from './support.js';

// A deadline long enough that a call failed fast (under half of it) cannot be
// mistaken for one that waited, even on a busy machine.
const settings = {
  deadlineMs: 400,
  breaker: { timeoutMs: 800, resetMs: 2_000, volumeThreshold: 3, errorThresholdPercentage: 50 },
};

const REQUEST = { tenantId: 1, issueId: 1001 };

async function failureOf(call: Promise<unknown>): Promise<{ error: DomainError; ms: number }> {
  const started = performance.now();
  try {
    await call;
  } catch (error) {
    return { error: error as DomainError, ms: performance.now() - started };
  }
  throw new Error('expected the call to fail');
}

describe('upstream circuit breaker', () => {
  let hanging: Server;
  let hangingAddress: string;
  let refusing: GrpcServer;

  beforeAll(async () => {
    hanging = new Server();
    // Handlers that take the call and never answer it.
    const never = (definition: object) => Object.fromEntries(Object.keys(definition).map((name) => [name, () => {}]));
    hanging.addService(catalog.CatalogServiceService, never(catalog.CatalogServiceService) as UntypedServiceImplementation);
    hanging.addService(identity.IdentityServiceService, never(identity.IdentityServiceService) as UntypedServiceImplementation);
    const port = await new Promise<number>((resolve, reject) =>
      hanging.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    hangingAddress = `127.0.0.1:${port}`;

    const refuse = async () => {
      throw notFound('No such issue.');
    };
    refusing = await startGrpcServer({
      logger: createLogger({ service: 'test', level: 'silent' }),
      port: 0,
      host: '127.0.0.1',
      services: [
        {
          name: 'svc.catalog.v1.CatalogService',
          definition: catalog.CatalogServiceService,
          handlers: Object.fromEntries(Object.keys(catalog.CatalogServiceService).map((name) => [name, refuse])) as never,
        },
      ],
    });
  });

  afterAll(async () => {
    hanging?.forceShutdown();
    await refusing?.shutdown(1_000);
  });

  it('when a method hangs, then its calls end as 503 with Retry-After, and once its breaker opens they fail fast', async () => {
    const upstream = createUpstream('catalog', catalog.CatalogServiceClient, hangingAddress, settings);
    try {
      for (let i = 0; i < settings.breaker.volumeThreshold; i++) {
        const { error, ms } = await failureOf(upstream.client.getIssue(REQUEST));
        expect(error.code).toBe('DEADLINE_EXCEEDED');
        expect(httpStatusOf(error)).toBe(503);
        expect(error.details.retryAfterSeconds).toBeGreaterThan(0);
        expect(ms).toBeGreaterThanOrEqual(settings.deadlineMs - 10);
      }
      expect(upstream.methodBreaker('getIssue').state).toBe('open');
      // Running out of time is the method's failure, not the service's.
      expect(upstream.breaker.state).toBe('closed');

      const { error, ms } = await failureOf(upstream.client.getIssue(REQUEST));
      expect(ms).toBeLessThan(settings.deadlineMs / 2);
      expect(error.code).toBe('UNAVAILABLE');
      expect(httpStatusOf(error)).toBe(503);
      expect(error.details.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(error.details.retryAfterSeconds).toBeLessThanOrEqual(2);
    } finally {
      upstream.close();
    }
  });

  it("when one method's breaker is open, then the service's other methods still reach it", async () => {
    const upstream = createUpstream('catalog', catalog.CatalogServiceClient, hangingAddress, settings);
    try {
      for (let i = 0; i < settings.breaker.volumeThreshold; i++) await failureOf(upstream.client.getIssue(REQUEST));
      expect(upstream.methodBreaker('getIssue').state).toBe('open');
      // Another method is not failed fast: it reaches the (hung) service and takes its deadline.
      const { error, ms } = await failureOf(upstream.client.getFavorite({ tenantId: 1, userId: 1, issueId: 1001 } as never));
      expect(error.code).toBe('DEADLINE_EXCEEDED');
      expect(ms).toBeGreaterThanOrEqual(settings.deadlineMs - 10);
      expect(upstream.methodBreaker('getFavorite').state).toBe('closed');
    } finally {
      upstream.close();
    }
  });

  it('when the open breaker waited its reset time, then one probe call goes through again', async () => {
    const upstream = createUpstream('catalog', catalog.CatalogServiceClient, hangingAddress, {
      ...settings,
      breaker: { ...settings.breaker, resetMs: 300 },
    });
    try {
      const getIssue = upstream.methodBreaker('getIssue');
      for (let i = 0; i < settings.breaker.volumeThreshold; i++) await failureOf(upstream.client.getIssue(REQUEST));
      expect(getIssue.state).toBe('open');
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(getIssue.state).toBe('half-open');
      const { ms } = await failureOf(upstream.client.getIssue(REQUEST));
      // The probe reached the (still hung) service: it took a deadline, and opened the breaker again.
      expect(ms).toBeGreaterThanOrEqual(settings.deadlineMs - 10);
      expect(getIssue.state).toBe('open');
    } finally {
      upstream.close();
    }
  });

  it('when the service refuses calls with domain errors, then the breaker stays closed and the errors pass through', async () => {
    const upstream = createUpstream('catalog', catalog.CatalogServiceClient, `127.0.0.1:${refusing.port}`, settings);
    try {
      for (let i = 0; i < 10; i++) {
        const { error } = await failureOf(upstream.client.getIssue(REQUEST));
        expect(error.code).toBe('NOT_FOUND');
        expect(httpStatusOf(error)).toBe(404);
      }
      expect(upstream.breaker.state).toBe('closed');
    } finally {
      upstream.close();
    }
  });

  it('when nothing listens at the address, then calls fail as 503 and the breaker opens', async () => {
    const upstream = createUpstream('catalog', catalog.CatalogServiceClient, '127.0.0.1:1', settings);
    try {
      for (let i = 0; i < settings.breaker.volumeThreshold; i++) {
        const { error } = await failureOf(upstream.client.getIssue(REQUEST));
        expect(httpStatusOf(error)).toBe(503);
      }
      // The service's breaker: every method of it fails fast now.
      expect(upstream.breaker.state).toBe('open');
      const started = performance.now();
      const { error } = await failureOf(upstream.client.getFavorite({ tenantId: 1, userId: 1, issueId: 1001 } as never));
      expect(performance.now() - started).toBeLessThan(settings.deadlineMs / 2);
      expect(httpStatusOf(error)).toBe(503);
    } finally {
      upstream.close();
    }
  });

  it('when identity hangs behind the gateway, then HTTP calls get 503 with Retry-After, and fail fast once the breaker opens', async () => {
    const gateway = await startGateway(
      gatewayConfig(hangingAddress, {
        GRPC_DEADLINE_MS: String(settings.deadlineMs),
        BREAKER_TIMEOUT_MS: String(settings.breaker.timeoutMs),
        BREAKER_RESET_MS: '5000',
        BREAKER_VOLUME_THRESHOLD: String(settings.breaker.volumeThreshold),
      }),
    );
    const http = httpClient(gateway.url);
    const init = () => http.post('/api/v2/login/token/init', { body: { email: 'someone@example.com' } });
    try {
      for (let i = 0; i < settings.breaker.volumeThreshold; i++) {
        const response = await init();
        expect(response.status).toBe(503);
        expect(response.body).toEqual({ message: 'Service temporarily unavailable.' });
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
      const started = performance.now();
      const fast = await init();
      expect(performance.now() - started).toBeLessThan(settings.deadlineMs / 2);
      expect(fast.status).toBe(503);
      const retryAfter = Number(fast.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(5);
      expect(gateway.upstreams.identity.methodBreaker('startEmailLogin').state).toBe('open');
    } finally {
      await gateway.stop();
    }
  });
});
