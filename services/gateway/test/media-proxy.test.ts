// The /media/* reverse proxy against a real HTTP server standing in for the
// reader's media server (the reader's own server has its component tests):
// what goes upstream (path, query, range and revalidation headers, never
// cookies or Authorization), what comes back (status and content headers),
// streaming without buffering, client aborts, and the failure answers (503
// when the media server is down or silent, 502 when it fails).
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../src/app.js';
import { CLOSED_ADDR, gatewayConfig, httpClient, type HttpClient } from './support.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

describe('media proxy', () => {
  let upstream: Server;
  let upstreamUrl: string;
  const seen: Seen[] = [];
  let releaseStream: (() => void) | undefined;
  let abortedUpstream: Promise<void> | undefined;
  let gateway: Gateway;
  let http: HttpClient;
  let downGateway: Gateway;

  beforeAll(async () => {
    upstream = createServer((req: IncomingMessage, res: ServerResponse) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/media/1/2/pages/0001.png') {
        res.writeHead(206, {
          'Content-Type': 'image/png',
          'Content-Length': '4',
          'Content-Range': 'bytes 0-3/100',
          'Accept-Ranges': 'bytes',
          'Cache-Control': 'private, max-age=60',
          ETag: '"abc"',
          'Last-Modified': 'Sat, 01 Nov 2026 10:00:00 GMT',
          'Set-Cookie': 'upstream=secret',
          'X-Internal': 'hidden',
        });
        res.end('PNG!');
      } else if (path === '/media/not-modified') {
        res.writeHead(304, { ETag: '"abc"', 'Cache-Control': 'private, max-age=60' });
        res.end();
      } else if (path === '/media/forbidden') {
        res.writeHead(403, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ message: 'This link has expired.' }));
      } else if (path === '/media/slow-stream') {
        res.writeHead(200, { 'Content-Type': 'audio/mpeg' });
        res.write('first-chunk;');
        releaseStream = () => res.end('last-chunk');
      } else if (path === '/media/abandoned') {
        res.writeHead(200, { 'Content-Type': 'audio/mpeg' });
        res.write('x'.repeat(1024));
        abortedUpstream = new Promise((resolve) => res.on('close', () => resolve()));
      } else if (path === '/media/silent') {
        // Takes the request and never answers.
      } else if (path === '/media/broken') {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ message: 'stack trace at /srv/reader/dist/media/server.js:42' }));
      } else {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ message: 'Not found.' }));
      }
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

    gateway = await startGateway(gatewayConfig(CLOSED_ADDR, { READER_MEDIA_URL: upstreamUrl, MEDIA_TIMEOUT_MS: '300', GLOBAL_RATE_LIMIT_PER_MINUTE: '3' }));
    http = httpClient(gateway.url);
    downGateway = await startGateway(gatewayConfig(CLOSED_ADDR, { READER_MEDIA_URL: 'http://127.0.0.1:1', MEDIA_TIMEOUT_MS: '300' }));
  });

  afterAll(async () => {
    releaseStream?.();
    await gateway?.stop();
    await downGateway?.stop();
    upstream.closeAllConnections();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it('when a signed file is fetched with Range, then path and query go upstream unchanged with only range and revalidation headers', async () => {
    seen.length = 0;
    const response = await http.get('/media/1/2/pages/0001.png?exp=1795383684&sig=ab-c_d', {
      headers: {
        range: 'bytes=0-3',
        'if-none-match': '"old"',
        'if-modified-since': 'Sat, 01 Nov 2026 09:00:00 GMT',
        cookie: 'folio_session=web-session',
        authorization: 'Bearer secret-jwt',
        'reader-token': 'secret-reader-token',
        'x-svc-tenant-id': '1',
      },
    });
    expect(response.status).toBe(206);
    expect(seen).toHaveLength(1);
    const [call] = seen;
    expect(call!.method).toBe('GET');
    expect(call!.url).toBe('/media/1/2/pages/0001.png?exp=1795383684&sig=ab-c_d');
    expect(call!.headers).toMatchObject({ range: 'bytes=0-3', 'if-none-match': '"old"', 'if-modified-since': 'Sat, 01 Nov 2026 09:00:00 GMT' });
    for (const name of ['cookie', 'authorization', 'reader-token', 'x-svc-tenant-id']) expect(call!.headers[name]).toBeUndefined();
    expect(call!.headers['x-request-id']).toBe(response.headers['x-request-id']);
  });

  it('when the media server answers, then its status and content headers come back, and nothing else of its headers', async () => {
    const response = await http.get('/media/1/2/pages/0001.png?exp=1&sig=x', { headers: { range: 'bytes=0-3' } });
    expect(response.status).toBe(206);
    expect(response.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': '4',
      'content-range': 'bytes 0-3/100',
      'accept-ranges': 'bytes',
      'cache-control': 'private, max-age=60',
      etag: '"abc"',
      'last-modified': 'Sat, 01 Nov 2026 10:00:00 GMT',
      'cross-origin-resource-policy': 'cross-origin',
    });
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['x-internal']).toBeUndefined();
    expect(response.text).toBe('PNG!');
  });

  it.each([
    ['/media/not-modified', 304],
    ['/media/forbidden', 403],
    ['/media/unknown/file.png', 404],
  ])('when the media server answers %s with %i, then the client gets the same', async (path, status) => {
    const response = await http.get(path);
    expect(response.status).toBe(status);
    if (status === 403) expect(response.body).toEqual({ message: 'This link has expired.' });
  });

  it('when a HEAD request is made, then it goes upstream as HEAD', async () => {
    seen.length = 0;
    const response = await http.send('HEAD', '/media/1/2/pages/0001.png');
    expect(response.status).toBe(206);
    expect(seen[0]!.method).toBe('HEAD');
  });

  it('when the client POSTs, then 405 and nothing goes upstream', async () => {
    seen.length = 0;
    const response = await http.post('/media/1/2/pages/0001.png', { body: { a: 1 } });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(seen).toHaveLength(0);
  });

  it('when the media server streams slowly, then the client receives the first bytes before the file is complete', async () => {
    const base = new URL(gateway.url);
    const firstChunk = await new Promise<{ chunk: string; rest: Promise<string> }>((resolve, reject) => {
      const req = httpRequest({ host: base.hostname, port: base.port, path: '/media/slow-stream', agent: false }, (res) => {
        let received = '';
        let resolved = false;
        const rest = new Promise<string>((done) => res.on('end', () => done(received)));
        res.setEncoding('utf8');
        res.on('data', (data: string) => {
          received += data;
          if (!resolved) {
            resolved = true;
            resolve({ chunk: received, rest });
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(firstChunk.chunk).toBe('first-chunk;');
    releaseStream!();
    await expect(firstChunk.rest).resolves.toBe('first-chunk;last-chunk');
  });

  it('when the client goes away mid-file, then the upstream request is aborted too', async () => {
    const base = new URL(gateway.url);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: base.hostname, port: base.port, path: '/media/abandoned', agent: false }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => {});
      req.on('close', () => resolve());
      setTimeout(() => reject(new Error('no data')), 2_000);
      req.end();
    });
    await expect(
      Promise.race([abortedUpstream, new Promise((_, reject) => setTimeout(() => reject(new Error('upstream kept streaming')), 2_000))]),
    ).resolves.toBeUndefined();
  });

  it('when the media server is down, then 503 JSON with Retry-After, quickly', async () => {
    const started = performance.now();
    const response = await httpClient(downGateway.url).get('/media/1/2/book.epub?exp=1&sig=x');
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ message: expect.stringMatching(/media server is unavailable/) });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('when the media server takes the request and never answers, then 503 after the timeout', async () => {
    const started = performance.now();
    const response = await http.get('/media/silent');
    expect(response.status).toBe(503);
    expect(response.body.message).toMatch(/unavailable/);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('when one IP fetches many files, then the global per-IP limit does not apply to media (it does to the API)', async () => {
    const ip = { 'x-forwarded-for': '203.0.113.77' };
    const media = await Promise.all(Array.from({ length: 8 }, () => http.get('/media/1/2/pages/0001.png', { headers: ip })));
    expect(media.map((response) => response.status)).toEqual(Array(8).fill(206));
    const apiStatuses: number[] = [];
    for (let i = 0; i < 4; i++) apiStatuses.push((await http.get('/api/v2/nothing-here', { headers: ip })).status);
    expect(apiStatuses).toContain(429);
  });

  it('when the media server fails with a 5xx, then 502 without its body', async () => {
    const response = await http.get('/media/broken');
    expect(response.status).toBe(502);
    expect(response.text).not.toContain('/srv/reader');
    expect(response.body).toEqual({ message: expect.any(String) });
  });
});
