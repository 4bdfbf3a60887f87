// The mongodb driver patch (patches/README.md): a command written to a socket
// the server has already ended fails as a network error instead of waiting
// forever for 'drain'. Exercised on the driver's own Connection class over a
// real TCP socket, the moment where the bug hung the server monitor: the socket
// is destroyed and its 'close' event has not been emitted yet.
import { createRequire } from 'node:module';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The driver is mongoose's dependency; its Connection is internal (no exports map).
const requireFromMongoose = createRequire(createRequire(import.meta.url).resolve('mongoose'));
const { Connection } = requireFromMongoose('mongodb/lib/cmap/connection') as {
  Connection: new (
    socket: Socket,
    options: Record<string, unknown>,
  ) => {
    command(ns: { db: string; collection: string; toString(): string }, command: object, options: object): Promise<unknown>;
    closed: boolean;
  };
};
const { ns } = requireFromMongoose('mongodb/lib/utils') as { ns: (namespace: string) => { db: string; collection: string; toString(): string } };

describe('mongodb driver patch', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function openConnection() {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    return { socket, connection: new Connection(socket, { id: 1, generation: 0, hostAddress: { toString: () => `127.0.0.1:${port}` } }) };
  }

  it('when a command is written after the socket is destroyed but before it emitted close, then it fails as a network error at once', async () => {
    const { socket, connection } = await openConnection();
    socket.destroy();
    const outcome = await Promise.race([
      connection.command(ns('admin.$cmd'), { hello: 1 }, {}).then(
        () => 'answered',
        (error: Error) => error.name,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000)),
    ]);
    expect(outcome).toBe('MongoNetworkError');
    expect(connection.closed).toBe(true);
  });
});
