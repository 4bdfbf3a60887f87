// CORS end to end against ./dev up, in headless Chromium: a blank page served
// from a second origin fetches the API with Authorization and X-Svc-Tenant-Id
// (a preflighted request), a chapter of the manifest and a range of a media
// file, as a web reader does. Biblioteca Aurora (tenant 4) allows
// http://reader.aurora.localhost:* (fixtures/tenant-settings.json), the
// development stack allows http://127.0.0.1:* for every tenant, and
// evil.localhost is allowed by nobody: Chromium blocks its page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { uniqueEmail } from '@folio/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.js';
import { GATEWAY_URL, loginByEmail, type Tokens } from './client.js';
import { api, v2 } from './reader-helpers.js';

/** Biblioteca Aurora: free access, so any member reads its EPUB 4001. */
const AURORA = 4;
const ISSUE = 4001;
const COVER_URL = `${GATEWAY_URL}/media/covers/${ISSUE}.svg`;

interface PageFetch {
  ok: boolean;
  status?: number;
  error?: string;
  contentRange?: string | null;
  etag?: string | null;
  json?: unknown;
  bytes?: number;
}

/** A blank page; what matters is its origin. */
async function servePage(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><html><head><meta charset="utf-8"><title>CORS</title></head><body></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** fetch() in the page; a CORS refusal is a rejected fetch (TypeError), reported as `ok: false` with the error. */
function pageFetch(page: Page, url: string, headers: Record<string, string>, as: 'json' | 'bytes'): Promise<PageFetch> {
  return page.evaluate(
    async ({ url, headers, as }) => {
      try {
        const response = await fetch(url, { headers });
        const result = { ok: true, status: response.status, contentRange: response.headers.get('content-range'), etag: response.headers.get('etag') };
        return as === 'json' ? { ...result, json: await response.json() } : { ...result, bytes: (await response.arrayBuffer()).byteLength };
      } catch (error) {
        return { ok: false, error: String(error) };
      }
    },
    { url, headers, as },
  );
}

describe('CORS from a page on another origin (Chromium)', () => {
  let browser: Browser;
  let server: Server;
  let port: number;
  let reader: Tokens;
  let mediaUrl: string;

  beforeAll(async () => {
    let served: Awaited<ReturnType<typeof servePage>>;
    [served, browser, reader] = await Promise.all([servePage(), launchBrowser(), loginByEmail(uniqueEmail('cors'), { appTenantId: AURORA })]);
    ({ server, port } = served);
    const manifest = await api('GET', `/api/v2/reader/${ISSUE}/manifest`, { token: reader.access_token, headers: v2(AURORA) });
    expect(manifest.status).toBe(200);
    mediaUrl = (manifest.body.readingOrder as { href: string }[])[0]!.href;
    expect(mediaUrl).toContain('/media/');
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function pageOn(host: string): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`http://${host}:${port}/`);
    return page;
  }

  const manifestFrom = (page: Page, tenantId: number) =>
    pageFetch(
      page,
      `${GATEWAY_URL}/api/v2/reader/${ISSUE}/manifest`,
      { Authorization: `Bearer ${reader.access_token}`, 'X-Svc-Tenant-Id': String(tenantId) },
      'json',
    );

  it("when a page on the store's own web origin asks for a manifest and a media range, then both succeed and the page reads their headers", async () => {
    const page = await pageOn('reader.aurora.localhost');
    const manifest = await manifestFrom(page, AURORA);
    expect(manifest).toMatchObject({ ok: true, status: 200, json: { readingOrder: expect.any(Array) } });

    const chapter = await pageFetch(page, mediaUrl, {}, 'bytes');
    expect(chapter).toMatchObject({ ok: true, status: 200, bytes: expect.any(Number) });
    // A range of a media file (the cover: package entries come whole), its Content-Range readable.
    const range = await pageFetch(page, COVER_URL, { Range: 'bytes=0-15' }, 'bytes');
    expect(range).toMatchObject({ ok: true, status: 206, bytes: 16, contentRange: expect.stringMatching(/^bytes 0-15\/\d+$/) });
    await page.close();
  });

  it('when a page on a loopback origin calls the development stack, then it is allowed for any tenant', async () => {
    const page = await pageOn('127.0.0.1');
    expect(await manifestFrom(page, AURORA)).toMatchObject({ ok: true, status: 200 });
    await page.close();
  });

  it('when a page on an origin no tenant allows calls the API, then Chromium blocks it; the media stays readable (the signed URL is the credential)', async () => {
    const page = await pageOn('evil.localhost');
    const blocked = await manifestFrom(page, AURORA);
    expect(blocked).toMatchObject({ ok: false, error: expect.stringMatching(/TypeError/) });
    expect(await pageFetch(page, mediaUrl, {}, 'bytes')).toMatchObject({ ok: true, status: 200 });
    await page.close();
  });

  it("when the store's origin asks with another store's tenant header, then the page cannot read the answer", async () => {
    const page = await pageOn('reader.aurora.localhost');
    // Editorial Sur allows no web origin: the preflight passes (it names no tenant), the answer is not readable.
    expect(await manifestFrom(page, 2)).toMatchObject({ ok: false, error: expect.stringMatching(/TypeError/) });
    await page.close();
  });
});
