// Readium Web Publication Manifest (issue 12), end to end against ./dev up:
// GET /api/v2/reader/{issue_id}/manifest for an EPUB, a PDF and an audiobook
// validates against the published Readium schema (vendored in
// tests/e2e/fixtures/schemas), every link in it fetches, and the access and
// preview rules are those of opening a reader session.
import { uniqueEmail } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, type Tokens } from './client.js';
import { schemaErrors, SCHEMA } from './json-schemas.js';
import { api, fetchContent, pngSize, sharedLogin, v2 } from './reader-helpers.js';

interface Link {
  href: string;
  type: string;
  title?: string;
  duration?: number;
  width?: number;
  height?: number;
  rel?: string[];
}
interface Manifest {
  '@context': string;
  metadata: Record<string, unknown>;
  links: Link[];
  readingOrder: Link[];
  resources: Link[];
  toc: Link[];
}

const manifestOf = (jwt: string, tenantId: number, issueId: number, preview = false) =>
  api<Manifest>('GET', `/api/v2/reader/${issueId}/manifest${preview ? '?preview=true' : ''}`, { token: jwt, headers: v2(tenantId) });

/** Every link of the manifest but `self` (asked for with credentials apart), without fragments. */
const contentLinks = (manifest: Manifest) =>
  [...manifest.readingOrder, ...manifest.resources, ...manifest.toc, ...manifest.links.filter((link) => !link.rel?.includes('self'))].map((link) => ({
    ...link,
    href: link.href.split('#')[0]!,
  }));

async function expectEveryLinkFetches(manifest: Manifest): Promise<void> {
  for (const link of contentLinks(manifest)) {
    const fetched = await fetchContent(link.href);
    expect(fetched.status, link.href).toBe(200);
    expect(fetched.headers.get('content-type'), link.href).toBe(link.type);
  }
}

describe('Readium Web Publication Manifest (running stack)', () => {
  let ana: Tokens;
  let bruno: Tokens;
  let fresh: Tokens;
  beforeAll(async () => {
    [ana, bruno, fresh] = await Promise.all([sharedLogin('ana@example.com'), sharedLogin('bruno@example.com'), loginByEmail(uniqueEmail('manifest'))]);
  });

  it('when ana asks for her EPUB 1001, then a valid manifest lists the three chapters, each served from the package, and every link fetches', async () => {
    const response = await manifestOf(ana.access_token, 1, 1001);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/webpub\+json/);
    const manifest = response.body;
    expect(schemaErrors(SCHEMA.webpubManifest, manifest)).toEqual([]);
    expect(manifest.metadata).toMatchObject({
      conformsTo: 'https://readium.org/webpub-manifest/profiles/epub',
      title: "The Lighthouse Keeper's Atlas",
      identifier: expect.stringMatching(/\/issues\/1001$/),
      author: ['Mara Ellison'],
    });
    expect(manifest.readingOrder.map((link) => link.type)).toEqual(['application/xhtml+xml', 'application/xhtml+xml', 'application/xhtml+xml']);
    expect(manifest.readingOrder.map((link) => new URL(link.href).pathname.split('/').slice(-2).join('/'))).toEqual([
      'text/chapter-1.xhtml',
      'text/chapter-2.xhtml',
      'text/chapter-3.xhtml',
    ]);
    expect(manifest.toc.map((link) => link.title)).toEqual(['Chapter 1: The Lamp', 'Chapter 2: The Atlas', 'Chapter 3: The Compass']);
    expect(manifest.links.find((link) => link.rel?.includes('alternate'))?.type).toBe('application/epub+zip');

    const chapter = await fetchContent(manifest.readingOrder[0]!.href);
    expect(chapter.bytes.toString('utf8')).toContain('The keeper climbed the spiral stairs at dusk');
    // A publication's own scripts never run on our origin.
    expect(chapter.headers.get('content-security-policy')).toContain("default-src 'none'");
    await expectEveryLinkFetches(manifest);

    const self = manifest.links.find((link) => link.rel?.includes('self'))!;
    const again = await api('GET', new URL(self.href).pathname, { token: ana.access_token, headers: v2(1) });
    expect(again.status).toBe(200);
  });

  it('when a package link is tampered with or points outside the package, then it is refused', async () => {
    const manifest = (await manifestOf(ana.access_token, 1, 1001)).body;
    const href = manifest.readingOrder[0]!.href;
    expect((await fetchContent(href.replace('/1/1001/', '/1/1009/'))).status).toBe(403);
    expect((await fetchContent(href.replace(/~(\d+)~/, (_all, exp: string) => `~${Number(exp) + 1}~`))).status).toBe(403);
    expect((await fetchContent(href.replace('text/chapter-1.xhtml', 'text/chapter-9.xhtml'))).status).toBe(404);
  });

  it('when ana asks for the PDF 2002 of Editorial Sur, then the reading order is its three page images with their sizes', async () => {
    const response = await manifestOf(ana.access_token, 2, 2002);
    expect(response.status).toBe(200);
    const manifest = response.body;
    expect(schemaErrors(SCHEMA.webpubManifest, manifest)).toEqual([]);
    expect(manifest.metadata).toMatchObject({ conformsTo: 'https://readium.org/webpub-manifest/profiles/divina', numberOfPages: 3 });
    expect(manifest.readingOrder).toHaveLength(3);
    for (const link of manifest.readingOrder) {
      expect(link.type).toBe('image/png');
      const page = await fetchContent(link.href);
      expect(pngSize(page.bytes)).toEqual({ width: link.width, height: link.height });
    }
    await expectEveryLinkFetches(manifest);
  });

  it('when a member asks for the free audiobook 1003, then the tracks carry durations and media types', async () => {
    const response = await manifestOf(fresh.access_token, 1, 1003);
    expect(response.status).toBe(200);
    const manifest = response.body;
    expect(schemaErrors(SCHEMA.webpubManifest, manifest)).toEqual([]);
    expect(manifest.metadata).toMatchObject({ '@type': 'http://schema.org/Audiobook', conformsTo: 'https://readium.org/webpub-manifest/profiles/audiobook' });
    expect(manifest.readingOrder.map((link) => link.title)).toEqual(['Track one: the harbour at dawn', 'Track two: the night ferry']);
    for (const link of manifest.readingOrder) {
      expect(link.type).toBe('audio/mpeg');
      expect(link.duration).toBeGreaterThan(2);
    }
    expect(manifest.metadata.duration).toBeCloseTo(manifest.readingOrder.reduce((sum, link) => sum + link.duration!, 0));
    await expectEveryLinkFetches(manifest);
  });

  it('when bruno has no access, then 403; with preview=true, then only the preview share, and its links fetch', async () => {
    expect((await manifestOf(bruno.access_token, 1, 1002)).status).toBe(403);
    const response = await manifestOf(bruno.access_token, 1, 1002, true);
    expect(response.status).toBe(200);
    expect(schemaErrors(SCHEMA.webpubManifest, response.body)).toEqual([]);
    expect(response.body.readingOrder).toHaveLength(1);
    await expectEveryLinkFetches(response.body);
  });

  it('when the issue is unknown in the tenant, physical, or the tenant header is missing, then 404, 422 and 412', async () => {
    expect((await manifestOf(ana.access_token, 1, 2002)).status).toBe(404);
    expect((await manifestOf(ana.access_token, 1, 1005)).status).toBe(422);
    expect((await api('GET', '/api/v2/reader/1001/manifest', { token: ana.access_token })).status).toBe(412);
    expect((await api('GET', '/api/v2/reader/1001/manifest', { headers: v2(1) })).status).toBe(401);
  });
});
