// Offline download records, end to end against ./dev up: every field of the
// spec, file locations by content type, `access_expires_at` from the grant
// (ana's gift of 1009 ends 2031-06-30 23:59:59) and content URLs that never
// outlive it; the files download through the gateway and open.
// The metadata comes from catalog's GetIssue: these tests need catalog up.
import { uniqueEmail } from '@folio/testing';
import JSZip from 'jszip';
import { parseBuffer } from 'music-metadata';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, type Tokens } from './client.js';
import { api, fetchContent, pngSize, sharedLogin, v2 } from './reader-helpers.js';

const download = (jwt: string, tenantId: number, issueId: number) => api('GET', `/api/v2/content/${issueId}/download`, { token: jwt, headers: v2(tenantId) });

const FIELDS = [
  'id',
  'name',
  'description',
  'slug',
  'published_at',
  'table_of_contents',
  'user_can_read',
  'file_type',
  'reader_url',
  'cover',
  'thumbnail',
  'url',
  'file_url',
  'packed_file_url',
  'tracks',
  'files_urls',
  'articles',
  'payment_links',
  'prices',
  'author',
  'pages',
  'number_of_pages',
  'external_id',
  'private_material',
  'access_expires_at',
  'require_login',
  'free',
].sort();

describe('download records (running stack)', () => {
  let ana: Tokens;
  let bruno: Tokens;
  let fresh: Tokens;
  beforeAll(async () => {
    [ana, bruno, fresh] = await Promise.all([sharedLogin('ana@example.com'), sharedLogin('bruno@example.com'), loginByEmail(uniqueEmail('offline'))]);
  });

  it('when ana downloads her gift 1009, then every field is there and access ends with the gift, 2031-06-30 23:59:59', async () => {
    const response = await download(ana.access_token, 1, 1009);
    expect(response.status).toBe(200);
    const record = response.body;
    expect(Object.keys(record).sort()).toEqual(FIELDS);
    expect(record).toMatchObject({
      id: 1009,
      name: 'Night Ferry',
      description: 'A novella set on the last ferry of the night.',
      slug: 'night-ferry',
      published_at: { timestamp: Date.UTC(2026, 3, 10, 9, 0, 0) / 1000, date: '2026-04-10 09:00:00', timezone: 'UTC' },
      user_can_read: true,
      file_type: 'epub',
      reader_url: 'http://northwind.localhost:8080/reader/1009',
      url: 'http://northwind.localhost:8080/issues/1009/night-ferry',
      tracks: null,
      files_urls: null,
      articles: [],
      payment_links: null,
      prices: { USD: 3.99 },
      author: 'Mara Ellison',
      pages: null,
      external_id: 'NW-EPUB-1009',
      private_material: null,
      access_expires_at: '2031-06-30 23:59:59',
      require_login: 1,
      free: false,
    });
    expect(record.file_url).toBe(record.packed_file_url);
    expect(record.table_of_contents).toEqual([
      { title: 'Departure', href: expect.any(String) },
      { title: 'Arrival', href: expect.any(String) },
    ]);

    // Signed URLs never outlive the grant.
    const exp = Number(new URL(record.file_url).searchParams.get('exp'));
    expect(exp).toBeLessThanOrEqual(Date.UTC(2031, 5, 30, 23, 59, 59) / 1000);
    expect(exp).toBeGreaterThan(Date.now() / 1000);

    const file = await fetchContent(record.packed_file_url);
    expect(file.status).toBe(200);
    const zip = await JSZip.loadAsync(file.bytes);
    expect(await zip.file('mimetype')!.async('string')).toBe('application/epub+zip');
    expect(zip.file('META-INF/container.xml')).not.toBeNull();
    for (const url of [record.cover, record.thumbnail]) expect((await fetchContent(url)).status).toBe(200);
  });

  it('when ana downloads her purchase 1001, then the access does not end: access_expires_at is null', async () => {
    const response = await download(ana.access_token, 1, 1001);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: 1001, access_expires_at: null, user_can_read: true, file_type: 'epub', number_of_pages: 212 });
  });

  it('when ana downloads the PDF 2002 of her plan, then files_urls hold the page images and number_of_pages the count', async () => {
    const response = await download(ana.access_token, 2, 2002);
    expect(response.status).toBe(200);
    const record = response.body;
    expect(record).toMatchObject({ file_type: 'pdf', file_url: null, packed_file_url: null, tracks: null, number_of_pages: 3, access_expires_at: null });
    expect(record.files_urls).toHaveLength(3);
    const page = await fetchContent(record.files_urls[2]);
    expect(page.status).toBe(200);
    expect(pngSize(page.bytes).width).toBe(1200);
    expect(record.table_of_contents[0]).toEqual({ title: expect.any(String), page: 1 });
  });

  it('when a new member downloads the free audiobook 1003, then tracks hold the MP3s, free is true and no login is required', async () => {
    const response = await download(fresh.access_token, 1, 1003);
    expect(response.status).toBe(200);
    const record = response.body;
    expect(record).toMatchObject({
      file_type: 'audio',
      free: true,
      require_login: 0,
      file_url: null,
      packed_file_url: null,
      files_urls: null,
      number_of_pages: null,
    });
    expect(record.tracks).toHaveLength(2);
    const track = await fetchContent(record.tracks[1].url);
    const metadata = await parseBuffer(track.bytes, { mimeType: 'audio/mpeg' }, { duration: true });
    expect(Math.abs(metadata.format.duration! - record.tracks[1].duration)).toBeLessThanOrEqual(1);
  });

  it('when bruno asks for 1002 that he cannot read, then 403; without a JWT, 401 with the spec body', async () => {
    expect((await download(bruno.access_token, 1, 1002)).status).toBe(403);
    const anonymous = await api('GET', '/api/v2/content/1001/download', { headers: v2(1) });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: 'The given data was invalid.' });
  });
});
