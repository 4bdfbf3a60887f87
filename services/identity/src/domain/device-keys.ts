// Device keys: how apps that cannot do e-mail codes (OPDS readers, KOReader
// sync) log in. A key is 192 random bits (base64url), shown once at creation
// and stored only as digests: SHA-256 of the key (HTTP Basic sends the key)
// and SHA-256 of its MD5 hex (KOReader sends MD5(key) in x-auth-key). So the
// verify path is one lookup by `_id` or by a unique field, then the user and
// the membership of the store, each by `_id` or a unique index.
//
// Failed verifications are rate limited like code validation: per IP and
// per e-mail, counted on failure and checked before every attempt (so a
// guesser over the limit learns nothing, even from a right key), while a
// reader that keeps browsing with a good key is never counted.
import { createHash, randomBytes } from 'node:crypto';
import { DomainError, notFound, tooManyRequests, unauthenticated, unavailable } from '@folio/errors';
import type { Logger } from '@folio/logger';
import type { RateLimiter, RateRule } from '@folio/rate-limit';
import type { DeviceKeyDoc, IdentityStore } from '../data/index.js';
import { invalidFields } from './errors.js';
import { normalizeEmail } from './users.js';

export const DEVICE_KEY_RULES = {
  failuresPerIp: { name: 'device-key-fail-ip', limit: 20, windowSeconds: 60 },
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

const viewOf = (doc: DeviceKeyDoc): DeviceKeyView => ({ id: doc.key_id, label: doc.label, createdAt: doc.created_at, lastUsedAt: doc.last_used_at ?? null });

export class DeviceKeys {
  constructor(
    private readonly store: IdentityStore,
    private readonly limiter: RateLimiter,
    private readonly logger: Logger,
  ) {}

  async create(request: { userId: number; label: string }): Promise<{ view: DeviceKeyView; key: string }> {
    const label = (request.label ?? '').trim();
    if (!label) throw invalidFields({ label: ['The label field is required.'] });
    if ([...label].length > LABEL_MAX) throw invalidFields({ label: [`The label may not be greater than ${LABEL_MAX} characters.`] });
    if (/\p{Cc}/u.test(label)) throw invalidFields({ label: ['The label may not contain control characters.'] });
    if (!(await this.store.users.findById(request.userId))) throw unauthenticated('The given data was invalid.');
    if ((await this.store.deviceKeys.countOf(request.userId)) >= MAX_KEYS_PER_USER) {
      throw new DomainError('FAILED_PRECONDITION', `You already have ${MAX_KEYS_PER_USER} device keys: delete one you no longer use first.`, { httpStatus: 409 });
    }
    const key = randomBytes(24).toString('base64url');
    const doc: DeviceKeyDoc = {
      _id: sha256(key),
      md5_digest: sha256(md5(key)),
      key_id: randomBytes(12).toString('base64url'),
      user_id: request.userId,
      label,
      created_at: new Date(),
      last_used_at: null,
    };
    await this.store.deviceKeys.insert(doc);
    return { view: viewOf(doc), key };
  }

  async list(userId: number): Promise<DeviceKeyView[]> {
    return (await this.store.deviceKeys.listOf(userId)).map(viewOf);
  }

  async delete(request: { userId: number; id: string }): Promise<void> {
    const id = (request.id ?? '').trim();
    if (!id || !(await this.store.deviceKeys.deleteOf(request.userId, id))) throw notFound('No such device key.');
  }

  async verify(request: { email: string; tenantId: number; secret: string; form: SecretForm; clientIp: string }): Promise<VerifiedDeviceKey> {
    const email = normalizeEmail(request.email ?? '');
    const limits: [RateRule, string][] = [[DEVICE_KEY_RULES.failuresPerEmail, sha256(email).slice(0, 32)]];
    if (request.clientIp) limits.unshift([DEVICE_KEY_RULES.failuresPerIp, request.clientIp]);
    await this.refuseWhenOverLimit(limits);

    const found = await this.lookUp(email, request);
    if (!found) {
      await this.countFailure(limits);
      throw unauthenticated(KEY_REFUSED);
    }
    const { doc, user } = found;
    const now = Date.now();
    if (!doc.last_used_at || now - doc.last_used_at.getTime() >= TOUCH_INTERVAL_MS) {
      // Best effort: a failed write must not refuse a good key.
      await this.store.deviceKeys.touch(doc._id, new Date(now)).catch((error: unknown) => this.logger.warn({ err: error }, 'device key last_used_at not written'));
    }
    return { userId: user._id, email: user.email, admin: user.admin, keyId: doc.key_id };
  }

  private async lookUp(email: string, request: { tenantId: number; secret: string; form: SecretForm }) {
    const secret = (request.secret ?? '').trim();
    if (!email || !secret || secret.length > 256 || !(request.tenantId > 0)) return null;
    const doc =
      request.form === 'kosync-md5'
        ? await this.store.deviceKeys.findByMd5Digest(sha256(secret.toLowerCase()))
        : await this.store.deviceKeys.findByDigest(sha256(secret));
    if (!doc) return null;
    const user = await this.store.users.findById(doc.user_id);
    // A key of another user, or of an erased account whose key outlived it, is refused alike.
    if (!user || user.email !== email) return null;
    if (!(await this.store.memberships.has(user._id, request.tenantId))) return null;
    return { doc, user };
  }

  private async refuseWhenOverLimit(limits: [RateRule, string][]): Promise<void> {
    let decisions;
    try {
      decisions = await Promise.all(limits.map(([rule, key]) => this.limiter.wouldAllow(rule, key)));
    } catch (error) {
      // Fail closed, like code validation: without the limiter keys could be guessed freely.
      this.logger.error({ err: error }, 'rate limiter unavailable');
      throw unavailable('Sign-in is temporarily unavailable. Please try again.');
    }
    const refused = decisions.find((decision) => !decision.allowed);
    if (refused) throw tooManyRequests('Too many failed attempts. Please try again later.', refused.retryAfterSeconds);
  }

  private async countFailure(limits: [RateRule, string][]): Promise<void> {
    await Promise.all(limits.map(([rule, key]) => this.limiter.hit(rule, key))).catch((error: unknown) =>
      this.logger.error({ err: error }, 'device key failure not counted'),
    );
  }
}
