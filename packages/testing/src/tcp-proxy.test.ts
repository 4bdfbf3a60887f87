import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startTcpProxy } from './tcp-proxy.js';
import { waitFor } from './wait.js';

function echoServer() {
  const received: string[] = [];
  const server = createServer((socket) => {
    socket.on('data', (data) => received.push(String(data)));
    socket.pipe(socket);
  });
  return new Promise<{ port: number; received: string[]; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as { port: number }).port, received, close: () => server.close() })),
  );
}

async function roundTrip(port: number, message = 'ping', sent: () => void = () => {}): Promise<string> {
  const { createConnection } = await import('node:net');
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => socket.write(message, sent));
    socket.once('data', (data) => {
      resolve(String(data));
      socket.destroy();
    });
    socket.once('error', reject);
  });
}

describe('tcp proxy', () => {
  const cleanups: (() => unknown)[] = [];
  afterAll(async () => {
    for (const fn of cleanups) await fn();
  });

  it('when cut, then connections are refused until restored on the same port', async () => {
    const echo = await echoServer();
    cleanups.push(echo.close);
    const proxy = await startTcpProxy('127.0.0.1', echo.port);
    cleanups.push(proxy.close);

    expect(await roundTrip(proxy.port)).toBe('ping');
    const port = proxy.port;
    await proxy.cut();
    await expect(roundTrip(port)).rejects.toThrow(/ECONNREFUSED/);
    await proxy.restore();
    expect(proxy.port).toBe(port);
    expect(await roundTrip(proxy.port)).toBe('ping');
  });

  it('when held, then nothing is forwarded while the connection stays open, and on release what waited arrives in order', async () => {
    const echo = await echoServer();
    cleanups.push(echo.close);
    const proxy = await startTcpProxy('127.0.0.1', echo.port);
    cleanups.push(proxy.close);

    proxy.hold();
    let written!: () => void;
    const wasWritten = new Promise<void>((resolve) => (written = resolve));
    const answer = roundTrip(proxy.port, 'held', written);
    await wasWritten;
    await waitFor(() => (proxy.heldTowardServerIncludes('held') ? true : undefined), { what: 'the held chunk' });
    // A connection straight to the server: it answers, and has seen nothing of the held one.
    expect(await roundTrip(echo.port, 'direct')).toBe('direct');
    expect(echo.received).toEqual(['direct']);
    expect(proxy.heldTowardServerIncludes('direct')).toBe(false);
    proxy.release();
    expect(await answer).toBe('held');
    expect(echo.received).toEqual(['direct', 'held']);
  });
});
