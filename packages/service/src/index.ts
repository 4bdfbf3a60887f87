// The start-up every service's app.ts repeats, written once: each connection
// or server a service opens through the kit registers how it is closed, and
// stop() (or a start that fails half-way) closes them newest first: the gRPC
// server stops taking calls before the consumers drain and the database
// closes. What a service wires in between stays in its own app.ts.
//
//   return startService('notes', logger, async (kit) => {
//     const connection = await kit.mongo(config.MONGO_URL);
//     const broker = await kit.broker(config.AMQP_URL);
//     ...
//     const grpc = await kit.grpc(config, [{ name, definition, handlers }]);
//     return { grpcPort: grpc.port, stop: kit.stop };
//   });
import { startGrpcServer, Teardown, type GrpcServer, type ServiceRegistration } from '@folio/grpc';
import type { Logger } from '@folio/logger';
import { Broker, startAccountEraser, type AccountDeletion, type AccountEraserConfig, type RunningConsumer } from '@folio/messaging';
import { connectMongo, type Connection } from '@folio/mongo';
import { Redis, type RedisOptions } from 'ioredis';

/** The parsed config keys the gRPC server reads (`serviceEnv` in @folio/config). */
export interface GrpcServerConfig {
  GRPC_PORT: number;
  GRPC_UNIX_SOCKET?: string;
  /** How long running calls may finish on stop before they are cut. */
  SHUTDOWN_TIMEOUT_MS: number;
}

export interface ServiceKit {
  /** Runs `step` on stop, before every step registered earlier (a step that fails is logged; the others still run). */
  onStop(step: () => unknown): void;
  /** Runs every registered step once, newest first: the service's own stop(). */
  readonly stop: () => Promise<void>;
  /** The service's database. */
  mongo(url: string): Promise<Connection>;
  /**
   * The service's broker connection. It connects in the background and
   * reconnects on its own: a service starts and serves while RabbitMQ is away.
   */
  broker(url: string): Promise<Broker>;
  /** A Redis client whose connection errors are logged (ioredis reconnects on its own); quit on stop. */
  redis(url: string, options: RedisOptions): Redis;
  /** The account.deleted consumer (`startAccountEraser` in @folio/messaging). */
  eraser(deps: {
    broker: Broker;
    connection: Connection;
    config: AccountEraserConfig;
    erase: (deletion: AccountDeletion) => Promise<void>;
  }): Promise<RunningConsumer>;
  /** The gRPC server with grpc.health.v1; on stop it lets running calls finish up to SHUTDOWN_TIMEOUT_MS. */
  grpc(config: GrpcServerConfig, services: ServiceRegistration<any>[]): Promise<GrpcServer>;
}

/**
 * Runs `start` with a kit named for the service and returns what it returns.
 * When `start` throws, everything opened so far is closed before the error
 * is rethrown, so a failed start leaves no connection or port behind.
 */
export async function startService<T>(name: string, logger: Logger, start: (kit: ServiceKit) => Promise<T>): Promise<T> {
  const teardown = new Teardown(logger, name);
  const kit: ServiceKit = {
    onStop: (step) => teardown.add(step),
    stop: teardown.run,
    async mongo(url) {
      const connection = await connectMongo(url);
      teardown.add(() => connection.close());
      return connection;
    },
    async broker(url) {
      const broker = await Broker.connect(url, { logger, lazy: true, name });
      teardown.add(() => broker.close());
      return broker;
    },
    redis(url, options) {
      const redis = new Redis(url, options);
      redis.on('error', (error) => logger.warn({ err: error }, 'redis error'));
      // quit() waits for the replies still due; when the server is gone it cannot, and the socket is dropped.
      teardown.add(() => redis.quit().catch(() => redis.disconnect()));
      return redis;
    },
    async eraser(deps) {
      const eraser = await startAccountEraser({ ...deps, logger });
      teardown.add(() => eraser.stop());
      return eraser;
    },
    async grpc(config, services) {
      const server = await startGrpcServer({ logger, port: config.GRPC_PORT, unixSocket: config.GRPC_UNIX_SOCKET, services });
      teardown.add(() => server.shutdown(config.SHUTDOWN_TIMEOUT_MS));
      return server;
    },
  };
  try {
    return await start(kit);
  } catch (error) {
    await teardown.run();
    throw error;
  }
}
