// A tiny client of the running stack: JSON requests through the gateway and
// the e-mail login a real user does (init, read the code in MailDev, validate).
import http from 'node:http';
import { loginCodeFrom, waitForEmail } from '@folio/testing';

export const GATEWAY_URL = process.env.E2E_GATEWAY_URL ?? 'http://127.0.0.1:8080';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * One request through the gateway. node:http rather than fetch, because fetch
 * does not let a caller choose the Host header, and stores are told apart by Host.
 */
export async function api<T = any>(
  method: string,
  path: string,
  { body, headers = {}, token }: { body?: unknown; headers?: Record<string, string>; token?: string } = {},
): Promise<ApiResponse<T>> {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const url = new URL(path, GATEWAY_URL);
  const response = await new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method,
        headers: {
          accept: 'application/json',
          ...(payload !== undefined && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
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
          resolve({ status: res.statusCode ?? 0, headers: responseHeaders, text: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    request.on('error', reject);
    if (payload !== undefined) request.write(payload);
    request.end();
  });
  let parsed: unknown = undefined;
  try {
    parsed = response.text ? JSON.parse(response.text) : undefined;
  } catch {
    parsed = response.text;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text: response.text };
}

/** A distinct client address per test, so per-IP limits of one test don't touch another (the gateway trusts loopback proxies locally). */
export function clientIp(): { 'x-forwarded-for': string } {
  return { 'x-forwarded-for': `198.51.100.${1 + Math.floor(Math.random() * 250)}` };
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
