// Device keys: how apps that cannot do e-mail codes (OPDS readers, KOReader
// sync) log in. A key is 192 random bits (base64url), shown once at creation
// and stored only as digests: SHA-256 of the key (HTTP Basic sends the key)
// and SHA-256 of its MD5 hex (KOReader sends MD5(key) in x-auth-key). So the
// verify path is one lookup by `_id` or by a unique field, then the user and
// the membership of the store, each by `_id` or a unique index.
//
// Failed verifications are counted per IP, per (e-mail, IP) and per e-mail;
// a reader that keeps browsing with a good key is never counted. The limits
// of the request's own address are checked before every attempt, so a
// guesser over them learns nothing, even from a right key. The e-mail's limit
// is not: anyone who knows an address could otherwise keep its owner's
// e-readers out by failing from elsewhere. Over it, a wrong key is answered
// 429 instead of 401 and a right key still verifies; what stops a guesser
// spread over many addresses is the key's 192 random bits, not a counter.
import { createHash, randomBytes } from 'node:crypto';
import { DomainError, notFound, tooManyRequests, unauthenticated, unavailable } from '@folio/errors';
import type { Logger } from '@folio/logger';
import type { RateDecision, RateLimiter, RateRule } from '@folio/rate-limit';
import { invalidFields, nulFieldErrors } from './errors.js';
import { normalizeEmail } from './users.js';

/** A stored device key: digests only, never the key. */
export interface DeviceKeyRecord {
  /** SHA-256 of the key (hex): the lookup of HTTP Basic. */
  digest: string;
  /** SHA-256 of the key's MD5 hex: the lookup of KOReader's x-auth-key. */
  md5Digest: string;
  /** The public id the API lists and deletes by. */
  id: string;
  userId: number;
  label: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** Where device keys are kept (data/device-keys.ts): each lookup one `_id` or unique-index read. */
export interface DeviceKeyRepository {
  insert(record: DeviceKeyRecord): Promise<void>;
  findByDigest(digest: string): Promise<DeviceKeyRecord | null>;
  findByMd5Digest(md5Digest: string): Promise<DeviceKeyRecord | null>;
  /** Newest first. */
  listOf(userId: number): Promise<DeviceKeyRecord[]>;
  countOf(userId: number): Promise<number>;
  /** False when the id is unknown or another user's. */
  deleteOf(userId: number, id: string): Promise<boolean>;
  /** Account erasure: every key of the user; returns how many went. */
  deleteAllOf(userId: number): Promise<number>;
  touch(digest: string, at: Date): Promise<void>;
}

/** The accounts a key can sign in: the user and the stores they have an account in. */
export interface DeviceKeyAccounts {
  user(userId: number): Promise<{ id: number; email: string; admin: boolean } | null>;
  isMember(userId: number, tenantId: number): Promise<boolean>;
}

export const DEVICE_KEY_RULES = {
  failuresPerIp: { name: 'device-key-fail-ip', limit: 20, windowSeconds: 60 },
  /** One address failing for one account: below the IP's limit, so guessing at one reader from one place stops sooner. */
  failuresPerEmailAndIp: { name: 'device-key-fail-email-ip', limit: 10, windowSeconds: 600 },
  /** Refuses only wrong keys (see above). */
  failuresPerEmail: { name: 'device-key-fail-email', limit: 20, windowSeconds: 600 },
} satisfies Record<string, RateRule>;

/** At most this many keys per user: a key per device is a handful. */
export const MAX_KEYS_PER_USER = 50;
const LABEL_MAX = 100;
/** `last_used_at` is written at most this often, so verification stays a read. */
const TOUCH_INTERVAL_MS = 60_000;

export const KEY_REFUSED = 'The e-mail or device key is not valid for this store.';

export type SecretForm = 'plain' | 'kosync-md5';

export interface DeviceKeyView {
  id: string;
  label: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface VerifiedDeviceKey {
  userId: number;
  email: string;
  admin: boolean;
  keyId: string;
}

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
const md5 = (value: string) => createHash('md5').update(value, 'utf8').digest('hex');

const viewOf = (record: DeviceKeyRecord): DeviceKeyView => ({ id: record.id, label: record.label, createdAt: record.createdAt, lastUsedAt: record.lastUsedAt });

export class DeviceKeys {
  constructor(
    private readonly keys: DeviceKeyRepository,
    private readonly accounts: DeviceKeyAccounts,
    private readonly limiter: RateLimiter,
    private readonly logger: Logger,
  ) {}

