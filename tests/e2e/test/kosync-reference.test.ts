// koreader-sync-server's own v1 and v2 spec cases (kosync-reference-vectors.ts,
// sources and adaptations there) run end to end against {store}/kosync of the
// running stack, as KOReader would send them: the version in the Accept
// header, x-auth-user / x-auth-key (the MD5 of a device key).
import { createHash, randomBytes } from 'node:crypto';
import { uniqueEmail } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, ownClientIp } from './client.js';
import { api } from './reader-helpers.js';
import { V1_VECTORS, V2_VECTORS, type Expected, type Step, type Vector, type Who } from './kosync-reference-vectors.js';

const AURORA = 'aurora.localhost:8080';
const ACCEPT = { 1: 'application/vnd.koreader.v1+json', 2: 'application/vnd.koreader.v2+json' } as const;
const md5 = (value: string) => createHash('md5').update(value).digest('hex');
// One address for the file: its wrong-key cases count towards the per-IP failure limit, nobody else's.
const IP = ownClientIp();

interface Account {
  email: string;
  key: string;
}

async function deviceKeyUser(): Promise<Account> {
  const email = uniqueEmail('kosync-ref');
  const jwt = await loginByEmail(email, { appTenantId: 4 });
  const created = await api('POST', '/api/v2/user/device-keys', { token: jwt.access_token, body: { label: 'KOReader' } });
  if (created.status !== 201) throw new Error(`device key: ${created.status}`);
  return { email, key: md5(created.body.key as string) };
}

/** Each case's digests get their own prefix: the reference empties its database before each case. */
function namespace(index: number) {
  const prefix = `k${randomBytes(4).toString('hex')}n${index}`;
  const digest = (value: unknown) => (typeof value === 'string' && /^[A-Za-z0-9_-]+$/.test(value) ? `${prefix}${value}` : value);
  return {
    digest,
    identifiers: (list: unknown) =>
      Array.isArray(list)
        ? list.map((entry) => (entry && typeof entry === 'object' && 'value' in entry ? { ...entry, value: digest(entry.value) } : entry))
        : list,
    ids: (ids: string) =>
      ids
        .split(',')
        .map((pair) => {
          const parts = pair.split(':');
          return parts.length === 2 && parts[1] ? `${parts[0]}:${digest(parts[1])}` : pair;
        })
        .join(','),
    expected: (body: Record<string, unknown> | undefined) => body && ('document' in body ? { ...body, document: digest(body.document) } : body),
  };
}

describe("koreader-sync-server's spec cases against {store}/kosync (running stack)", () => {
  let reader: Account;
  let other: Account;
  beforeAll(async () => {
    [reader, other] = await Promise.all([deviceKeyUser(), deviceKeyUser()]);
  });

  const credentials = (who: Who): Record<string, string> => {
    if (who === 'other') return { 'x-auth-user': other.email, 'x-auth-key': other.key };
    const key = who === 'wrong-key' ? md5('wrong_pass') : who === 'empty-key' ? '' : reader.key;
    return { 'x-auth-user': reader.email, 'x-auth-key': key };
  };

  async function send(step: Step, ns: ReturnType<typeof namespace>) {
    const headers = { host: AURORA, accept: ACCEPT[step.version], ...IP };
    switch (step.op) {
      case 'healthcheck':
        return api('GET', '/kosync/healthcheck', { headers });
      case 'register':
        return api('POST', '/kosync/users/create', { headers, body: { username: 'new-user', password: 'passwd123' } });
      case 'auth':
        return api('GET', '/kosync/users/auth', { headers: { ...headers, ...credentials(step.as) } });
      case 'get': {
        const query = step.ids === undefined ? '' : `?ids=${encodeURIComponent(ns.ids(step.ids))}`;
        return api('GET', `/kosync/syncs/progress/${ns.digest(step.document) as string}${query}`, { headers: { ...headers, ...credentials(step.as) } });
      }
      case 'update': {
        const body = { ...step.body, document: ns.digest(step.body.document), identifiers: ns.identifiers(step.body.identifiers) };
        return api('PUT', '/kosync/syncs/progress', { headers: { ...headers, ...credentials(step.as) }, body });
      }
    }
  }

  function check(answer: { status: number; body: any; headers: Headers }, expected: Expected, ns: ReturnType<typeof namespace>, label: string) {
    expect(answer.status, label).toBe(expected.status);
    if (expected.code !== undefined) expect(answer.body, label).toEqual({ code: expected.code, message: expect.any(String) });
    const body = { ...(answer.body as Record<string, unknown>) };
    if (expected.timestamp) {
      expect(body.timestamp, label).toEqual(expect.any(Number));
      delete body.timestamp;
    }
    if (expected.body) expect(body, label).toEqual(ns.expected(expected.body));
    if (expected.fields) expect(body, label).toMatchObject(ns.expected(expected.fields)!);
  }

  const run = (vectors: Vector[], offset: number) =>
    vectors.forEach((vector, index) => {
      it(`${vector.name} (${vector.source})`, async () => {
        const ns = namespace(offset + index);
        for (const [n, step] of vector.steps.entries()) {
          const answer = await send(step, ns);
          check(answer, step.expect, ns, `step ${n + 1}: ${step.op} ${JSON.stringify(answer.body)}`);
          if (answer.status < 500)
            expect(answer.headers.get('content-type'), `step ${n + 1}`).toMatch(new RegExp(`^${ACCEPT[step.version].replace(/[.+]/g, '\\$&')}`));
        }
      });
    });

  describe('v1', () => run(V1_VECTORS, 0));
  describe('v2', () => run(V2_VECTORS, 100));
});
