// A tiny client of the running stack: JSON requests through the gateway and
// the e-mail login a real user does (init, read the code in MailDev, validate).
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loginCodeFrom, waitForEmail } from '@folio/testing';
import { recordExchange } from './contract-recorder.js';

export const GATEWAY_URL = process.env.E2E_GATEWAY_URL ?? 'http://127.0.0.1:8080';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  /** The body as received (audio, images). */
  bytes: Buffer;
}

/**
 * One request through the gateway. node:http rather than fetch, because fetch
 * does not let a caller choose the Host header, and stores are told apart by Host.
 */
export async function api<T = any>(
  method: string,
  path: string,
  {
    body,
    headers = {},
    token,
    baseUrl = GATEWAY_URL,
  }: { body?: unknown; headers?: Record<string, string>; token?: string; /** Another gateway than the stack's. */ baseUrl?: string } = {},
): Promise<ApiResponse<T>> {
  // A Buffer goes as it is (a file upload: the caller names its Content-Type); anything else as JSON.
  const payload = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const url = new URL(path, baseUrl);
  const response = await new Promise<{ status: number; headers: Headers; bytes: Buffer }>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method,
        headers: {
          accept: 'application/json',
          ...(payload !== undefined && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(payload !== undefined && Buffer.isBuffer(payload) && { 'content-type': 'application/octet-stream' }),
          ...(token && { authorization: `Bearer ${token}` }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          resolve({ status: res.statusCode ?? 0, headers: responseHeaders, bytes: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    request.on('error', reject);
    if (payload !== undefined) request.write(payload);
    request.end();
  });
  const text = response.bytes.toString('utf8');
  recordExchange(method, url.pathname, response.status, response.headers.get('content-type'), text);
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text, bytes: response.bytes };
}

/** A distinct client address per test, so per-IP limits of one test don't touch another (the gateway trusts loopback proxies locally). */
export function clientIp(): { 'x-forwarded-for': string } {
  return { 'x-forwarded-for': `198.51.100.${1 + Math.floor(Math.random() * 250)}` };
}

/**
 * An address no other request of the run shares (one of 4 million, outside
 * clientIp's 250): for a test that fills a per-IP limit and counts on every
 * earlier request of that address being its own.
 */
export function ownClientIp(): { 'x-forwarded-for': string } {
  const octet = () => Math.floor(Math.random() * 256);
  return { 'x-forwarded-for': `100.${64 + Math.floor(Math.random() * 64)}.${octet()}.${octet()}` };
}

export interface Tokens {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
}

/** Logs in by e-mail code exactly as the app does; `nth` is the count of login e-mails the address will have received. */
export async function loginByEmail(email: string, { lang, appTenantId }: { lang?: string; appTenantId?: number } = {}): Promise<Tokens> {
  const before = await countEmails(email);
  const ip = clientIp();
  const init = await api('POST', '/api/v2/login/token/init', {
    body: { email },
    headers: { ...ip, ...(lang && { 'x-app-lang': lang }), ...(appTenantId && { 'x-customapp-tenant-id': String(appTenantId) }) },
  });
  if (init.status !== 201) throw new Error(`login init answered ${init.status}: ${init.text}`);
  const mail = await waitForEmail(email, { nth: before + 1 });
  const validate = await api<Tokens>('POST', '/api/v2/login/token/validate', { body: { email, code: loginCodeFrom(mail) }, headers: ip });
  if (validate.status !== 200) throw new Error(`login validate answered ${validate.status}: ${validate.text}`);
  return validate.body;
}

async function countEmails(email: string): Promise<number> {
  const { emailsTo } = await import('@folio/testing');
  return (await emailsTo(email)).length;
}

// ------------------------------------------------------------ logins --

/**
 * One login of a seeded user shared by the test files of a run (and by runs
 * close together). Identity allows 5 login codes per e-mail per 10 minutes and
 * 5 live sessions per user (a sixth evicts the oldest), so test files that
 * each logged ana in would throttle and evict one another. Tokens are cached
 * in a file under a lock (test files run in parallel workers):
 * - a login younger than 10 minutes is reused while its session validates: in
 *   that span the rate limit leaves room for too few newer logins to evict it;
 * - an older one is replaced by a new login, unless identity refuses the
 *   login (429), in which case the old one is reused if it still validates.
 * Fresh users (uniqueEmail) do not need this.
 */
export async function sharedLogin(email: string): Promise<Tokens> {
  const key = GATEWAY_URL.replace(/[^A-Za-z0-9]+/g, '_');
  const cacheFile = join(tmpdir(), `folio-e2e-logins-${key}.json`);
  const lockDir = `${cacheFile}.lock`;
  await acquire(lockDir);
  try {
    let cache: Record<string, Tokens & { obtained_at: number }> = {};
    try {
      cache = JSON.parse(await readFile(cacheFile, 'utf8')) as typeof cache;
    } catch {
      cache = {};
    }
    const cached = cache[email];
    const usable = async () =>
      cached !== undefined &&
      expiresAt(cached.access_token) > Date.now() + 10 * 60_000 &&
      (await api('GET', '/api/v2/auth/session/validate', { token: cached.access_token })).status === 200;
    if (cached && Date.now() - cached.obtained_at < 10 * 60_000 && (await usable())) return cached;
    let tokens: Tokens;
    try {
      tokens = await loginByEmail(email);
    } catch (error) {
      if (String(error).includes('429') && (await usable())) return cached!;
      throw error;
    }
    cache[email] = { ...tokens, obtained_at: Date.now() };
    await writeFile(cacheFile, JSON.stringify(cache));
    return tokens;
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

async function acquire(lockDir: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await mkdir(lockDir);
      return;
    } catch {
      // A lock left by a killed run is stale after 30 s.
      const info = await stat(lockDir).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > 30_000) await rm(lockDir, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`could not take ${lockDir}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function expiresAt(jwt: string): number {
  const payload = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number };
  return payload.exp * 1000;
}
