// A raw-body route over a real HTTP server: the declared type and length are
// judged before a byte is read, a body without Content-Length is counted as it
// streams, and the handler gets the file re-cut into chunks of at most 1 MiB.
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { httpBodyOf, httpStatusOf, isDependencyOutage, type DomainError } from '@folio/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawUploadOf, UPLOAD_CHUNK_BYTES } from './raw-body.js';

const MAX = 3 * 1024 * 1024;
let server: Server;
let port: number;
/** What the last request's handler saw: its chunk sizes, and whether it started reading at all. */
let seen: { chunks: number[]; read: boolean };

beforeAll(async () => {
  const app = express();
  app.put('/file', async (req, res) => {
    seen = { chunks: [], read: false };
    try {
      const upload = rawUploadOf(req, { mediaTypes: ['application/pdf'], description: 'a file' }, MAX);
      seen.read = true;
      for await (const chunk of upload.chunks()) seen.chunks.push(chunk.length);
      res.status(202).json({ bytes: seen.chunks.reduce((sum, n) => sum + n, 0), declared: upload.declaredBytes });
    } catch (error) {
      if (isDependencyOutage(error)) throw error;
      res.status(httpStatusOf(error as DomainError)).json(httpBodyOf(error as DomainError));
    }
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends `parts` one after the other (chunked unless a length is given) and reads the answer. */
function put(headers: Record<string, string>, parts: Buffer[]): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'PUT', path: '/file', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (piece: string) => (text += piece));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') as Record<string, unknown> }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    (async () => {
      for (const part of parts) if (!req.write(part)) await new Promise((drained) => req.once('drain', drained));
      req.end();
    })().catch(() => {});
  });
}

describe('raw request bodies', () => {
  it('when the file streams in without a Content-Length, then the handler gets it in chunks of at most 1 MiB', async () => {
    const parts = Array.from({ length: 10 }, (_, i) => Buffer.alloc(250_000 + i, i));
    const answer = await put({ 'content-type': 'application/pdf' }, parts);
    expect(answer).toMatchObject({ status: 202, body: { bytes: parts.reduce((sum, part) => sum + part.length, 0), declared: 0 } });
    expect(Math.max(...seen.chunks)).toBeLessThanOrEqual(UPLOAD_CHUNK_BYTES);
    expect(seen.chunks.slice(0, -1).every((size) => size === UPLOAD_CHUNK_BYTES)).toBe(true);
  });

  it('when Content-Type is not one the route takes, then it is 415 before anything is read', async () => {
    const answer = await put({ 'content-type': 'text/html', 'content-length': '4' }, [Buffer.from('<p/>')]);
    expect(answer.status).toBe(415);
    expect(answer.body.errors).toEqual({ 'Content-Type': ['text/html is not accepted'] });
    expect(seen.read).toBe(false);
  });

  it('when Content-Length is over the limit, then it is 413 before anything is read', async () => {
    const answer = await put({ 'content-type': 'application/pdf', 'content-length': String(MAX + 1) }, [Buffer.alloc(16)]);
    expect(answer).toMatchObject({ status: 413, body: { message: 'The file is larger than the 3 MB allowed for one upload.' } });
    expect(seen.read).toBe(false);
  });

  it('when a body without Content-Length passes the limit, then it is 413 once it does', async () => {
    const answer = await put(
      { 'content-type': 'application/pdf' },
      Array.from({ length: 8 }, () => Buffer.alloc(512 * 1024)),
    );
    expect(answer.status).toBe(413);
    expect(seen.chunks.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(MAX);
  });
});
