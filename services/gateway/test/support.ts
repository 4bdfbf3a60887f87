// Component-test harness: the real gateway on port 0 in front of the real
// identity service (in-process, port 0, a fresh database seeded with the demo
// dataset, its own rate-limit prefix, exchange and queues) and real Redis.
// Every other upstream address points at a closed port.
import { request as httpRequest } from 'node:http';
import { startTestIdentity, type TestIdentity } from '@folio/identity/testing';
import { emailsTo, loginCodeFrom, testInfra, uniqueName, waitForEmail } from '@folio/testing';
import { startGateway, type Gateway } from '../src/app.js';
import { loadGatewayConfig, type GatewayConfig } from '../src/config.js';

/** Nothing listens on port 1: connections are refused at once. */
export const CLOSED_ADDR = '127.0.0.1:1';

export function gatewayConfig(identityAddress: string, overrides: Record<string, string> = {}): GatewayConfig {
  return loadGatewayConfig({
    NODE_ENV: 'test',
    HTTP_PORT: '0',
    LOG_LEVEL: 'silent',
    IDENTITY_ADDR: identityAddress,
    CATALOG_ADDR: CLOSED_ADDR,
    COMMERCE_ADDR: CLOSED_ADDR,
    READER_ADDR: CLOSED_ADDR,
    NOTES_ADDR: CLOSED_ADDR,
    INTEGRATIONS_ADDR: CLOSED_ADDR,
    REDIS_URL: testInfra().redisUrl,
    AMQP_URL: testInfra().amqpUrl,
    RATE_LIMIT_PREFIX: uniqueName('gw_rl'),
    ...overrides,
  });
}

export interface Stack {
  gateway: Gateway;
  identity: TestIdentity;
  http: HttpClient;
  stop(): Promise<void>;
}

/** Identity plus a gateway in front of it. */
export async function startStack(options: { identityEnv?: Record<string, string>; gatewayEnv?: Record<string, string> } = {}): Promise<Stack> {
  // GW_TEST_IDENTITY_LOG=error shows identity's own logs when a test needs explaining.
  const identity = await startTestIdentity({
    namePrefix: 'gw',
    env: { LOG_LEVEL: process.env.GW_TEST_IDENTITY_LOG ?? 'silent', ...options.identityEnv },
  });
  const gateway = await startGateway(gatewayConfig(identity.address, options.gatewayEnv));
  return {
    gateway,
    identity,
    http: httpClient(gateway.url),
    async stop() {
      await gateway.stop();
      await identity.stop();
    },
  };
}

// ------------------------------------------------------------------ HTTP --

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  body: any;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as it is (malformed JSON tests). */
  body?: unknown;
  token?: string;
}

export type HttpClient = ReturnType<typeof httpClient>;

/** node:http rather than fetch: tests need to set Host and send raw, broken bodies. */
export function httpClient(baseUrl: string) {
  const base = new URL(baseUrl);
  const send = (method: string, path: string, options: RequestOptions = {}) =>
    new Promise<HttpResponse>((resolve, reject) => {
      const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
      let payload: string | undefined;
      if (options.body !== undefined) {
        payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
        headers['content-length'] = String(Buffer.byteLength(payload));
      }
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      const req = httpRequest({ host: base.hostname, port: base.port, method, path, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      });
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  return {
    get: (path: string, options?: RequestOptions) => send('GET', path, options),
    post: (path: string, options?: RequestOptions) => send('POST', path, options),
    put: (path: string, options?: RequestOptions) => send('PUT', path, options),
    patch: (path: string, options?: RequestOptions) => send('PATCH', path, options),
    delete: (path: string, options?: RequestOptions) => send('DELETE', path, options),
    send,
  };
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
}

/** The e-mail code flow through the gateway, with MailDev in between. */
export async function loginThroughGateway(http: HttpClient, email: string, headers: Record<string, string> = {}): Promise<Tokens> {
  const before = (await emailsTo(email)).length;
  const init = await http.post('/api/v2/login/token/init', { body: { email }, headers });
  if (init.status !== 201) throw new Error(`login init answered ${init.status}: ${init.text}`);
  const mail = await waitForEmail(email, { nth: before + 1 });
  const validate = await http.post('/api/v2/login/token/validate', { body: { email, code: loginCodeFrom(mail) }, headers });
  if (validate.status !== 200) throw new Error(`login validate answered ${validate.status}: ${validate.text}`);
  return validate.body as Tokens;
}

/** A client IP of the TEST-NET-3 range, sent through the trusted loopback proxy. */
export const fromIp = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` });

/** No response of the gateway may carry a stack trace or an internal path. */
export function expectNoLeak(response: HttpResponse): void {
  if (/\bat .+\(.+:\d+:\d+\)|node_modules|\/work\/|Error: /.test(response.text)) {
    throw new Error(`response leaks internals: ${response.text.slice(0, 300)}`);
  }
}
