import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server. `cut()` drops every connection and
 * refuses new ones, exactly what a client sees when the server is stopped,
 * without stopping infrastructure that other test files share. `hold()`
 * keeps every connection open but forwards nothing until `release()`: a
 * server that has stopped answering, for as long as the test decides.
 */
export interface TcpProxy {
  port: number;
  url(template: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** From now on, bytes in either direction wait in the proxy (connections stay open, new ones are accepted). */
  hold(): void;
  /**
   * Whether the bytes from clients that wait in the proxy contain `text` (each
   * connection's chunks joined in order): which requests a held server has
   * been sent, when one request carries several (a batched insert).
   */
  heldTowardServerIncludes(text: string): boolean;
  /** Forwards what waited, in order, and everything after it. */
  release(): void;
  /** How many client connections it has accepted so far (a client that reconnects counts again). */
  connections(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let holding = false;
  let held: { to: Socket; chunk: Buffer }[] = [];
  const upstreams = new Set<Socket>();
  let accepted = 0;
  // Like pipe() (with its back-pressure), except that while holding, chunks queue here.
  const relay = (from: Socket, to: Socket) =>
    from.on('data', (chunk: Buffer) => {
      if (holding) {
        held.push({ to, chunk });
        return;
      }
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => from.resume());
      }
    });
  const server = createServer((client) => {
    accepted++;
    const upstream = createConnection({ host: targetHost, port: targetPort });
    sockets.add(client).add(upstream);
    upstreams.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
      upstreams.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    relay(client, upstream);
    relay(upstream, client);
  });
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.address() as { port: number }).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      held = [];
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  await listen();
  return {
    get port() {
      return port;
    },
    url(template: string) {
      const url = new URL(template);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString().replace(/\/$/, '');
    },
    cut: stop,
    restore: listen,
    hold() {
      holding = true;
    },
    heldTowardServerIncludes(text: string) {
      const perConnection = new Map<Socket, Buffer[]>();
      for (const { to, chunk } of held) if (upstreams.has(to)) perConnection.set(to, [...(perConnection.get(to) ?? []), chunk]);
      return [...perConnection.values()].some((chunks) => Buffer.concat(chunks).includes(text));
    },
    release() {
      holding = false;
      for (const { to, chunk } of held.splice(0)) if (!to.destroyed) to.write(chunk);
    },
    connections: () => accepted,
    close: stop,
  };
}
