import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import type { Connection } from 'mongoose';
import mongoose from 'mongoose';
import { uniqueName } from './names.js';

/** Where the real infrastructure of a test run lives. */
export interface Infra {
  mongoUrl: string;
  redisUrl: string;
  amqpUrl: string;
  smtpUrl: string;
  maildevUrl: string;
}

const LOCAL_STACK: Infra = {
  mongoUrl: process.env.TEST_MONGO_URL ?? 'mongodb://127.0.0.1:27017',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  amqpUrl: process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  smtpUrl: process.env.TEST_SMTP_URL ?? 'smtp://127.0.0.1:1025',
  maildevUrl: process.env.TEST_MAILDEV_URL ?? 'http://127.0.0.1:1080',
};

function portOpen(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || defaultPort) });
    socket.setTimeout(1_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export function dockerAvailable(): boolean {
  return process.env.TEST_USE_DOCKER !== '0' && existsSync('/var/run/docker.sock');
}

/**
 * Resolves the infrastructure once per test run (vitest globalSetup):
 * containers from testcontainers when a Docker engine is present, else the
 * local stack that `./dev infra` starts.
 */
export async function resolveInfra(): Promise<{ infra: Infra; stop: () => Promise<void> }> {
  if (dockerAvailable()) {
    const { startContainers } = await import('./containers.js');
    return startContainers();
  }
  const checks: [string, string, number][] = [
    ['MongoDB wire protocol', LOCAL_STACK.mongoUrl, 27017],
    ['Redis', LOCAL_STACK.redisUrl, 6379],
    ['RabbitMQ', LOCAL_STACK.amqpUrl, 5672],
    ['MailDev SMTP', LOCAL_STACK.smtpUrl, 1025],
  ];
  const missing: string[] = [];
  for (const [name, url, port] of checks) {
    if (!(await portOpen(url, port))) missing.push(`${name} at ${url}`);
  }
  if (missing.length) {
    throw new Error(`test infrastructure is not running (${missing.join(', ')}); start it with ./dev infra`);
  }
  return { infra: LOCAL_STACK, stop: async () => {} };
}

/** The infra resolved by the global setup, read from the environment it exported. */
export function testInfra(): Infra {
  return {
    mongoUrl: process.env.FOLIO_TEST_MONGO_URL ?? LOCAL_STACK.mongoUrl,
    redisUrl: process.env.FOLIO_TEST_REDIS_URL ?? LOCAL_STACK.redisUrl,
    amqpUrl: process.env.FOLIO_TEST_AMQP_URL ?? LOCAL_STACK.amqpUrl,
    smtpUrl: process.env.FOLIO_TEST_SMTP_URL ?? LOCAL_STACK.smtpUrl,
    maildevUrl: process.env.FOLIO_TEST_MAILDEV_URL ?? LOCAL_STACK.maildevUrl,
  };
}

export function exportInfra(infra: Infra): void {
  process.env.FOLIO_TEST_MONGO_URL = infra.mongoUrl;
  process.env.FOLIO_TEST_REDIS_URL = infra.redisUrl;
  process.env.FOLIO_TEST_AMQP_URL = infra.amqpUrl;
  process.env.FOLIO_TEST_SMTP_URL = infra.smtpUrl;
  process.env.FOLIO_TEST_MAILDEV_URL = infra.maildevUrl;
}

/** A MongoDB URL of a database that belongs to this test file only. */
export function freshMongoUrl(prefix: string): { url: string; dbName: string } {
  const dbName = uniqueName(`t_${prefix}`).slice(0, 60);
  const base = new URL(testInfra().mongoUrl);
  base.pathname = `/${dbName}`;
  return { url: base.toString(), dbName };
}

/** Opens a fresh database; `drop()` removes it after the file's tests. */
export async function freshDatabase(prefix: string): Promise<{ connection: Connection; url: string; drop: () => Promise<void> }> {
  const { url, dbName } = freshMongoUrl(prefix);
  const connection = await mongoose.createConnection(url, { dbName, serverSelectionTimeoutMS: 5_000 }).asPromise();
  return {
    connection,
    url,
    drop: async () => {
      await connection.dropDatabase().catch(() => {});
      await connection.close();
    },
  };
}
