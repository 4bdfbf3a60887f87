// What the benchmark drives: every endpoint the apps call most, as a request factory.
// Each call of `build(n)` gives the n-th request of a run: the user turns
// round-robin, the client address changes every request, and writes carry
// what makes them valid and distinct (a fresh note uuid), so every answer is
// the endpoint's success status and nothing is a 4xx or a 429.
import { randomUUID } from 'node:crypto';
import { nextClientIp } from './http.mjs';

/** Tenant 1 (Northwind) and the free audiobook every member of it can open. */
export const TENANT = 1;
export const STORE_HOST = 'northwind.localhost:8080';
export const ISSUE = 1003;
/** On sale in tenant 1 and owned by none of the benchmark's users: the purchase redirect answers 302. */
export const PURCHASABLE_ISSUE = 1002;

/**
 * @param ctx.users        [{ email, token, readerToken }] all users
 * @param ctx.noteReaders  users whose note list on ISSUE holds exactly the benchmark's fixed notes
 * @param ctx.noteWriters  users the POST /reader/notes load writes for (their lists grow; nothing here reads them)
 * @param ctx.shelf        { name, value } of a taxonomy shelf of tenant 1
 */
export function endpoints(ctx) {
  const pick = (list, n) => list[n % list.length];
  const v2 = (user, extra = {}) => ({
    authorization: `Bearer ${user.token}`,
    'x-svc-tenant-id': String(TENANT),
    ...extra,
  });
  const multi = (user) => ({ authorization: `Bearer ${user.token}` });
  const read = (name, path, headers, users = ctx.users) => ({
    name,
    kind: 'read',
    expected: 200,
    build: (n) => {
      const user = pick(users, n);
      return { method: 'GET', path, headers: headers(user) };
    },
  });

  return [
    read('GET /api/v2/user', '/api/v2/user', multi),
    read('GET /api/v2/library', '/api/v2/library', (u) => v2(u)),
    read(`GET /api/v2/library/filter?${ctx.shelf.name}=${ctx.shelf.value}`, `/api/v2/library/filter?${encodeURIComponent(ctx.shelf.name)}=${encodeURIComponent(ctx.shelf.value)}`, (u) => v2(u)),
    read('GET /api/v2/search/store?query=atlas', '/api/v2/search/store?query=atlas', (u) => v2(u)),
    read('GET /api/v2/search/global?query=atlas', '/api/v2/search/global?query=atlas', multi),
    read('GET /api/v2/user/continue-reading', '/api/v2/user/continue-reading', multi),
    read('GET /api/v2/user/my-content?per_page=20', '/api/v2/user/my-content?per_page=20', multi),
    read(`GET /api/v2/reader/settings/${ISSUE}`, `/api/v2/reader/settings/${ISSUE}`, (u) => v2(u)),
    read('GET /api/v2/reader/notes', '/api/v2/reader/notes', (u) => v2(u, { 'reader-token': u.readerToken }), ctx.noteReaders),
    read('GET /api/v1/notes (store host)', '/api/v1/notes', (u) => ({ host: STORE_HOST, 'reader-token': u.readerToken }), ctx.noteReaders),
    {
      name: `POST /api/v2/reader/${ISSUE}/sessions`,
      kind: 'write',
      expected: 200,
      build: (n) => ({ method: 'POST', path: `/api/v2/reader/${ISSUE}/sessions`, headers: v2(pick(ctx.users, n)) }),
    },
    {
      name: `PUT /api/v2/reader/${ISSUE}/last-location`,
      kind: 'write',
      expected: 200,
      build: (n) =>
        json('PUT', `/api/v2/reader/${ISSUE}/last-location`, v2(pick(ctx.users, n)), {
          // Within the first seconds of track 1: a seek past the track's end is a 422.
          lastLocation: { currentSeek: n % 6, currentTrack: 1 },
        }),
    },
    {
      name: 'POST /api/v2/reader/notes',
      kind: 'write',
      expected: 201,
      build: (n) => {
        const user = pick(ctx.noteWriters, n);
        return json('POST', '/api/v2/reader/notes', v2(user, { 'reader-token': user.readerToken }), noteBody(randomUUID(), n));
      },
    },
    {
      name: `GET /app/purchase/${PURCHASABLE_ISSUE} (store host)`,
      kind: 'write',
      expected: 302,
      build: (n) => ({ method: 'GET', path: `/app/purchase/${PURCHASABLE_ISSUE}?token=${pick(ctx.users, n).token}`, headers: { host: STORE_HOST } }),
    },
  ].map((endpoint) => ({
    ...endpoint,
    // The client address is set last so that no endpoint can forget it.
    build: (n) => {
      const request = endpoint.build(n);
      return { ...request, headers: { ...request.headers, 'x-forwarded-for': nextClientIp() } };
    },
  }));
}

/** A valid highlight of the audiobook's first track (notes keep positions as sent). */
export function noteBody(uuid, n) {
  return {
    uuid,
    color: ['yellow', 'green', 'blue', 'pink'][n % 4],
    totalLength: 24,
    totalText: `benchmark highlight ${String(n % 10_000).padStart(4, '0')}`,
    annotationText: n % 2 ? 'a note written by the API benchmark' : undefined,
    startPage: 1,
    startPageStartOffset: n % 500,
    startPageLength: 24,
    endPage: 1,
    endPageLength: 24,
  };
}

function json(method, path, headers, body) {
  return { method, path, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
