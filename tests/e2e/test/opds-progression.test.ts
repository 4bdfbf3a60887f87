// OPDS Progression 1.0 on the store host, end to end against ./dev up: the
// shelf's publications link their progression; GET and PUT answers validate
// against the draft's published JSON Schema (fixtures/schemas/opds); one
// reading position with the API and KOReader (a PUT shows in continue-reading
// and in a kosync pull, an API or KOReader position in a GET); a stale PUT is
// a 409 with the stored progression; the device is kept. A fresh member of
// Aurora (free access) reading its EPUB 4001.
import { uniqueEmail } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, sharedLogin, type Tokens } from './client.js';
import { basicAuth, createDeviceKey, koreaderHash, md5 } from './e-reader-clients.js';
import { schemaErrors, SCHEMA } from './json-schemas.js';
import { api, fetchContent, session, v2 } from './reader-helpers.js';

const AURORA = 'aurora.localhost:8080';
const NORTHWIND = 'northwind.localhost:8080';
const PROGRESSION = 'application/opds-progression+json';
const REL_PROGRESSION = 'http://opds-spec.org/progression';
const ISSUE = 4001;
const PATH = `/opds/v2/publications/${ISSUE}/progression`;

const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
const device = { id: 'urn:uuid:019c0047-cc8d-7ec4-a3c3-938ccadc020a', name: 'Ebook Reader (Pixel 10 Pro)' };

interface Progression {
  title?: string;
  modified: string;
  device: { id: string; name: string };
  progression: number;
  references?: string[];
}

/** A progression answer: its status, its media type and the draft's schema. */
function expectDocument(response: { status: number; headers: Headers; body: unknown; text: string }, status: number): Progression {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/opds-progression\+json/);
  expect(schemaErrors(SCHEMA.opdsProgression, response.body)).toEqual([]);
  return response.body as Progression;
}

