// The media HTTP server: serves stored content files to clients at
// `/media/<tenant>/<issue>/<file>` (the gateway proxies `/media/*` here; the
// `/media` prefix is optional so the server also works on its own). Paid files
// need a valid, unexpired signature (403 otherwise); covers are public, also at
// `/media/covers/<issue_id>.svg` (the catalog's cover URL template), and as
// PNG at `/media/covers/<issue_id>.png` (cover-raster.ts). Range
// requests (206, 416) let audio players seek and EPUB readers fetch parts.
// Files inside an EPUB package are served at `<epub key>/~<exp>~<sig>/<path>`
// (one signature for the whole package, see MediaUrls.signedPackagePrefix),
// with a policy that runs no script from a publication.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@folio/logger';
import { ArchiveError, type ArchiveLimits } from '../archive/zip-reader.js';
import type { ContentStorage } from '../storage/storage.js';
import type { CoverRasters } from './cover-raster.js';
import { PackageFiles } from './package-files.js';
import { mediaTypeOf } from './types.js';
import { isPublicKey, PACKAGE_CAPABILITY, packageScope, type MediaUrls } from './signing.js';

/** Files of a publication: its own styles, images and fonts, never its scripts, nothing from elsewhere. */
const PACKAGE_FILE_POLICY = "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; media-src 'self'";

export interface MediaServerOptions {
  storage: ContentStorage;
  urls: MediaUrls;
  logger: Logger;
  /** The storage key of an issue's cover by issue id (for `/covers/<id>.svg`), or null. */
  coverKeyOf(issueId: number): Promise<string | null>;
  /** PNG renditions of SVG covers (for `/covers/<id>.png`). */
  rasters?: CoverRasters;
  /** Bounds of the EPUB packages whose files are served one by one (the defaults otherwise). */
  archiveLimits?: ArchiveLimits;
  /** Bytes of package files being inflated at once, over all requests (twice the per-file cap otherwise). */
  packageBytesInFlight?: number;
}

export interface RunningMediaServer {
  port: number;
  server: Server;
  close(): Promise<void>;
}

