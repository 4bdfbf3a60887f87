// The gateway's drain (stop()), in process: a request in flight finishes and
// says `Connection: close`, a request on an already open keep-alive
// connection is still answered (with `Connection: close`), and new
// connections are refused. The process-level proof (SIGTERM, exit within the
// drain time, under load) is tests/e2e/test/graceful-shutdown.test.ts.
import { Agent, createServer, request as httpRequest, type ServerResponse } from 'node:http';
import { createConnection, type AddressInfo } from 'node:net';
import { waitFor } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../src/app.js';
import { CLOSED_ADDR, gatewayConfig } from './support.js';

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

function get(port: number, path: string, agent: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('gateway drain', () => {
  // Stands in for the reader's media server: holds each request until released.
  const held: ServerResponse[] = [];
  const media = createServer((_req, res) => void held.push(res));
  let gateway: Gateway;
  const idleAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const slowAgent = new Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
    const mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
    gateway = await startGateway(gatewayConfig(CLOSED_ADDR, { READER_MEDIA_URL: mediaUrl, SHUTDOWN_TIMEOUT_MS: '10000' }));
  });

  afterAll(async () => {
    for (const res of held.splice(0)) res.destroy();
    idleAgent.destroy();
    slowAgent.destroy();
    await gateway?.stop();
    media.closeAllConnections();
    await new Promise((resolve) => media.close(resolve));
  });

  it('when stopping with a request in flight and an idle keep-alive connection, then both are answered with Connection: close and new connections are refused', async () => {
    // A keep-alive connection, idle once answered.
    expect(await get(gateway.port, '/healthz', idleAgent)).toMatchObject({ status: 200, connection: 'keep-alive' });
    const inFlight = get(gateway.port, '/media/held', slowAgent);
    await waitFor(() => (held.length === 1 ? true : undefined), { what: 'the request at the media server' });

    const stopped = gateway.stop();
    expect(await refused(gateway.port)).toBe(true);
    // Sent on the connection that was open (and idle) when the drain began.
    expect(await get(gateway.port, '/healthz', idleAgent)).toMatchObject({ status: 200, connection: 'close' });

    held.shift()!.end('the held bytes');
    expect(await inFlight).toEqual({ status: 200, connection: 'close', body: 'the held bytes' });
    await stopped;
  });
});