describe('OPDS Progression 1.0 (running stack)', () => {
  let email: string;
  let jwt: Tokens;
  let headers: Record<string, string>;
  let kosync: Record<string, string>;
  let spine: { href: string }[];
  let document: string;

  const get = () => api('GET', PATH, { headers });
  const put = (body: unknown, contentType = PROGRESSION) => api('PUT', PATH, { headers: { ...headers, 'content-type': contentType }, body });
  const continueReading = async () =>
    (await api('GET', '/api/v2/user/continue-reading', { token: jwt.access_token })).body.data.map((item: { id: number }) => item.id) as number[];

  beforeAll(async () => {
    email = uniqueEmail('progression');
    jwt = await loginByEmail(email, { appTenantId: 4 });
    const key = await createDeviceKey(jwt.access_token, 'OPDS progression e2e');
    headers = { host: AURORA, accept: PROGRESSION, ...basicAuth(email, key) };
    kosync = { host: AURORA, accept: 'application/vnd.koreader.v1+json', 'x-auth-user': email, 'x-auth-key': md5(key) };
    spine = (await session(jwt.access_token, 4, ISSUE)).spine!;
    const redirect = await api('GET', `/opds/download/${ISSUE}`, { headers: { host: AURORA }, token: jwt.access_token });
    expect(redirect.status).toBe(302);
    document = koreaderHash((await fetchContent(redirect.headers.get('location')!)).bytes);
  });

  it("when the shelf is read, then each publication links its progression (the draft's rel and type); the feed stays valid OPDS 2.0", async () => {
    const ana = await sharedLogin('ana@example.com');
    const shelf = await api('GET', '/opds/v2/shelf', { headers: { host: NORTHWIND, accept: 'application/opds+json' }, token: ana.access_token });
    expect(shelf.status, shelf.text).toBe(200);
    expect(schemaErrors(SCHEMA.opdsFeed, shelf.body)).toEqual([]);
    const publications = shelf.body.publications as {
      metadata: { identifier: string };
      links: { rel?: string; href: string; type?: string; properties?: object }[];
    }[];
    expect(publications.length).toBeGreaterThan(0);
    for (const publication of publications) {
      const id = publication.metadata.identifier.split(':').at(-1);
      expect(publication.links).toContainEqual({
        rel: REL_PROGRESSION,
        type: PROGRESSION,
        href: `http://${NORTHWIND}/opds/v2/publications/${id}/progression`,
        properties: { authenticate: { href: `http://${NORTHWIND}/opds/v2/authentication`, type: 'application/opds-authentication+json' } },
      });
    }
    // OPDS 1.2 too (the draft's discovery covers both): an Atom link per entry.
    const atom = await api('GET', '/opds/v1.2/shelf', { headers: { host: NORTHWIND }, token: ana.access_token });
    expect(atom.status).toBe(200);
    expect(
      atom.text.match(/<link rel="http:\/\/opds-spec\.org\/progression" href="[^"]+\/progression" type="application\/opds-progression\+json"\/>/g),
    ).toHaveLength(publications.length);
  });

  it('when nothing is read yet, then 204; without sign-in 401 with how to sign in', async () => {
    expect((await get()).status).toBe(204);
    const anonymous = await api('GET', PATH, { headers: { host: AURORA, accept: PROGRESSION } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  it('when an app PUTs a progression, then GET answers it with its device, continue-reading lists the issue and KOReader pulls its chapter', async () => {
    const chapter = Math.min(1, spine.length - 1);
    const sent = { title: 'Chapter 2', modified: secondsAgo(2), device, progression: 0.3, references: [`${spine[chapter]!.href}#p3`] };
    const saved = expectDocument(await put(sent), 200);
    expect(saved).toEqual({ ...sent, modified: new Date(sent.modified).toISOString() });
    expect(expectDocument(await get(), 200)).toEqual(saved);
    expect((await continueReading())[0]).toBe(ISSUE);

    const pulled = await api('GET', `/kosync/syncs/progress/${document}`, { headers: kosync });
    expect(pulled.status).toBe(200);
    expect(pulled.body).toMatchObject({ document, progress: `/body/DocFragment[${chapter + 1}]/body` });
  });

  it('when a PUT is older than the stored position, then 409 with the stored progression, and nothing changes', async () => {
    const stored = expectDocument(await get(), 200);
    const stale = { modified: secondsAgo(3600), device: { id: 'urn:uuid:old-tablet', name: 'Old tablet' }, progression: 0.9 };
    expect(expectDocument(await put(stale), 409)).toEqual(stored);
    expect(expectDocument(await get(), 200)).toEqual(stored);
  });

  it('when the API saves a later position, then GET maps it (device Folio); so does a later KOReader push', async () => {
    const saved = await api('PUT', `/api/v2/reader/${ISSUE}/last-location`, {
      token: jwt.access_token,
      headers: v2(4),
      body: { lastLocation: { chapterHref: spine[0]!.href, cfi: 'epubcfi(/6/2!/4/2)' } },
    });
    expect(saved.status).toBe(200);
    const fromApi = expectDocument(await get(), 200);
    expect(fromApi).toMatchObject({ device: { id: 'urn:folio:api', name: 'Folio' }, progression: 0, references: [spine[0]!.href] });

    const last = spine.length - 1;
    const pushed = await api('PUT', '/kosync/syncs/progress', {
      headers: kosync,
      body: { document, progress: `/body/DocFragment[${last + 1}]/body/p[1]`, percentage: 0.95, device: 'Kobo', device_id: 'K1' },
    });
    expect(pushed.status).toBe(200);
    const fromKoreader = expectDocument(await get(), 200);
    expect(fromKoreader.references).toEqual([spine[last]!.href]);
    expect(Date.parse(fromKoreader.modified)).toBeGreaterThanOrEqual(Date.parse(fromApi.modified));
  });

  it("when a PUT is sent as plain JSON with the schema's `refs`, then it is taken like `references`", async () => {
    const sent = {
      modified: new Date().toISOString(),
      device: { id: 'https://reader.example.com', name: 'Web Reader' },
      progression: 0.5,
      refs: [spine[0]!.href],
    };
    const saved = expectDocument(await put(sent, 'application/json'), 200);
    expect(saved).toMatchObject({ device: sent.device, references: sent.refs });
  });

  it('when the document is malformed or the issue unknown, then 422 naming the fields, 404', async () => {
    const invalid = await put({ modified: 'yesterday', device: { id: 'not a uri', name: '' }, progression: 2 });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors)).toEqual(expect.arrayContaining(['modified', 'device.id', 'device.name', 'progression']));
    const unknown = await api('GET', '/opds/v2/publications/999999/progression', { headers });
    expect(unknown.status).toBe(404);
  });
});
