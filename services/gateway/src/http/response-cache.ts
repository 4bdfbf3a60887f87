// Per-user response cache: a read a user repeats (the library, the reader
// settings of the book they are in, their notes) is answered from the
// gateway's memory, after every check of the pipeline (limits, token,
// session, tenant, validation, reader-token) but without the upstream calls.
// A cached read costs the gateway's own work only, not the 1-3 services and
// the store behind it.
//
// What keeps an entry true:
//   - The user's version key in Redis (`<prefix>:<user id>`), read in the
//     request's one round trip with the limits and the session. Every change
//     of what a user's reads show sets it to a new value before the change is
//     answered: the gateway after each successful write a user makes through
//     it (a position, a note, a favorite, a session, a kosync push), identity
//     after a membership or account change. An entry is served only under the
//     version it was stored with, so a user's own write shows on the very next
//     request, on every gateway replica.
//   - The owners' events, on every replica (broadcast subscriptions): access
//     changes (a purchase paid in the browser, a grant, a revocation) and
//     tenant updates drop the user's, the tenant's or every entry. Those
//     events reach the services' own caches at about the same moment, so for
//     `settleMs` after one nothing of its scope is stored: an answer computed
//     by a replica that has not heard the event yet must not be kept.
//   - A request that began before a drop never stores its answer.
//   - The TTL bounds the rest: a catalog import that a catalog replica shows
//     within its index refresh, the issue metadata reader keeps 10 s.
// Without Redis (no version) or without the broker (no drops) nothing is
// served from or stored in the cache.
import { randomBytes } from 'node:crypto';
import type { Logger } from '@folio/logger';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

export interface ResponseCacheSettings {
  /** How long an entry is served at most; 0 turns the cache off. */
  ttlMs: number;
  /** Bytes of JSON kept, over all entries (least recently used first out). */
  maxBytes: number;
  /** After an event's drop, how long nothing of its scope is stored. */
  settleMs: number;
  /** Redis key prefix of the users' version keys; identity's USER_VERSION_PREFIX must match. */
  versionPrefix: string;
  /** A user's version key lives this long after its last change. */
  versionTtlMs?: number;
}

/** Whose answer an entry is: the user, their tenant (0 on multi-tenant routes), and the version read for the request. */
export interface CacheScope {
  userId: number;
  tenantId: number;
  /** The version key's value when the request was admitted (null: never set, or expired). */
  version: string | null;
}

/** A cached answer: what the pipeline sends, with its body already serialized. */
export interface CachedReply {
  status: number;
  headers?: Record<string, string>;
  json: Buffer;
  unconditional?: boolean;
}

interface Entry {
  reply: CachedReply;
  version: string | null;
  /** The drop clock when the request that stored it began. */
  clock: number;
}

interface Drop {
  clock: number;
  at: number;
}

const ALL = '*';
const userScope = (userId: number) => `u:${userId}`;
const tenantScope = (tenantId: number) => `t:${tenantId}`;
/** Multi-tenant answers (/user, global search, my-content) hold every tenant's data: a tenant drop drops them too. */
export const ANY_TENANT = 0;

export class ResponseCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly drops = new Map<string, Drop>();
  private clock = 0;
  // Versions only need to differ from every earlier one: a process prefix and a counter.
  private readonly versionPrefix = randomBytes(6).toString('base64url');
  private versionCount = 0;

  constructor(
    private readonly settings: ResponseCacheSettings,
    private readonly redis: Redis,
    /** Whether the drops can arrive (the broker is connected and subscribed). */
    private readonly dropsArrive: () => boolean,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LRUCache<string, Entry>({
      maxSize: Math.max(1, settings.maxBytes),
      sizeCalculation: (entry, key) => entry.reply.json.length + key.length + 200,
      ttl: Math.max(1, settings.ttlMs),
      ttlAutopurge: false,
      perf: { now: () => this.now() },
    });
  }

  /** Whether requests may use the cache now. */
  get enabled(): boolean {
    return this.settings.ttlMs > 0 && this.dropsArrive();
  }

  versionKeyOf(userId: number): string {
    return `${this.settings.versionPrefix}:${userId}`;
  }

  /** Taken when a request begins: its answer is stored only if nothing of its scope was dropped after. */
  ticket(): number {
    return this.clock;
  }

  lookup(key: string, scope: CacheScope): CachedReply | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // The key names the user and the tenant; the version and the drops say whether it is still true.
    if (entry.version !== scope.version || this.droppedSince(entry.clock, scope)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.reply;
  }

  /** Keeps an answer unless its scope changed while it was computed, or is settling after an event. */
  store(key: string, scope: CacheScope, ticket: number, reply: CachedReply): void {
    if (!this.enabled || this.droppedSince(ticket, scope) || this.settling(scope)) return;
    this.entries.set(key, { reply, version: scope.version, clock: ticket });
  }

  /**
   * An owner's event: drops the user's entries, the tenant's (and every
   * multi-tenant one), or all of them, and stores nothing of that scope for
   * `settleMs`.
   */
  forget(scope: { userId?: number; tenantId?: number } = {}): void {
    const drop = { clock: ++this.clock, at: this.now() };
    if (scope.userId !== undefined) this.drops.set(userScope(scope.userId), drop);
    else if (scope.tenantId !== undefined) {
      this.drops.set(tenantScope(scope.tenantId), drop);
      this.drops.set(tenantScope(ANY_TENANT), drop);
    } else {
      this.drops.set(ALL, drop);
      this.entries.clear();
    }
    this.forgetOldDrops(drop.at);
  }

  /**
   * A user changed something their reads show: a new version in Redis,
   * before the change is answered. When Redis does not take it, this
   * replica's entries of the user go at once; the others' expire within the TTL.
   */
  async changed(userId: number): Promise<void> {
    if (this.settings.ttlMs === 0) return;
    const version = `${this.versionPrefix}.${(++this.versionCount).toString(36)}`;
    try {
      await this.redis.set(this.versionKeyOf(userId), version, 'PX', this.settings.versionTtlMs ?? 86_400_000);
    } catch (error) {
      this.logger.warn({ err: error, user_id: userId }, 'user version not written; other gateway replicas may answer from their cache until its TTL');
      const drop = { clock: ++this.clock, at: this.now() - this.settings.settleMs };
      this.drops.set(userScope(userId), drop);
      this.forgetOldDrops(this.now());
    }
  }

  private droppedSince(clock: number, scope: CacheScope): boolean {
    return (
      (this.drops.get(userScope(scope.userId))?.clock ?? 0) > clock ||
      (this.drops.get(tenantScope(scope.tenantId))?.clock ?? 0) > clock ||
      (this.drops.get(ALL)?.clock ?? 0) > clock
    );
  }

  private settling(scope: CacheScope): boolean {
    const since = this.now() - this.settings.settleMs;
    return (
      (this.drops.get(userScope(scope.userId))?.at ?? -Infinity) > since ||
      (this.drops.get(tenantScope(scope.tenantId))?.at ?? -Infinity) > since ||
      (this.drops.get(ALL)?.at ?? -Infinity) > since
    );
  }

  /** A drop older than the TTL and the settling cannot matter: every entry stored before it has expired. */
  private forgetOldDrops(now: number): void {
    const horizon = now - this.settings.ttlMs - this.settings.settleMs;
    for (const [scope, drop] of this.drops) if (drop.at < horizon) this.drops.delete(scope);
  }
}
