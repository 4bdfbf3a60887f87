// Publisher API keys: how a publisher's machines (a CMS, a build pipeline)
// call the publisher API without a person's login. A key belongs to one
// tenant, not to the owner who made it (it outlives his account), acts as an
// editor, and is shown once: only its SHA-256 is stored, and that digest is
// the document's `_id`, so checking a key on every publisher request is one
// read by `_id`.
//
// Wrong keys are counted per client address (the device keys' mechanism: the
// address's limit is checked before the lookup, a failure is counted after
// it). Nothing is counted per key or per tenant, so guessing from one place
// never locks a right key used from another out; what stops a guesser spread
// over many addresses is the key's 256 random bits.
import { createHash, randomBytes } from 'node:crypto';
import { DomainError, notFound, permissionDenied, tooManyRequests, unauthenticated, unavailable } from '@folio/errors';
import type { Logger } from '@folio/logger';
import type { RateLimiter, RateRule } from '@folio/rate-limit';
import { invalidFields, nulFieldErrors } from './errors.js';
import type { StaffGrant, StaffRole } from './staff.js';

/** Every key starts with this: the gateway tells a key from an access token by it. */
export const PUBLISHER_API_KEY_PREFIX = 'fpk_';
/** How much of a key is kept in clear to recognise it in a list (`fpk_AbCd`). */
const SHOWN_PREFIX_LENGTH = 8;
const NAME_MAX = 100;
/** Live keys per tenant: a key per integration is a handful; this bounds the list and a runaway script. */
export const MAX_LIVE_KEYS_PER_TENANT = 100;
/** `last_used_at` is written at most this often per key, so authorizing stays a read. */
const TOUCH_INTERVAL_MS = 60_000;
/** Longer than any key we make: a longer bearer is refused without hashing it. */
const KEY_MAX_LENGTH = 128;

export const API_KEY_RULES = {
  /** Wrong keys from one address. */
  failuresPerIp: { name: 'publisher-key-fail-ip', limit: 30, windowSeconds: 600 },
} satisfies Record<string, RateRule>;

export const KEY_REFUSED = 'The API key is not valid.';

export interface PublisherApiKeyRecord {
  /** SHA-256 of the whole key, hex: the lookup. */
  digest: string;
  /** The public id the API lists and revokes by. */
  id: string;
  tenantId: number;
  name: string;
  prefix: string;
  role: StaffRole;
  createdAt: Date;
  createdByUserId: number | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export type PublisherApiKeyView = Omit<PublisherApiKeyRecord, 'digest'>;

/** Where keys are kept (data/publisher-api-keys.ts). */
export interface PublisherApiKeyRepository {
  insert(record: PublisherApiKeyRecord): Promise<void>;
  /** By `_id`: the one read of every request made with a key. */
  findByDigest(digest: string): Promise<PublisherApiKeyRecord | null>;
  /** Newest first, revoked ones included. */
  listOf(tenantId: number): Promise<PublisherApiKeyRecord[]>;
  countLiveOf(tenantId: number): Promise<number>;
  /** Sets `revoked_at` unless already set; the key as it is afterwards, null when no key of the tenant has the id. */
  revoke(tenantId: number, id: string, at: Date): Promise<PublisherApiKeyRecord | null>;
  touch(digest: string, at: Date): Promise<void>;
}

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

const viewOf = ({ digest: _digest, ...view }: PublisherApiKeyRecord): PublisherApiKeyView => view;

export class PublisherApiKeys {
  constructor(
    private readonly keys: PublisherApiKeyRepository,
    private readonly limiter: RateLimiter,
    private readonly logger: Logger,
  ) {}

  async create(request: { tenantId: number; name: string; createdByUserId: number }): Promise<{ view: PublisherApiKeyView; key: string }> {
    const name = (request.name ?? '').trim();
    if (!name) throw invalidFields({ name: ['The name field is required.'] });
    if ([...name].length > NAME_MAX) throw invalidFields({ name: [`The name may not be greater than ${NAME_MAX} characters.`] });
    if (/\p{Cc}/u.test(name)) throw invalidFields({ name: ['The name may not contain control characters.'] });
    if ((await this.keys.countLiveOf(request.tenantId)) >= MAX_LIVE_KEYS_PER_TENANT) {
      throw new DomainError('FAILED_PRECONDITION', `This store already has ${MAX_LIVE_KEYS_PER_TENANT} API keys: revoke one it no longer uses first.`, {
        reason: 'KEY_LIMIT_REACHED',
      });
    }
    const key = `${PUBLISHER_API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const record: PublisherApiKeyRecord = {
      digest: sha256(key),
      id: randomBytes(12).toString('base64url'),
      tenantId: request.tenantId,
      name,
      prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
      role: 'editor',
      createdAt: new Date(),
      createdByUserId: request.createdByUserId > 0 ? request.createdByUserId : null,
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.keys.insert(record);
    return { view: viewOf(record), key };
  }

  async list(tenantId: number): Promise<PublisherApiKeyView[]> {
    return (await this.keys.listOf(tenantId)).map(viewOf);
  }

  /** Idempotent: revoking a revoked key answers it as it is. */
  async revoke(request: { tenantId: number; id: string }): Promise<PublisherApiKeyView> {
    const id = (request.id ?? '').trim();
    const nul = nulFieldErrors({ id });
    if (Object.keys(nul).length) throw invalidFields(nul);
    const revoked = id && id.length <= 64 ? await this.keys.revoke(request.tenantId, id, new Date()) : null;
    if (!revoked) throw notFound('No such API key in this store.');
    return viewOf(revoked);
  }

  /** The key's grant in the tenant: one read by `_id`, and a write at most once a minute. */
  async authorize(request: { tenantId: number; key: string; clientIp: string }): Promise<StaffGrant> {
    // Without an address every such caller shares one counter: the gateway always sends one.
    const ip = request.clientIp || 'unknown';
    await this.refuseOverLimit(ip);
    const key = request.key ?? '';
    const record = key.startsWith(PUBLISHER_API_KEY_PREFIX) && key.length <= KEY_MAX_LENGTH ? await this.keys.findByDigest(sha256(key)) : null;
    if (!record) {
      await this.limiter.hit(API_KEY_RULES.failuresPerIp, ip).catch((error: unknown) => this.logger.error({ err: error }, 'API key failure not counted'));
      throw unauthenticated(KEY_REFUSED);
    }
    // A revoked key is a real key its holder was told to stop using, not a guess: refused, not counted.
    if (record.revokedAt) throw unauthenticated('The API key was revoked.');
    if (record.tenantId !== request.tenantId) throw permissionDenied('This API key belongs to another store.');
    const now = Date.now();
    if (!record.lastUsedAt || now - record.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS) {
      // Best effort: a failed write must not refuse a good key.
      await this.keys.touch(record.digest, new Date(now)).catch((error: unknown) => this.logger.warn({ err: error }, 'API key last_used_at not written'));
    }
    return { role: record.role, actor: `api-key:${record.id}`, apiKeyId: record.id };
  }

  private async refuseOverLimit(ip: string): Promise<void> {
    let decision;
    try {
      decision = await this.limiter.wouldAllow(API_KEY_RULES.failuresPerIp, ip);
    } catch (error) {
      // Fail closed, like device keys: without the limiter keys could be guessed freely.
      this.logger.error({ err: error }, 'rate limiter unavailable');
      throw unavailable('The publisher API is temporarily unavailable. Please try again.');
    }
    if (!decision.allowed) throw tooManyRequests('Too many wrong API keys. Please try again later.', decision.retryAfterSeconds);
  }
}
