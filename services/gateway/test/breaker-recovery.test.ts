// Recovery after an outage: a service that comes back at the same address is
// reached by the breaker's first trial call, even though the client channel
// is still in reconnect backoff from the failed connections of the outage.
import { notFound, type DomainError } from '@folio/errors';
import { startGrpcServer, type GrpcServer } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { catalog } from '@folio/proto';
import { freePort } from '@folio/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createUpstream } from '../src/peers/index.js';

// A generous deadline: the trial must be able to wait out one bounded reconnect backoff.
const settings = {
  deadlineMs: 8_000,
  breaker: { timeoutMs: 9_000, resetMs: 200, volumeThreshold: 3, errorThresholdPercentage: 50 },
};
const REQUEST = { tenantId: 1, issueId: 1001 };

/** A port that was free a moment ago: the outage is "nothing listens there". */

/** The service, back: it answers every call with a domain refusal, which proves it is up. */
function startCatalog(port: number): Promise<GrpcServer> {
  const refuse = async () => {
    throw notFound('No such issue.');
  };
  return startGrpcServer({
    logger: createLogger({ service: 'test', level: 'silent' }),
    port,
    host: '127.0.0.1',
    services: [
      {
        name: 'svc.catalog.v1.CatalogService',
        definition: catalog.CatalogServiceService,
        handlers: Object.fromEntries(Object.keys(catalog.CatalogServiceService).map((name) => [name, refuse])) as never,
      },
    ],
  });
}

async function errorOf(call: Promise<unknown>): Promise<DomainError> {
  return call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error as DomainError,
  );
}

/** Polls a condition (no fixed sleeps: the breaker's own timer decides). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('upstream recovery after an outage', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('when the service comes back, then the half-open trial waits for the channel and closes the breaker', async () => {
    const port = await freePort();
    const upstream = createUpstream('catalog', catalog.CatalogServiceClient, `127.0.0.1:${port}`, settings);
    cleanup.push(() => upstream.close());

    // The outage: connections refused until the breaker opens.
    for (let i = 0; i < settings.breaker.volumeThreshold; i++) {
      expect((await errorOf(upstream.client.getIssue(REQUEST))).code).toBe('UNAVAILABLE');
    }
    expect(upstream.breaker.state).toBe('open');

    const server = await startCatalog(port);
    cleanup.push(() => server.shutdown(1_000));
    await until(() => upstream.breaker.state === 'half-open');

    // The trial reaches the service (its domain refusal is an answer, not an outage) ...
    expect((await errorOf(upstream.client.getIssue(REQUEST))).code).toBe('NOT_FOUND');
    // ... so the breaker closes and the next calls go straight through.
    expect(upstream.breaker.state).toBe('closed');
    expect((await errorOf(upstream.client.getIssue(REQUEST))).code).toBe('NOT_FOUND');
  });

  it('when the service is still down, then the trial fails and the breaker opens again', async () => {
    const port = await freePort();
    const upstream = createUpstream('catalog', catalog.CatalogServiceClient, `127.0.0.1:${port}`, {
      ...settings,
      deadlineMs: 300,
      breaker: { ...settings.breaker, timeoutMs: 1_000 },
    });
    cleanup.push(() => upstream.close());
    for (let i = 0; i < settings.breaker.volumeThreshold; i++) await errorOf(upstream.client.getIssue(REQUEST));
    await until(() => upstream.breaker.state === 'half-open');

    const trial = await errorOf(upstream.client.getIssue(REQUEST));
    expect(['UNAVAILABLE', 'DEADLINE_EXCEEDED']).toContain(trial.code);
    expect(trial.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(upstream.breaker.state).toBe('open');
  });
});
