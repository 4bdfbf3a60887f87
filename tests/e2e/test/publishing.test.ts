// A publisher puts a book, a PDF magazine and an audiobook on sale, end to
// end against ./dev up, with files made by other tools: pandoc (EPUB 3, with
// accessibility metadata added to its package document as EPUB
// Accessibility 1.1 writes it), LibreOffice (PDF) and ffmpeg (M4B with
// chapters). The store's owner creates an API key; with it the issues are
// created, their files uploaded and ingested, priced and published; a new
// reader finds them in the library, the store and global search and OPDS,
// buys the book through the web checkout, reads every chapter, page and
// track, finds a word of chapter 3, and KOReader sync knows the file it
// downloads; withdrawn, the book leaves every listing while its buyer keeps
// reading it. pandoc, LibreOffice, ffmpeg and python3 are installed by ./dev.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { uniqueEmail } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, clientIp, loginByEmail, sharedLogin, type ApiResponse, type Tokens } from './client.js';
import { basicAuth, createDeviceKey, koreaderDocumentOf, md5 } from './e-reader-clients.js';
import { fetchContent, session, v2 } from './reader-helpers.js';

const exec = promisify(execFile);
const NORTHWIND = 'northwind.localhost:8080';
const TENANT = { 'x-svc-tenant-id': '1' };
/** A word only chapter 3 of the book has. */
const CHAPTER_3_WORD = 'quillwort';
const RUN = Date.now().toString(36);
const BOOK_TITLE = `Lantern Coast ${RUN}`;

const MARKDOWN = `---
title: ${BOOK_TITLE}
author: Marta Lindqvist
lang: en
---

# The Harbour

The harbour woke under a low grey sky, and the boats knocked against the pier.

# The Rope Walk

The rope walk ran the length of the town, three hundred paces of tarred hemp.

# The Marsh

Along the marsh path the ${CHAPTER_3_WORD} grew in the shallow pools where the herons waited.

# The Light

At dusk the keeper climbed the stairs and lit the lamp for the night boats.
`;

/** EPUB Accessibility 1.1 metadata, as an accessible EPUB 3 declares it in its package document. */
const A11Y_META = [
  '<meta property="schema:accessMode">textual</meta>',
  '<meta property="schema:accessModeSufficient">textual</meta>',
  '<meta property="schema:accessibilityFeature">tableOfContents</meta>',
  '<meta property="schema:accessibilityFeature">readingOrder</meta>',
  '<meta property="schema:accessibilityHazard">none</meta>',
  '<meta property="schema:accessibilitySummary">Text only, with a table of contents and headings in reading order.</meta>',
  '<link rel="dcterms:conformsTo" href="http://www.idpf.org/epub/a11y/accessibility-20170105.html#wcag-aa"/>',
].join('');

const ADD_A11Y = `
import re, sys, zipfile
source, target, meta = sys.argv[1], sys.argv[2], sys.argv[3]
with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, 'w') as zout:
    for info in zin.infolist():
        data = zin.read(info.filename)
        if info.filename.endswith('.opf'):
            data = re.sub(rb'</metadata>', meta.encode() + b'</metadata>', data, count=1)
        zout.writestr(info, data, compress_type=zipfile.ZIP_STORED if info.filename == 'mimetype' else zipfile.ZIP_DEFLATED)
`;