  async create(request: { userId: number; label: string }): Promise<{ view: DeviceKeyView; key: string }> {
    const label = (request.label ?? '').trim();
    if (!label) throw invalidFields({ label: ['The label field is required.'] });
    if ([...label].length > LABEL_MAX) throw invalidFields({ label: [`The label may not be greater than ${LABEL_MAX} characters.`] });
    if (/\p{Cc}/u.test(label)) throw invalidFields({ label: ['The label may not contain control characters.'] });
    if (!(await this.accounts.user(request.userId))) throw unauthenticated('The given data was invalid.');
    if ((await this.keys.countOf(request.userId)) >= MAX_KEYS_PER_USER) {
      throw new DomainError('FAILED_PRECONDITION', `You already have ${MAX_KEYS_PER_USER} device keys: delete one you no longer use first.`, {
        reason: 'KEY_LIMIT_REACHED',
      });
    }
    const key = randomBytes(24).toString('base64url');
    const record: DeviceKeyRecord = {
      digest: sha256(key),
      md5Digest: sha256(md5(key)),
      id: randomBytes(12).toString('base64url'),
      userId: request.userId,
      label,
      createdAt: new Date(),
      lastUsedAt: null,
    };
    await this.keys.insert(record);
    return { view: viewOf(record), key };
  }

  async list(userId: number): Promise<DeviceKeyView[]> {
    return (await this.keys.listOf(userId)).map(viewOf);
  }

  async delete(request: { userId: number; id: string }): Promise<void> {
    const id = (request.id ?? '').trim();
    const nul = nulFieldErrors({ id });
    if (Object.keys(nul).length) throw invalidFields(nul);
    if (!id || !(await this.keys.deleteOf(request.userId, id))) throw notFound('No such device key.');
  }

  async verify(request: { email: string; tenantId: number; secret: string; form: SecretForm; clientIp: string }): Promise<VerifiedDeviceKey> {
    const email = normalizeEmail(request.email ?? '');
    const emailKey = sha256(email).slice(0, 32);
    const perEmail: [RateRule, string] = [DEVICE_KEY_RULES.failuresPerEmail, emailKey];
    const ip = request.clientIp;
    // Without an address there is no owner's address to tell apart: the e-mail's limit refuses before the lookup.
    const before: [RateRule, string][] = ip
      ? [
          [DEVICE_KEY_RULES.failuresPerIp, ip],
          [DEVICE_KEY_RULES.failuresPerEmailAndIp, `${emailKey}:${ip}`],
        ]
      : [perEmail];
    const [emailDecision] = await this.decisionsOf([perEmail, ...before]);

    const found = await this.lookUp(email, request);
    if (!found) {
      await this.countFailure(ip ? [...before, perEmail] : before);
      if (!emailDecision!.allowed) throw tooManyRequests('Too many failed attempts. Please try again later.', emailDecision!.retryAfterSeconds);
      throw unauthenticated(KEY_REFUSED);
    }
    const { record, user } = found;
    const now = Date.now();
    if (!record.lastUsedAt || now - record.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS) {
      // Best effort: a failed write must not refuse a good key.
      await this.keys.touch(record.digest, new Date(now)).catch((error: unknown) => this.logger.warn({ err: error }, 'device key last_used_at not written'));
    }
    return { userId: user.id, email: user.email, admin: user.admin, keyId: record.id };
  }

  private async lookUp(email: string, request: { tenantId: number; secret: string; form: SecretForm }) {
    const secret = (request.secret ?? '').trim();
    if (!email || !secret || secret.length > 256 || !(request.tenantId > 0)) return null;
    const record = request.form === 'kosync-md5' ? await this.keys.findByMd5Digest(sha256(secret.toLowerCase())) : await this.keys.findByDigest(sha256(secret));
    if (!record) return null;
    const user = await this.accounts.user(record.userId);
    // A key of another user, or of an erased account whose key outlived it, is refused alike.
    if (!user || user.email !== email) return null;
    if (!(await this.accounts.isMember(user.id, request.tenantId))) return null;
    return { record, user };
  }

  /** Refuses when one of `limits` but the first is over; returns every decision (the first's for the caller to weigh). */
  private async decisionsOf(limits: [RateRule, string][]): Promise<RateDecision[]> {
    let decisions: RateDecision[];
    try {
      decisions = await Promise.all(limits.map(([rule, key]) => this.limiter.wouldAllow(rule, key)));
    } catch (error) {
      // Fail closed, like code validation: without the limiter keys could be guessed freely.
      this.logger.error({ err: error }, 'rate limiter unavailable');
      throw unavailable('Sign-in is temporarily unavailable. Please try again.');
    }
    const refused = decisions.slice(1).find((decision) => !decision.allowed);
    if (refused) throw tooManyRequests('Too many failed attempts. Please try again later.', refused.retryAfterSeconds);
    return decisions;
  }

  private async countFailure(limits: [RateRule, string][]): Promise<void> {
    await Promise.all(limits.map(([rule, key]) => this.limiter.hit(rule, key))).catch((error: unknown) =>
      this.logger.error({ err: error }, 'device key failure not counted'),
    );
  }
}
