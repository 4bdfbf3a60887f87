// The start-up kernel against the real MongoDB wire protocol, Redis and
// RabbitMQ: what a service opens through the kit is closed on stop, newest
// first, and a start that fails half-way leaves no connection or port behind.
import { createConnection as connectTcp } from 'node:net';
import { createLogger } from '@folio/logger';
import { ACCOUNT_DELETED, createEvent, type AccountDeletion } from '@folio/messaging';
import { deleteTopology, freshMongoUrl, testInfra, uniqueName, waitFor } from '@folio/testing';
import mongoose from 'mongoose';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '../src/index.js';

const logger = createLogger({ service: 'service-test', level: 'silent' });
const grpcConfig = { GRPC_PORT: 0, SHUTDOWN_TIMEOUT_MS: 1_000 };
const redisOptions = { maxRetriesPerRequest: 1, connectTimeout: 5_000 };
const eraserConfig = {
  IDENTITY_EVENTS_EXCHANGE: uniqueName('service_test.identity.events'),
  QUEUE_PREFIX: uniqueName('service_test'),
  CONSUMER_MAX_RETRIES: 1,
  CONSUMER_RETRY_DELAY_MS: 100,
};
const databases: string[] = [];

function freshDatabaseUrl(): string {
  const { url, dbName } = freshMongoUrl('service_kernel');
  databases.push(dbName);
  return url;
}

/** Whether something accepts TCP connections on the port (the gRPC server). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

afterAll(async () => {
  await deleteTopology({ exchanges: [eraserConfig.IDENTITY_EVENTS_EXCHANGE], consumers: [`${eraserConfig.QUEUE_PREFIX}.account-eraser`] });
  const admin = await mongoose.createConnection(testInfra().mongoUrl).asPromise();
  for (const name of databases) await admin.useDb(name).dropDatabase();
  await admin.close();
});

describe('startService', () => {
  it('when a started service stops, then everything it opened is closed, newest first (the gRPC server before the database)', async () => {
    const erased: AccountDeletion[] = [];
    const seenOnStop: string[] = [];
    const service = await startService('kernel-test', logger, async (kit) => {
      const connection = await kit.mongo(freshDatabaseUrl());
      kit.onStop(async () => seenOnStop.push(`before the database closes, gRPC listening: ${await listening(grpc.port)}`));
      const redis = kit.redis(testInfra().redisUrl, redisOptions);
      const broker = await kit.broker(testInfra().amqpUrl);
      await kit.eraser({ broker, connection, config: eraserConfig, erase: async (deletion) => void erased.push(deletion) });
      const grpc = await kit.grpc(grpcConfig, []);
      kit.onStop(() => seenOnStop.push(`first, database open: ${connection.readyState === mongoose.ConnectionStates.connected}`));
      return { connection, redis, broker, grpcPort: grpc.port, stop: kit.stop };
    });

    expect(await listening(service.grpcPort)).toBe(true);
    expect(await service.redis.ping()).toBe('PONG');
    // The broker connects and the eraser binds in the background: publish until one deletion arrives.
    await waitFor(
      async () => {
        if (erased.length) return erased;
        if (service.broker.isConnected()) await service.broker.publish(eraserConfig.IDENTITY_EVENTS_EXCHANGE, createEvent(ACCOUNT_DELETED, { user_id: 7 }));
        return undefined;
      },
      { intervalMs: 300, what: 'the eraser to hear account.deleted' },
    );
    expect(erased[0]).toEqual({ userId: 7, email: null });

    await service.stop();

    expect(seenOnStop).toEqual(['first, database open: true', 'before the database closes, gRPC listening: false']);
    expect(await listening(service.grpcPort)).toBe(false);
    expect(service.broker.isConnected()).toBe(false);
    // quit() resolves on the server's reply; the socket closes right after it.
    await waitFor(() => (service.redis.status === 'end' ? true : undefined), { timeoutMs: 2_000, what: 'the Redis client to end' });
    expect(service.connection.readyState).toBe(mongoose.ConnectionStates.disconnected);
  });

  it('when the start fails half-way, then what it opened is closed and the error comes out unchanged', async () => {
    const opened: { connection?: mongoose.Connection; redis?: { status: string }; grpcPort?: number } = {};
    const failure = new Error('wiring failed');

    const starting = startService('kernel-test', logger, async (kit) => {
      opened.connection = await kit.mongo(freshDatabaseUrl());
      opened.redis = kit.redis(testInfra().redisUrl, redisOptions);
      opened.grpcPort = (await kit.grpc(grpcConfig, [])).port;
      throw failure;
    });

    await expect(starting).rejects.toBe(failure);
    expect(await listening(opened.grpcPort!)).toBe(false);
    await waitFor(() => (opened.redis?.status === 'end' ? true : undefined), { timeoutMs: 2_000, what: 'the Redis client to end' });
    expect(opened.connection?.readyState).toBe(mongoose.ConnectionStates.disconnected);
  });
});
