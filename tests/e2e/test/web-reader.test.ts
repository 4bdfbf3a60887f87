// A web reader on another origin, end to end against ./dev up: a page served
// from its own loopback origin, in headless Chromium, opens manifests with
// Readium's navigator (web-reader/page.ts, bundled by esbuild here) straight
// from the gateway, nothing proxied: the API through CORS with the JWT and
// the tenant header, the content by its signed links. It renders chapter 1
// of an EPUB and page 1 of a PDF (the PDF's manifest is its page images, the
// Divina profile, which the navigator lays out as fixed pages), and saves the
// reader's position through PUT /api/v2/reader/{issue_id}/last-location,
// which the API, KOReader sync and OPDS Progression then return.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { uniqueEmail } from '@folio/testing';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FolioReader, OpenOptions } from '../web-reader/contract.js';
import { launchBrowser } from './browser.js';
import { GATEWAY_URL, loginByEmail, sharedLogin, type Tokens } from './client.js';
import { basicAuth, createDeviceKey, koreaderDocumentOf, KOREADER_V1, md5, OPDS_PROGRESSION } from './e-reader-clients.js';
import { api, v2 } from './reader-helpers.js';

/**
 * Livraria Atlântica (its free EPUB 3002: any member reads it) and Harbor Comics (dario's PDF 6001):
 * their allowed web origins (fixtures/tenant-settings.json) let in this page's.
 */
const ATLANTICA = 3;
const ATLANTICA_STORE = 'atlantica.localhost:8080';
const HARBOR = 6;
/** Chromium resolves every *.localhost name to the loopback. */
const PAGE_HOST = 'web-reader.localhost';

/** The page's API as page.ts installs it on its window (in page.evaluate, which runs the function in the page). */
type PageGlobals = typeof globalThis & { folioReader: FolioReader };

/** The page and its bundle, from an origin that is not the gateway's. */
async function serveReader(): Promise<{ server: Server; origin: string }> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('../web-reader/page.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    logLevel: 'warning',
  });
  const script = bundle.outputFiles[0]!.contents;
  const html =
    '<!doctype html><html><head><meta charset="utf-8"><title>Web reader</title></head>' +
    '<body><div id="reader" style="width:800px;height:600px"></div><script type="module" src="/reader.js"></script></body></html>';
  const server = createServer((req, res) => {
    if (req.url === '/reader.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://${PAGE_HOST}:${(server.address() as AddressInfo).port}` };
}

describe('a web reader on another origin (Readium navigator in Chromium)', () => {
  let browser: Browser;
  let server: Server;
  let origin: string;
  let page: Page;
  let dario: Tokens;
  let reader: Tokens;
  const readerEmail = uniqueEmail('web-reader');
  const failures: string[] = [];

  beforeAll(async () => {
    let served: Awaited<ReturnType<typeof serveReader>>;
    [served, browser, dario, reader] = await Promise.all([
      serveReader(),
      launchBrowser(),
      sharedLogin('dario@example.com'),
      loginByEmail(readerEmail, { appTenantId: ATLANTICA }),
    ]);
    ({ server, origin } = served);
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    page.on('pageerror', (error) => failures.push(error.message));
    page.on('requestfailed', (request) => failures.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`));
    await page.goto(`${origin}/`);
    await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  const open = (options: Omit<OpenOptions, 'gateway'>) =>
    page.evaluate((given) => (globalThis as PageGlobals).folioReader.open(given), { ...options, gateway: GATEWAY_URL });

  it('when the page opens the free EPUB 3002, then the navigator renders chapter 1 from the gateway and the saved position comes back from the API, KOReader sync and OPDS Progression', async () => {
    const opened = await open({ token: reader.access_token, tenantId: ATLANTICA, issueId: 3002 }).catch((error: Error) => {
      throw new Error(`${error.message}\n${failures.join('\n')}`);
    });
    expect(opened).toMatchObject({ layout: 'reflowable', readingOrderIndex: 0, image: null });
    expect(opened.positions).toBeGreaterThan(0);
    expect(opened.text).toContain('Naquela manhã entrou uma menina procurando um atlas de ilhas imaginárias');

    const saved = await page.evaluate(() => (globalThis as PageGlobals).folioReader.savePosition());
    expect(saved).toMatchObject({ status: 200, body: { last_location: { chapterHref: expect.stringMatching(/\.xhtml$/), cfi: expect.any(String) } } });
    const settings = await api('GET', '/api/v2/reader/settings/3002', { token: reader.access_token, headers: v2(ATLANTICA) });
    expect(settings.status).toBe(200);
    const savedLocation = (saved.body as { last_location: { chapterHref: string } }).last_location;
    expect(settings.body.issue.user.last_location).toEqual(savedLocation);

    // The same position on the reader's e-readers: KOReader pulls it and an OPDS app's Progression GET maps it.
    const key = await createDeviceKey(reader.access_token, 'web reader e2e');
    const document = await koreaderDocumentOf(ATLANTICA_STORE, reader.access_token, 3002);
    const koreaderHeaders = { host: ATLANTICA_STORE, accept: KOREADER_V1, 'x-auth-user': readerEmail, 'x-auth-key': md5(key) };
    const pulled = await api('GET', `/kosync/syncs/progress/${document}`, { headers: koreaderHeaders });
    expect(pulled.status).toBe(200);
    expect(pulled.body).toMatchObject({ document, progress: expect.stringMatching(/^\/body\/DocFragment\[\d+\]\/body$/), device: 'Folio' });
    const progression = await api('GET', '/opds/v2/publications/3002/progression', {
      headers: { host: ATLANTICA_STORE, accept: OPDS_PROGRESSION, ...basicAuth(readerEmail, key) },
    });
    expect(progression.status).toBe(200);
    expect(progression.body).toMatchObject({ device: { name: 'Folio' }, references: [savedLocation.chapterHref.split('#')[0]] });
  });

  it('when the page opens the PDF 6001, then the navigator lays out its pages as fixed and shows page 1', async () => {
    const manifest = await api('GET', '/api/v2/reader/6001/manifest', { token: dario.access_token, headers: v2(HARBOR) });
    expect(manifest.status).toBe(200);
    const first = manifest.body.readingOrder[0] as { width: number; height: number };
    const opened = await open({ token: dario.access_token, tenantId: HARBOR, issueId: 6001 }).catch((error: Error) => {
      throw new Error(`${error.message}\n${failures.join('\n')}`);
    });
    expect(opened).toMatchObject({ layout: 'fixed', readingOrderIndex: 0, positions: 2 });
    expect(opened.image).toEqual({ width: first.width, height: first.height });
  });
});
