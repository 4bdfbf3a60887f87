// A tiny client of the running stack: JSON requests through the gateway and
// the e-mail login a real user does (init, read the code in MailDev, validate).
import { loginCodeFrom, waitForEmail } from '@folio/testing';

export const GATEWAY_URL = process.env.E2E_GATEWAY_URL ?? 'http://127.0.0.1:8080';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function api<T = any>(
  method: string,
  path: string,
  { body, headers = {}, token }: { body?: unknown; headers?: Record<string, string>; token?: string } = {},
): Promise<ApiResponse<T>> {
  const response = await fetch(`${GATEWAY_URL}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(token && { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
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