/** Three pages: LibreOffice's HTML import breaks pages where an element's inline style says so. */
const MAGAZINE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tide Tables ${RUN}</title></head><body>
<h1>Tide Tables</h1><p>High water at the north pier.</p>
<h2 style="page-break-before: always">Moorings</h2><p>Winter moorings are open to visitors.</p>
<h2 style="page-break-before: always">Notices</h2><p>The lighthouse is closed for repairs.</p>
</body></html>`;

const CHAPTERS = `;FFMETADATA1
title=Harbour Voices ${RUN}
artist=Ines Varga
[CHAPTER]
TIMEBASE=1/1000
START=0
END=2000
title=Morning
[CHAPTER]
TIMEBASE=1/1000
START=2000
END=4000
title=Evening
`;

interface Corpus {
  epub: Buffer;
  pdf: Buffer;
  m4b: Buffer;
  bomb: Buffer;
}

async function buildCorpus(directory: string): Promise<Corpus> {
  await writeFile(join(directory, 'book.md'), MARKDOWN);
  await exec('pandoc', [join(directory, 'book.md'), '-o', join(directory, 'plain.epub'), '--to', 'epub3', '--epub-chapter-level=1']);
  await writeFile(join(directory, 'add-a11y.py'), ADD_A11Y);
  await exec('python3', [join(directory, 'add-a11y.py'), join(directory, 'plain.epub'), join(directory, 'book.epub'), A11Y_META]);

  await writeFile(join(directory, 'magazine.html'), MAGAZINE_HTML);
  await exec(
    'soffice',
    ['--headless', `-env:UserInstallation=file://${directory}/lo-profile`, '--convert-to', 'pdf', '--outdir', directory, join(directory, 'magazine.html')],
    {
      timeout: 120_000,
    },
  );

  await writeFile(join(directory, 'chapters.txt'), CHAPTERS);
  await exec('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=330:duration=4',
    '-i',
    join(directory, 'chapters.txt'),
    '-map_metadata',
    '1',
    '-map_chapters',
    '1',
    '-c:a',
    'aac',
    '-f',
    'ipod',
    join(directory, 'book.m4b'),
  ]);

  // A valid-looking EPUB whose one chapter inflates to 2 GB of spaces: it must end `failed`, reader up.
  await writeFile(
    join(directory, 'bomb.py'),
    `import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    z.writestr('mimetype', 'application/epub+zip', compress_type=zipfile.ZIP_STORED)
    z.writestr('META-INF/container.xml', '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>', compress_type=zipfile.ZIP_DEFLATED)
    z.writestr('book.opf', '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">bomb</dc:identifier><dc:title>Bomb</dc:title><dc:language>en</dc:language></metadata><manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c"/></spine></package>', compress_type=zipfile.ZIP_DEFLATED)
    entry = zipfile.ZipInfo('c.xhtml')
    entry.compress_type = zipfile.ZIP_DEFLATED
    with z.open(entry, 'w', force_zip64=True) as out:
        out.write(b'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>')
        block = b' ' * (1 << 20)
        for _ in range(2048):
            out.write(block)
        out.write(b'</p></body></html>')
`,
  );
  await exec('python3', [join(directory, 'bomb.py'), join(directory, 'bomb.epub')], { timeout: 120_000 });

  const [epub, pdf, m4b, bomb] = await Promise.all(['book.epub', 'magazine.pdf', 'book.m4b', 'bomb.epub'].map((name) => readFile(join(directory, name))));
  return { epub: epub!, pdf: pdf!, m4b: m4b!, bomb: bomb! };
}

const HOSTILE_EPUBS = join(import.meta.dirname, '..', '..', '..', 'services', 'reader', 'test', 'support', 'hostile-epubs.py');
const ROOT = join(import.meta.dirname, '..', '..', '..');

/**
 * The highest peak RSS (VmHWM) of the stack's reader processes, in MB: the
 * node child of each replica's ./dev supervisor. Null when the stack is not
 * this machine's ./dev stack.
 */
async function readerPeakRssMb(): Promise<number | null> {
  const peaks: number[] = [];
  for (let replica = 1; replica <= 8; replica += 1) {
    const pidFile = join(ROOT, '.local', 'run', replica === 1 ? 'reader.pid' : `reader-${replica}.pid`);
    const supervisor = (await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0];
    if (!supervisor) break;
    const children = await exec('pgrep', ['-P', supervisor]).then(
      ({ stdout }) => stdout.trim().split('\n').filter(Boolean),
      () => [] as string[],
    );
    for (const pid of children) {
      const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
      const kb = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
      if (kb) peaks.push(Math.round(Number(kb) / 1024));
    }
  }
  return peaks.length > 0 ? Math.max(...peaks) : null;
}

