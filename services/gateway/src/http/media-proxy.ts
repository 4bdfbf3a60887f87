// `/media/*`: a streaming reverse proxy to the reader's media server, which
// serves content files (EPUB packages, PDF page images, audio tracks, covers).
// The URL's signature is the credential, checked by the media server; the
// gateway adds no auth and forwards no client credentials (cookies,
// Authorization). Path and query are kept as the client sent them; only the
// conditional and range headers go upstream, and only the content headers come
// back. Bodies are piped in both directions' backpressure, never buffered.
//
// Failure modes: the media server refuses the connection, resets it, or sends
// no headers within MEDIA_TIMEOUT_MS → 503 JSON with Retry-After; it stalls
// mid-body for MEDIA_TIMEOUT_MS → the client connection is cut (the status
// line is already out); it answers 5xx → 502 JSON (its body is not relayed).
// A client that goes away aborts the upstream request.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '@folio/logger';
import { stateOf } from './context.js';

/** Client headers that go upstream: ranges and revalidation. Nothing else (no Cookie, no Authorization). */
const FORWARDED_REQUEST_HEADERS = [
  'range',
  'if-range',
  'if-none-match',
  'if-modified-since',
  'access-control-request-method',
  'access-control-request-headers',
] as const;

/** Upstream headers relayed to the client. */
const RELAYED_RESPONSE_HEADERS = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'cache-control',
  'etag',
  'last-modified',
  // The media server's own, stricter policy for SVG covers replaces the gateway's.
  'content-security-policy',
  'allow',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
] as const;

const METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What a page on any origin may read of a media answer, errors included. Any origin, not a
 * tenant's list: the signed URL is the credential, no cookie or Authorization is involved, so
 * `*` gives a page nothing the URL did not already give it (and never credentials).
 */
const MEDIA_CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Accept-Ranges, Content-Length, Content-Range, ETag, Last-Modified',
  // A signed URL may be embedded by a reader engine or web view on another origin.
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

export interface MediaProxyOptions {
  /** Base URL of the media server, e.g. http://127.0.0.1:8090. */
  upstreamUrl: string;
  /** Wait for response headers, and longest pause while streaming. */
  timeoutMs: number;
  logger: Logger;
}

export interface MediaProxy {
  handler: RequestHandler;
  /** Closes the kept-alive upstream connections. */
  close(): void;
}

function sendJson(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res.set(headers);
  res.status(status).type('application/json').send(JSON.stringify({ message }));
}

export function mediaProxy(options: MediaProxyOptions): MediaProxy {
  const base = new URL(options.upstreamUrl);
  const secure = base.protocol === 'https:';
  const transport = secure ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 32 });
  const basePath = base.pathname.replace(/\/+$/, '');

  const handler: RequestHandler = (req: Request, res: Response) => {
    res.set(MEDIA_CORS_HEADERS);
    if (!METHODS.has(req.method)) {
      sendJson(res, 405, 'Method not allowed.', { Allow: 'GET, HEAD, OPTIONS' });
      return;
    }
    // The original URL (mounted at /media, so it starts with /media/), path and query as sent.
    const path = `${basePath}${req.originalUrl}`;
    const headers: Record<string, string> = { 'x-request-id': stateOf(res).context.requestId };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }

    let answered = false;
    const upstream = transport.request(
      {
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port || (secure ? 443 : 80),
        method: req.method,
        path,
        headers,
        agent,
        timeout: options.timeoutMs,
      },
      (upstreamRes: IncomingMessage) => {
        answered = true;
        const status = upstreamRes.statusCode ?? 502;
        if (status >= 500) {
          upstreamRes.resume();
          options.logger.warn({ status, path: req.path }, 'media server failed');
          sendJson(res, 502, 'The media server could not deliver the file.');
          return;
        }
        for (const name of RELAYED_RESPONSE_HEADERS) {
          const value = upstreamRes.headers[name];
          if (value !== undefined) res.setHeader(name, value);
        }
        res.status(status);
        pipeline(upstreamRes, res, (error) => {
          if (error && !res.writableFinished) {
            options.logger.debug({ err: error, path: req.path }, 'media stream ended early');
            upstream.destroy();
          }
        });
      },
    );

    upstream.on('timeout', () => upstream.destroy(Object.assign(new Error('media server timed out'), { code: 'ETIMEDOUT' })));
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (answered || res.headersSent) {
        res.destroy();
        return;
      }
      if (res.destroyed) return;
      options.logger.warn({ err: error, code: error.code, path: req.path }, 'media server unreachable');
      sendJson(res, 503, 'The media server is unavailable. Try again shortly.', { 'Retry-After': '5' });
    });
    // The client went away: stop reading from upstream.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.end();
  };

  return { handler, close: () => agent.destroy() };
}
