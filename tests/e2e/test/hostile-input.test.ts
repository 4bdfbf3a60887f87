// Requests that once took a whole service down: a
// validation message with non-ASCII text made the gRPC error mapping throw
// inside the error path, and the process exited. Each case must answer a 4xx
// and leave the service serving the next request.
import { encryptText } from '@folio/crypto';
import { uniqueName } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientIp, sharedLogin, type Tokens } from './client.js';
import { api, session, STORE, v2, type ReaderSessionBody } from './reader-helpers.js';

describe('hostile input that once crashed a service (running stack)', () => {
  let ana: Tokens;
  let readerToken: string;

  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
    readerToken = (await session(ana.access_token, 1, 1001)).token;
  });

  const libraryStillServes = async () => {
    const after = await api('GET', '/api/v2/library', { token: ana.access_token, headers: v2(1) });
    expect(after.status).toBe(200);
  };

  const integrationsStillServe = async () => {
    const after = await api('POST', '/api/v2/reader/integrations/translate', {
      token: ana.access_token,
      headers: v2(1, readerToken),
      body: { text: encryptText(readerToken, 'hello world'), target_lang: 'es' },
    });
    expect(after.status).toBe(200);
  };

  it('when a library filter is named with a non-ASCII key, then catalog answers 422 and keeps serving', async () => {
    const response = await api('GET', '/api/v2/library/filter?%C3%A9=x', { token: ana.access_token, headers: v2(1) });
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual(expect.any(String));
    await libraryStillServes();
  });

  it('when listen is asked for a non-ASCII voice, then integrations answers 422 and keeps serving', async () => {
    const response = await api('POST', '/api/v2/reader/integrations/listen', {
      token: ana.access_token,
      headers: v2(1, readerToken),
      body: { text: encryptText(readerToken, 'hello'), voiceId: 'é' },
    });
    expect(response.status).toBe(422);
    await integrationsStillServe();
  });

  it('when translate is asked for a non-ASCII target language, then integrations answers 422 and keeps serving', async () => {
    const response = await api('POST', '/api/v2/reader/integrations/translate', {
      token: ana.access_token,
      headers: v2(1, readerToken),
      body: { text: encryptText(readerToken, 'hello world'), target_lang: 'éé' },
    });
    expect(response.status).toBe(422);
    await integrationsStillServe();
  });

  it('when the v1 translate route gets the same input with only a reader-token, then it is a 422 too', async () => {
    const response = await api('POST', '/api/v1/integrations/translate', {
      headers: { host: STORE[1], 'reader-token': readerToken },
      body: { text: 'hello world', target_lang: 'éé' },
    });
    expect(response.status).toBe(422);
    await integrationsStillServe();
  });
});

// Storage (PostgreSQL under FerretDB) refuses NUL in text (SQLSTATE 22P05):
// each operation that keeps or looks up text a client sent answers 422 on the
// field as sent, before any service is asked.
describe('NUL characters in text fields (running stack)', () => {
  let ana: Tokens;
  let epub: ReaderSessionBody;
  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
    epub = await session(ana.access_token, 1, 1001);
  });

  const NUL = 'a\u0000b';
  const note = (extra: Record<string, unknown> = {}) => ({
    uuid: uniqueName('nul'),
    color: 'yellow',
    totalLength: 3,
    totalText: 'abc',
    epubChapter: 'text/chapter-1.xhtml',
    ...extra,
  });

  const cases: { name: string; field: string; send: () => Promise<{ status: number; body: any }> }[] = [
    {
      name: 'note create v2',
      field: 'totalText',
      send: () => api('POST', '/api/v2/reader/notes', { token: ana.access_token, headers: v2(1, epub.token), body: note({ totalText: NUL }) }),
    },
    {
      name: 'note update v2',
      field: 'annotationText',
      send: () =>
        api('PUT', '/api/v2/reader/notes/987654321', { token: ana.access_token, headers: v2(1, epub.token), body: { color: 'red', annotationText: NUL } }),
    },
    {
      name: 'note create v1',
      field: 'epubLocation',
      send: () => api('POST', '/api/v1/notes', { headers: { host: STORE[1], 'reader-token': epub.token }, body: note({ epubLocation: NUL }) }),
    },
    {
      name: 'note update v1',
      field: 'color',
      send: () => api('PATCH', '/api/v1/notes/987654321', { headers: { host: STORE[1], 'reader-token': epub.token }, body: { color: NUL } }),
    },
    {
      name: 'push registration',
      field: 'fcm_token',
      send: () =>
        api('POST', '/api/v2/user/push-notifications', { token: ana.access_token, body: { fcm_token: NUL, device_token: 'd1', platform: 'android' } }),
    },
    {
      name: 'last-location',
      field: 'lastLocation.cfi',
      send: () =>
        api('PUT', '/api/v2/reader/1001/last-location', {
          token: ana.access_token,
          headers: v2(1),
          body: { lastLocation: { chapterHref: epub.spine![0]!.href, cfi: `epubcfi(/6/2!/4/2${NUL})` } },
        }),
    },
    {
      name: 'help',
      field: 'message',
      send: () => api('POST', '/api/v2/help', { token: ana.access_token, body: { subject: 'other', message: `Something is wrong ${NUL}` } }),
    },
    {
      name: 'kosync progress',
      field: 'progress',
      send: () =>
        api('PUT', '/kosync/syncs/progress', { headers: { host: STORE[1] }, body: { document: 'abc123', progress: `/body/p${NUL}`, percentage: 0.5 } }),
    },
    {
      name: 'device-key delete by id',
      field: 'id',
      send: () => api('DELETE', '/api/v2/user/device-keys/a%00b', { token: ana.access_token }),
    },
    {
      name: 'device-key label',
      field: 'label',
      send: () => api('POST', '/api/v2/user/device-keys', { token: ana.access_token, body: { label: NUL } }),
    },
    {
      name: 'store search query',
      field: 'query',
      send: () => api('GET', '/api/v2/search/store?query=atlas%00x', { token: ana.access_token, headers: { ...clientIp(), 'x-svc-tenant-id': '1' } }),
    },
    {
      name: 'in-book search query',
      field: 'search',
      send: () => api('GET', '/api/v2/reader/issue-text-content?search=atlas%00x', { token: ana.access_token, headers: v2(1, epub.token) }),
    },
  ];

  it.each(cases)('when the $name has a NUL in $field, then 422 names the field', async ({ field, send }) => {
    const response = await send();
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('The given data was invalid.');
    expect(response.body.errors[field]).toContain(`The ${field} field must not contain NUL characters.`);
  });

  it('when the same operations are sent without the NUL, then they are not refused for it', async () => {
    const fine = await api('POST', '/api/v2/reader/notes', { token: ana.access_token, headers: v2(1, epub.token), body: note({ totalText: 'a\tb' }) });
    expect(fine.status).toBe(201);
  });
});