/** Asks again until `check` passes, for what happens asynchronously (ingest, other replicas' catalogs). */
async function eventually<T>(probe: () => Promise<T>, check: (value: T) => boolean, { timeoutMs = 120_000, everyMs = 500 } = {}): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (check(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** A publisher request with the API key. */
const publisherApi = <T = any>(key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> =>
  api<T>(method, `/api/v2/publisher${path}`, { token: key, headers: { ...TENANT, ...clientIp(), ...headers }, ...(body !== undefined && { body }) });

/** The raw file as the request body, as `curl --data-binary @file` sends it. */
const upload = (key: string, issueId: number, data: Buffer, contentType: string): Promise<ApiResponse> =>
  publisherApi(key, 'PUT', `/issues/${issueId}/content`, data, { 'content-type': contentType });

async function untilIngested(key: string, issueId: number) {
  const status = await eventually(
    () => publisherApi(key, 'GET', `/issues/${issueId}/content`),
    (response) => response.status === 200 && ['ready', 'failed'].includes(response.body.state),
    { timeoutMs: 240_000, everyMs: 1_000 },
  );
  expect(status.status).toBe(200);
  return status.body;
}

/** Buys an issue as a reader does: the purchase redirect, the checkout page, the pay form (local test payments). */
async function buy(reader: Tokens, issueId: number): Promise<void> {
  const ip = clientIp();
  const redirect = await api('GET', `/app/purchase/${issueId}?token=${reader.access_token}&app_tenant_id=1`, { headers: { host: NORTHWIND, ...ip } });
  expect(redirect.status, redirect.text).toBe(302);
  const cookie = redirect.headers.get('set-cookie')!.split(';')[0]!;
  const page = await api('GET', '/app/checkout', { headers: { host: NORTHWIND, cookie, accept: 'text/html', ...ip } });
  expect(page.status).toBe(200);
  const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page.text)![1]!;
  const form = new URLSearchParams({
    checkout_id: hidden('checkout_id'),
    csrf_token: hidden('csrf_token'),
    cardholder_name: 'Test Reader',
    card_number: '4242 4242 4242 4242',
    card_expiry: '12/34',
    card_cvc: '123',
  });
  const paid = await api('POST', '/app/checkout/pay', {
    body: form.toString(),
    headers: { host: NORTHWIND, cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...ip },
  });
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toBe(`folio://purchase-complete?issue_id=${issueId}&status=success`);
}

const storefrontIds = async (reader: Tokens): Promise<number[]> => {
  const library = await api('GET', '/api/v2/library?scope=all&per_page=100', { token: reader.access_token, headers: { ...TENANT, ...clientIp() } });
  expect(library.status).toBe(200);
  return library.body.data.flatMap((shelf: { data: { id: number }[] }) => shelf.data.map((issue) => issue.id));
};
const storeSearchIds = async (reader: Tokens, query: string): Promise<number[]> => {
  const found = await api('GET', `/api/v2/search/store?query=${encodeURIComponent(query)}&scope=all`, {
    token: reader.access_token,
    headers: { ...TENANT, ...clientIp() },
  });
  expect(found.status).toBe(200);
  return found.body.data.map((issue: { id: number }) => issue.id);
};
const globalSearchIds = async (reader: Tokens, query: string): Promise<number[]> => {
  const found = await api('GET', `/api/v2/search/global?query=${encodeURIComponent(query)}`, { token: reader.access_token, headers: clientIp() });
  expect(found.status).toBe(200);
  return found.body.data.map((issue: { id: number }) => issue.id);
};

describe.sequential('publishing through the publisher API (running stack)', () => {
  let directory: string;
  let corpus: Corpus;
  let key: string;
  let keyId: string | undefined;
  let reader: Tokens;
  let readerEmail: string;
  const issues: { epub?: number; pdf?: number; audio?: number } = {};

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'folio-publishing-'));
    readerEmail = uniqueEmail('publishing-reader');
    const [built, owner, loggedIn] = await Promise.all([buildCorpus(directory), sharedLogin('admin@example.com'), loginByEmail(readerEmail)]);
    corpus = built;
    reader = loggedIn;
    const created = await api('POST', '/api/v2/publisher/api-keys', {
      token: owner.access_token,
      headers: { ...TENANT, ...clientIp() },
      body: { name: `publishing e2e ${RUN}` },
    });
    expect(created.status, created.text).toBe(201);
    key = created.body.key;
    keyId = created.body.id;
    expect(key).toMatch(/^fpk_/);
  }, 300_000);
  afterAll(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
    // A store has at most 100 live keys: each run revokes its own.
    if (keyId)
      await api('DELETE', `/api/v2/publisher/api-keys/${keyId}`, {
        token: (await sharedLogin('admin@example.com')).access_token,
        headers: { ...TENANT, ...clientIp() },
      });
  });

  it('when the three issues are created with the API key, then each is a draft with an id and nothing lists it', async () => {
    const drafts = [
      {
        name: BOOK_TITLE,
        type: 'epub',
        authors: ['Marta Lindqvist'],
        publisher: 'Northwind Editions',
        lang: 'en',
        isbn: '978-3-16-148410-0',
        external_id: `NW-E2E-${RUN}-E`,
      },
      { name: `Tide Tables ${RUN}`, type: 'pdf', authors: ['Harbour Office'], lang: 'en', external_id: `NW-E2E-${RUN}-P` },
      { name: `Harbour Voices ${RUN}`, type: 'audio', authors: ['Ines Varga'], lang: 'en', external_id: `NW-E2E-${RUN}-A` },
    ];
    for (const draft of drafts) {
      const created = await publisherApi(key, 'POST', '/issues', draft);
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ name: draft.name, type: draft.type, state: 'draft', tenant_id: 1, first_published_at: null });
      issues[draft.type as 'epub' | 'pdf' | 'audio'] = created.body.id;
    }
    expect((await publisherApi(key, 'GET', `/issues/${issues.epub}`)).body).toMatchObject({ isbn: '9783161484100', author: 'Marta Lindqvist' });
    const edited = await publisherApi(key, 'PATCH', `/issues/${issues.epub}`, { description: 'Four chapters of a harbour town.' });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ description: 'Four chapters of a harbour town.', name: BOOK_TITLE, state: 'draft' });
    const listed = await publisherApi(key, 'GET', '/issues?state=draft&per_page=100');
    expect(listed.body.data.map((issue: { id: number }) => issue.id)).toEqual(expect.arrayContaining(Object.values(issues)));
    expect(await storefrontIds(reader)).not.toContain(issues.epub);
  });

  it('when their files are uploaded, then each ingest ends ready with what the file says', async () => {
    for (const [issueId, data, type] of [
      [issues.epub!, corpus.epub, 'application/epub+zip'],
      [issues.pdf!, corpus.pdf, 'application/pdf'],
      [issues.audio!, corpus.m4b, 'audio/mp4'],
    ] as const) {
      const accepted = await upload(key, issueId, data, type);
      expect(accepted.status, accepted.text).toBe(202);
      expect(accepted.body.content_hash).toMatch(/^[0-9a-f]{64}$/);
    }
    const epub = await untilIngested(key, issues.epub!);
    expect(epub.state, JSON.stringify(epub)).toBe('ready');
    expect(epub.metadata).toMatchObject({ title: BOOK_TITLE, authors: ['Marta Lindqvist'], lang: 'en' });
    expect(epub.metadata.accessibility).toMatchObject({ access_modes: ['textual'], hazards: ['none'] });
    expect(Array.isArray(epub.findings)).toBe(true);
    const pdf = await untilIngested(key, issues.pdf!);
    expect(pdf.state, JSON.stringify(pdf)).toBe('ready');
    expect(pdf.metadata.number_of_pages).toBe(3);
    const audio = await untilIngested(key, issues.audio!);
    expect(audio.state, JSON.stringify(audio)).toBe('ready');
    expect(audio.metadata.chapters).toBe(2);
  }, 600_000);

  it('when a hostile file is uploaded, then its ingest ends failed with a reason and reader keeps serving', async () => {
    const created = await publisherApi(key, 'POST', '/issues', { name: `Bomb ${RUN}`, type: 'epub' });
    expect(created.status).toBe(201);
    expect((await upload(key, created.body.id, corpus.bomb, 'application/epub+zip')).status).toBe(202);
    const status = await untilIngested(key, created.body.id);
    expect(status.state).toBe('failed');
    expect(status.error).toEqual(expect.any(String));
    expect((await publisherApi(key, 'POST', `/issues/${created.body.id}/publish`)).status).toBe(409);
    await session(reader.access_token, 1, 1003);
    expect((await publisherApi(key, 'DELETE', `/issues/${created.body.id}`)).status).toBe(204);
  }, 300_000);

  it('when every kind of hostile file is uploaded, then each ends failed with its reason, and no reader process grew by what the files inflate to', async () => {
    // Python's zipfile writes them (reader's own hostile-file tests use the same script): bombs in
    // and outside the spine, sizes that lie, entity expansion, too many entries, names outside the
    // archive, a symbolic link, a duplicate name, a cut archive; then an HTML page sent as a PDF
    // and an empty MP3.
    const hostile = join(directory, 'hostile');
    await exec('python3', [HOSTILE_EPUBS, hostile], { timeout: 180_000 });
    await writeFile(join(hostile, 'page.pdf'), '<!doctype html><html><body><p>not a PDF</p></body></html>');
    await writeFile(join(hostile, 'empty.mp3'), Buffer.alloc(0));
    const files = [
      ...[
        'spine-bomb',
        'image-bomb',
        'ratio-bomb',
        'lying-spine',
        'lying-image',
        'big-xml',
        'entities',
        'many-entries',
        'slip-parent',
        'slip-absolute',
        'symlink',
        'duplicate',
        'truncated',
      ].map((name) => ({ name: `${name}.epub`, type: 'epub', contentType: 'application/epub+zip' })),
      { name: 'page.pdf', type: 'pdf', contentType: 'application/pdf' },
      { name: 'empty.mp3', type: 'audio', contentType: 'audio/mpeg' },
    ];
    const peakBefore = await readerPeakRssMb();
    const uploaded: { name: string; id: number }[] = [];
    for (const file of files) {
      const created = await publisherApi(key, 'POST', '/issues', { name: `Hostile ${file.name} ${RUN}`, type: file.type });
      expect(created.status, created.text).toBe(201);
      const accepted = await upload(key, created.body.id, await readFile(join(hostile, file.name)), file.contentType);
      // An empty body is refused at the door; everything else is taken and fails in its ingest.
      expect([202, 422], `${file.name}: ${accepted.text}`).toContain(accepted.status);
      if (accepted.status === 202) uploaded.push({ name: file.name, id: created.body.id });
    }
    for (const { name, id } of uploaded) {
      const status = await untilIngested(key, id);
      expect(status.state, `${name}: ${JSON.stringify(status)}`).toBe('failed');
      expect(status.error, name).toMatch(/\w{3,}/);
      expect(status.error, name).not.toMatch(/Error:|at [\w.]+ \(|node_modules/);
      if (name === 'page.pdf') expect(status.error).toMatch(/not a PDF/);
      if (name === 'spine-bomb.epub') expect(status.error).toMatch(/uncompressed, more than/);
    }
    await session(reader.access_token, 1, 1003);
    const peakAfter = await readerPeakRssMb();
    if (peakBefore !== null && peakAfter !== null) {
      // Any one of these inflated in reader itself would add hundreds of MB, most of them GBs.
      expect(peakAfter - peakBefore, `reader's peak RSS ${peakBefore} -> ${peakAfter} MB`).toBeLessThan(150);
    }
  }, 600_000);

  it('when priced and published, then each is in the library, the store and global search and OPDS, with its accessibility', async () => {
    expect((await publisherApi(key, 'POST', `/issues/${issues.epub}/publish`)).status).toBe(409);
    const offers = [
      [issues.epub!, { free: false, sale_mode: 'individual', prices: [{ currency: 'USD', amount: 6.5 }] }],
      [issues.pdf!, { free: true, sale_mode: 'individual', prices: [] }],
      [issues.audio!, { free: false, sale_mode: 'individual', prices: [{ currency: 'USD', amount: 9.99, discount: { percentage: 20 } }] }],
    ] as const;
    for (const [issueId, offer] of offers) {
      const put = await publisherApi(key, 'PUT', `/issues/${issueId}/offer`, offer);
      expect(put.status, put.text).toBe(200);
      // Priced, not yet on sale: a draft is sold only once published.
      expect((await publisherApi(key, 'GET', `/issues/${issueId}/offer`)).body).toMatchObject({ issue_id: issueId, on_sale: false, free: offer.free });
      const published = await publisherApi(key, 'POST', `/issues/${issueId}/publish`);
      expect(published.status, published.text).toBe(200);
      expect(published.body).toMatchObject({ state: 'published', first_published_at: expect.any(String) });
    }
    const all = Object.values(issues);
    expect(
      await eventually(
        () => storefrontIds(reader),
        (ids) => all.every((id) => ids.includes(id)),
        { timeoutMs: 15_000 },
      ),
    ).toEqual(expect.arrayContaining(all));
    expect(
      await eventually(
        () => storeSearchIds(reader, 'Lantern Coast'),
        (ids) => ids.includes(issues.epub!),
        { timeoutMs: 15_000 },
      ),
    ).toContain(issues.epub);
    // Global search lists what the reader can read: the free magazine, not yet the book.
    expect(
      await eventually(
        () => globalSearchIds(reader, `Tide Tables ${RUN}`),
        (ids) => ids.includes(issues.pdf!),
        { timeoutMs: 15_000 },
      ),
    ).toContain(issues.pdf);
    expect(await globalSearchIds(reader, 'Lantern Coast')).not.toContain(issues.epub);

    const deviceKey = await createDeviceKey(reader.access_token, 'publishing e2e');
    const feed = await api('GET', `/opds/v2/search?query=${encodeURIComponent(BOOK_TITLE)}`, {
      headers: { host: NORTHWIND, ...basicAuth(readerEmail, deviceKey), ...clientIp() },
    });
    expect(feed.status, feed.text).toBe(200);
    const publication = (feed.body.publications as { metadata: { title: string; accessibility?: Record<string, unknown> } }[]).find(
      (item) => item.metadata.title === BOOK_TITLE,
    );
    expect(publication?.metadata.accessibility).toMatchObject({ accessMode: ['textual'], hazard: ['none'] });
  }, 120_000);

  it('when the reader buys the book, then every chapter reads and a word of chapter 3 is found there', async () => {
    await buy(reader, issues.epub!);
    const manifest = await api('GET', `/api/v2/reader/${issues.epub}/manifest`, { token: reader.access_token, headers: { ...v2(1), ...clientIp() } });
    expect(manifest.status, manifest.text).toBe(200);
    const readingOrder = manifest.body.readingOrder as { href: string }[];
    expect(readingOrder.length).toBeGreaterThanOrEqual(4);
    const chapters: string[] = [];
    for (const item of readingOrder) {
      const fetched = await fetchContent(item.href);
      expect(fetched.status, item.href).toBe(200);
      chapters.push(fetched.bytes.toString('utf8'));
    }
    expect(manifest.body.metadata.accessibility).toMatchObject({ accessMode: ['textual'] });

    const opened = await session(reader.access_token, 1, issues.epub!);
    expect(opened.spine!.length).toBe(readingOrder.length);
    const hits = await api('GET', `/api/v2/reader/issue-text-content?search=${CHAPTER_3_WORD}`, {
      token: reader.access_token,
      headers: { ...v2(1, opened.token), ...clientIp() },
    });
    expect(hits.status).toBe(200);
    expect(hits.body.length).toBeGreaterThan(0);
    // The hit's CFI names its spine item (/6/2 is the first): the document that holds the word.
    const step = Number(/^epubcfi\(\/6\/(\d+)/.exec(hits.body[0].location)?.[1]);
    const chapter = chapters[step / 2 - 1];
    expect(chapter).toContain(CHAPTER_3_WORD);
    expect(chapters.filter((text) => text.includes(CHAPTER_3_WORD))).toHaveLength(1);
  }, 120_000);

  it('when the PDF (free) and the audiobook (granted) are opened, then every page and track reads', async () => {
    const pdf = await session(reader.access_token, 1, issues.pdf!);
    expect(pdf.files_urls).toHaveLength(3);
    for (const url of pdf.files_urls!) expect((await fetchContent(url)).status).toBe(200);

    const grant = await publisherApi(key, 'POST', '/grants', { email: readerEmail, issue_id: issues.audio });
    expect(grant.status, grant.text).toBe(201);
    const audio = await eventually(
      () => api('POST', `/api/v2/reader/${issues.audio}/sessions`, { token: reader.access_token, headers: { ...v2(1), ...clientIp() } }),
      (response) => response.status === 200,
      { timeoutMs: 15_000 },
    );
    expect(audio.status, audio.text).toBe(200);
    expect(audio.body.tracks).toHaveLength(1);
    expect((await fetchContent(audio.body.tracks[0].url, { range: 'bytes=0-1023' })).status).toBe(206);
    const manifest = await api('GET', `/api/v2/reader/${issues.audio}/manifest`, { token: reader.access_token, headers: { ...v2(1), ...clientIp() } });
    expect(manifest.body.toc[0].children.map((chapter: { title: string }) => chapter.title)).toEqual(['Morning', 'Evening']);
  }, 120_000);

  it('when KOReader pushes progress of the downloaded book, then sync knows the file', async () => {
    const deviceKey = await createDeviceKey(reader.access_token, 'KOReader');
    const document = await koreaderDocumentOf(NORTHWIND, reader.access_token, issues.epub!);
    const headers = { host: NORTHWIND, accept: 'application/vnd.koreader.v1+json', 'x-auth-user': readerEmail, 'x-auth-key': md5(deviceKey), ...clientIp() };
    const pushed = await api('PUT', '/kosync/syncs/progress', {
      headers,
      body: { document, progress: '/body/DocFragment[3]/body/p[1]/text().0', percentage: 0.5, device: 'Kobo', device_id: 'K1' },
    });
    expect(pushed.status, pushed.text).toBe(200);
    const continueReading = await api('GET', '/api/v2/user/continue-reading', { token: reader.access_token, headers: clientIp() });
    expect(continueReading.body.data[0].id).toBe(issues.epub);
  });

  it('when the book is withdrawn, then it leaves every listing and its buyer keeps reading it', async () => {
    const withdrawn = await publisherApi(key, 'POST', `/issues/${issues.epub}/withdraw`);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.state).toBe('withdrawn');
    expect(
      await eventually(
        () => storefrontIds(reader),
        (ids) => !ids.includes(issues.epub!),
        { timeoutMs: 15_000 },
      ),
    ).not.toContain(issues.epub);
    expect(
      await eventually(
        () => storeSearchIds(reader, 'Lantern Coast'),
        (ids) => !ids.includes(issues.epub!),
        { timeoutMs: 15_000 },
      ),
    ).not.toContain(issues.epub);
    const other = await loginByEmail(uniqueEmail('publishing-late'));
    expect((await api('GET', `/app/purchase/${issues.epub}?token=${other.access_token}`, { headers: { host: NORTHWIND, ...clientIp() } })).status).toBe(422);

    const opened = await session(reader.access_token, 1, issues.epub!);
    expect(opened.spine!.length).toBeGreaterThanOrEqual(4);
    const mine = await api('GET', '/api/v2/user/my-content?per_page=100', { token: reader.access_token, headers: clientIp() });
    expect(mine.body.data.map((issue: { id: number }) => issue.id)).toContain(issues.epub);
  }, 60_000);

  it('when the owner reads the audit log, then every change is there with who made it', async () => {
    const owner = await sharedLogin('admin@example.com');
    const log = await api('GET', '/api/v2/publisher/audit-log?per_page=100', { token: owner.access_token, headers: { ...TENANT, ...clientIp() } });
    expect(log.status).toBe(200);
    const actions = (log.body.data as { action: string; target: string; actor: string }[]).filter((entry) => entry.target === `issue:${issues.epub}`);
    expect(actions.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['issue.create', 'content.upload', 'offer.put', 'issue.publish', 'issue.withdraw']),
    );
    expect(actions.every((entry) => entry.actor.startsWith('api-key:'))).toBe(true);
  });

  it('when the store takes back the magazine and the audiobook, then store 1 lists what it listed before', async () => {
    // The free magazine priced again first: a withdrawn free issue would stay readable, and so on every new reader's shelf.
    expect(
      (await publisherApi(key, 'PUT', `/issues/${issues.pdf}/offer`, { free: false, sale_mode: 'individual', prices: [{ currency: 'USD', amount: 1 }] }))
        .status,
    ).toBe(200);
    for (const issueId of [issues.pdf!, issues.audio!]) expect((await publisherApi(key, 'POST', `/issues/${issueId}/withdraw`)).status).toBe(200);
    const ours = Object.values(issues);
    const listed = await eventually(
      () => storefrontIds(reader),
      (ids) => !ours.some((id) => ids.includes(id)),
      { timeoutMs: 15_000 },
    );
    for (const id of ours) expect(listed).not.toContain(id);
  });
});