export async function startMediaServer(options: MediaServerOptions, port: number, host: string): Promise<RunningMediaServer> {
  const packages = new PackageFiles(options.storage, options.archiveLimits, options.packageBytesInFlight);
  const server = createServer((request, response) => {
    handle(options, packages, request, response).catch((error: unknown) => {
      options.logger.error({ err: error, url: request.url }, 'media request failed');
      if (!response.headersSent) sendJson(response, 500, { message: 'Internal server error.' });
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  options.logger.info({ port: bound }, 'media server listening');
  return {
    port: bound,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(options: MediaServerOptions, packages: PackageFiles, request: IncomingMessage, response: ServerResponse): Promise<void> {
  response.setHeader('Access-Control-Allow-Origin', '*');
  response.setHeader('Access-Control-Expose-Headers', 'Accept-Ranges, Content-Length, Content-Range');
  if (request.method === 'OPTIONS') {
    response.writeHead(204, { 'Access-Control-Allow-Methods': 'GET, HEAD', 'Access-Control-Allow-Headers': 'Range', 'Access-Control-Max-Age': '600' });
    response.end();
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    sendJson(response, 405, { message: 'Method not allowed.' });
    return;
  }
  const url = new URL(request.url ?? '/', 'http://media.local');
  let path = url.pathname.replace(/^\/media(?=\/)/, '');
  let decoded: string[];
  try {
    decoded = path
      .split('/')
      .slice(1)
      .map((segment) => decodeURIComponent(segment));
  } catch {
    sendJson(response, 404, { message: 'Not found.' });
    return;
  }

  // The catalog's cover template: /covers/<issue_id>.svg, and its PNG rendition.
  const cover = decoded.length === 2 && decoded[0] === 'covers' ? /^(\d{1,9})\.(svg|png)$/.exec(decoded[1]!) : null;
  if (cover) {
    const key = await options.coverKeyOf(Number(cover[1]));
    if (!key) {
      sendJson(response, 404, { message: 'Not found.' });
      return;
    }
    if (cover[2] === 'png' && key.endsWith('.svg')) await sendRaster(options, request, response, key);
    else await sendObject(options, request, response, key, 'public, max-age=3600');
    return;
  }

  if (
    decoded.length < 3 ||
    !/^\d{1,9}$/.test(decoded[0]!) ||
    !/^\d{1,9}$/.test(decoded[1]!) ||
    decoded.some((s) => s === '' || s === '.' || s === '..' || /[\\\0]/.test(s))
  ) {
    sendJson(response, 404, { message: 'Not found.' });
    return;
  }
  const capability = decoded.findIndex((segment, index) => index >= 3 && PACKAGE_CAPABILITY.test(segment));
  if (capability !== -1) {
    const epubKey = decoded.slice(0, capability).join('/');
    await sendPackageFile(options, packages, request, response, epubKey, decoded[capability]!, decoded.slice(capability + 1).join('/'));
    return;
  }
  path = decoded.join('/');
  if (isPublicKey(path)) {
    await sendObject(options, request, response, path, 'public, max-age=3600');
    return;
  }
  const verdict = options.urls.verify(path, url.searchParams.get('exp'), url.searchParams.get('sig'));
  if (verdict !== 'ok') {
    sendJson(response, 403, { message: verdict === 'expired' ? 'This link has expired.' : 'This link is not valid.' });
    return;
  }
  const maxAge = Math.max(0, Number(url.searchParams.get('exp')) - Math.floor(Date.now() / 1000));
  await sendObject(options, request, response, path, `private, max-age=${maxAge}`);
}

/** The PNG rendition of the SVG cover at `svgKey`. */
async function sendRaster(options: MediaServerOptions, request: IncomingMessage, response: ServerResponse, svgKey: string): Promise<void> {
  const raster = await options.rasters?.png(svgKey);
  if (!raster) {
    sendJson(response, 404, { message: 'Not found.' });
    return;
  }
  const etag = `"png-${raster.png.length.toString(16)}-${raster.modifiedAt.getTime().toString(16)}"`;
  const cacheControl = 'public, max-age=3600';
  if (request.headers['if-none-match'] === etag) {
    response.writeHead(304, { ETag: etag, 'Cache-Control': cacheControl });
    response.end();
    return;
  }
  response.writeHead(200, {
    'Content-Type': 'image/png',
    'Content-Length': raster.png.length,
    'Cache-Control': cacheControl,
    'Last-Modified': raster.modifiedAt.toUTCString(),
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(request.method === 'HEAD' ? undefined : raster.png);
}

/** A file inside the EPUB at `epubKey`, by a package capability (`~<exp>~<sig>`). */
async function sendPackageFile(
  options: MediaServerOptions,
  packages: PackageFiles,
  request: IncomingMessage,
  response: ServerResponse,
  epubKey: string,
  capability: string,
  path: string,
): Promise<void> {
  const [, exp = null, sig = null] = PACKAGE_CAPABILITY.exec(capability) ?? [];
  const verdict = epubKey.endsWith('.epub') ? options.urls.verify(packageScope(epubKey), exp, sig) : 'invalid';
  if (verdict !== 'ok') {
    sendJson(response, 403, { message: verdict === 'expired' ? 'This link has expired.' : 'This link is not valid.' });
    return;
  }
  let data: Buffer | null;
  try {
    data = path === '' ? null : await packages.read(epubKey, path);
  } catch (error) {
    if (!(error instanceof ArchiveError)) throw error;
    // A package that breaks the archive limits (a zip bomb, a damaged file): refused, never inflated whole.
    options.logger.warn({ key: epubKey, path, reason: error.message }, 'package file refused');
    sendJson(response, 422, { message: `This file of the publication cannot be served: ${error.message}.` });
    return;
  }
  if (!data) {
    sendJson(response, 404, { message: 'Not found.' });
    return;
  }
  const maxAge = Math.max(0, Number(exp) - Math.floor(Date.now() / 1000));
  response.writeHead(200, {
    'Content-Type': mediaTypeOf(path),
    'Content-Length': data.length,
    'Cache-Control': `private, max-age=${maxAge}`,
    'Content-Security-Policy': PACKAGE_FILE_POLICY,
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(request.method === 'HEAD' ? undefined : data);
}

async function sendObject(options: MediaServerOptions, request: IncomingMessage, response: ServerResponse, key: string, cacheControl: string) {
  const info = await options.storage.stat(key);
  if (!info) {
    sendJson(response, 404, { message: 'Not found.' });
    return;
  }
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  const headers: Record<string, string | number> = {
    'Content-Type': mediaTypeOf(key),
    'Accept-Ranges': 'bytes',
    'Cache-Control': cacheControl,
    'Last-Modified': info.modifiedAt.toUTCString(),
    ETag: `"${info.size.toString(16)}-${Math.floor(info.modifiedAt.getTime()).toString(16)}"`,
    'X-Content-Type-Options': 'nosniff',
  };
  if (extension === 'svg') headers['Content-Security-Policy'] = "default-src 'none'; style-src 'unsafe-inline'";

  if (request.headers['if-none-match'] === headers.ETag && !request.headers.range) {
    response.writeHead(304, { ETag: headers.ETag, 'Cache-Control': cacheControl });
    response.end();
    return;
  }
  const range = parseRange(request.headers.range, info.size);
  if (range === 'unsatisfiable') {
    response.writeHead(416, { ...headers, 'Content-Range': `bytes */${info.size}`, 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ message: 'Range not satisfiable.' }));
    return;
  }
  if (range) {
    response.writeHead(206, { ...headers, 'Content-Length': range.end - range.start + 1, 'Content-Range': `bytes ${range.start}-${range.end}/${info.size}` });
  } else {
    response.writeHead(200, { ...headers, 'Content-Length': info.size });
  }
  if (request.method === 'HEAD' || info.size === 0) {
    response.end();
    return;
  }
  const stream = options.storage.stream(key, range ?? undefined);
  stream.on('error', (error) => {
    options.logger.warn({ err: error, key }, 'media stream failed');
    response.destroy(error);
  });
  stream.pipe(response);
}

/**
 * One `bytes=` range (RFC 9110): null for no or an ignorable header (several
 * ranges, another unit: the whole file is sent), 'unsatisfiable' for 416.
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from, to] = match;
  if (from === '' && to === '') return null;
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
    if (to !== '' && Number(to) < start) return null;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}

function sendJson(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}
