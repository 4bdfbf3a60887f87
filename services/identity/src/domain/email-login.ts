// Login by e-mailed code. Init finds or creates the user (and the account in
// the app's tenant), throttles per e-mail and per IP, and mails a fresh code
// that replaces the previous one; only its keyed hash is stored. Validation
// takes one of the code's attempt slots (a unique insert) before comparing in
// constant time, so even parallel guesses get at most LOGIN_CODE_MAX_ATTEMPTS
// tries, and a correct code is single use.
import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { invalidArgument, tooManyRequests, unavailable } from '@folio/errors';
import type { Logger } from '@folio/logger';
import type { RateLimiter, RateRule } from '@folio/rate-limit';
import { INVALID_DATA, invalidFields } from './errors.js';
import { langOf, type LoginCodeSender } from './ports.js';
import type { Sessions, TokenPair } from './sessions.js';
import type { IdentityRepositories } from './repositories.js';
import type { TenantDirectory } from './tenants.js';
import { normalizeEmail, requireEmail, type UserAccounts } from './users.js';

export const LOGIN_RULES = {
  initPerEmail: { name: 'login-init-email', limit: 5, windowSeconds: 600 },
  initPerIp: { name: 'login-init-ip', limit: 60, windowSeconds: 60 },
  validatePerIp: { name: 'login-validate-ip', limit: 20, windowSeconds: 60 },
} satisfies Record<string, RateRule>;

export const CODE_INVALID = 'The code is invalid or has expired.';
export const CODE_EXHAUSTED = 'Too many attempts. Please request a new code.';

export interface EmailLoginSettings {
  codeLength: number;
  codeTtlSeconds: number;
  maxAttempts: number;
  pepper: string;
}

export class EmailLogin {
  constructor(
    private readonly deps: {
      store: Pick<IdentityRepositories, 'loginCodes' | 'users'>;
      users: UserAccounts;
      tenants: TenantDirectory;
      sessions: Sessions;
      limiter: RateLimiter;
      codes: LoginCodeSender;
      logger: Logger;
    },
    private readonly settings: EmailLoginSettings,
  ) {}

  async start(request: { email: string; lang: string; appTenantId: number; clientIp: string }): Promise<void> {
    const email = requireEmail(request.email);
    const tenant = await this.deps.tenants.appTenant(request.appTenantId);
    if (request.clientIp) await this.throttle(LOGIN_RULES.initPerIp, request.clientIp);
    await this.throttle(LOGIN_RULES.initPerEmail, digest(email));

    await this.deps.users.findOrCreateIn(email, tenant._id);
    const code = Array.from({ length: this.settings.codeLength }, () => randomInt(10)).join('');
    const expiresAt = new Date(Date.now() + this.settings.codeTtlSeconds * 1000);
    await this.deps.store.loginCodes.replace(email, this.hash(email, code), expiresAt);
    try {
      await this.deps.codes.sendCode({
        to: email,
        code,
        lang: langOf(request.lang),
        tenantName: tenant.name,
        ttlSeconds: this.settings.codeTtlSeconds,
      });
    } catch (error) {
      this.deps.logger.error({ err: error }, 'login code e-mail not sent');
      throw unavailable('The login e-mail could not be sent. Please try again.');
    }
  }

  async complete(request: { email: string; code: string; clientIp: string }): Promise<TokenPair> {
    if (request.clientIp) await this.throttle(LOGIN_RULES.validatePerIp, request.clientIp);
    const email = normalizeEmail(request.email ?? '');
    const code = (request.code ?? '').trim();
    const missing: Record<string, string[]> = {};
    if (!email) missing.email = ['The email field is required.'];
    if (!code) missing.code = ['The code field is required.'];
    if (Object.keys(missing).length) throw invalidFields(missing);

    const { store } = this.deps;
    const pending = await store.loginCodes.find(email);
    if (!pending || pending.expires_at.getTime() <= Date.now()) throw codeInvalid();
    const attempt = await store.loginCodes.takeAttempt(pending, this.settings.maxAttempts);
    if (attempt === null) throw codeExhausted();

    const expected = Buffer.from(pending.hash, 'hex');
    const given = Buffer.from(this.hash(email, code), 'hex');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw attempt >= this.settings.maxAttempts ? codeExhausted() : codeInvalid();
    }
    // Single use: only one caller takes the code's `used` slot.
    if (!(await store.loginCodes.consume(pending))) throw codeInvalid();

    const user = await store.users.findByEmail(email);
    if (!user) throw codeInvalid();
    return this.deps.sessions.login(user);
  }

  private hash(email: string, code: string): string {
    return createHmac('sha256', this.settings.pepper).update(`${email}\n${code}`).digest('hex');
  }

  private async throttle(rule: RateRule, key: string): Promise<void> {
    let decision;
    try {
      decision = await this.deps.limiter.hit(rule, key);
    } catch (error) {
      // Fail closed: without the limiter, login codes could be guessed or e-mail bombed freely.
      this.deps.logger.error({ err: error, rule: rule.name }, 'rate limiter unavailable');
      throw unavailable('Login is temporarily unavailable. Please try again.');
    }
    if (!decision.allowed) throw tooManyRequests('Too many requests. Please try again later.', decision.retryAfterSeconds);
  }
}

const codeInvalid = () => invalidArgument(INVALID_DATA, { code: [CODE_INVALID] });
const codeExhausted = () => invalidArgument(CODE_EXHAUSTED, { code: [CODE_EXHAUSTED] });

/** Rate-limit keys name e-mail addresses by digest, so Redis holds no addresses. */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 32);
}
