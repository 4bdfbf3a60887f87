// Commerce's access decisions, cached where reader reads them: opening a
// session, the settings, a position save and in-issue search each ask
// whether the user may read the issue, and the answer rarely changes.
//
// Only a "yes" is kept. A "no" turns into a "yes" by a purchase the user
// makes and then at once tries to read; commerce's access.changed would
// arrive a few milliseconds later, so a cached "no" could refuse the book
// just bought. A "yes" turns into a "no" by a revocation or erasure, whose
// access.changed drops it on every replica (events/cache-invalidation.ts); a
// yes with an end date is never served past it; ACCESS_CACHE_TTL_MS bounds
// what a missed event (broker down) can cost.
import { ReferenceCache } from '@folio/messaging';
import type { AccessInfo, Peers } from '../domain/ports.js';

const keyOf = (tenantId: number, userId: number, issueId: number) => `${tenantId}:${userId}:${issueId}`;

export class CachedAccessPeers implements Peers {
  private readonly granted: ReferenceCache<string, AccessInfo>;

  constructor(
    private readonly peers: Peers,
    settings: { ttlMs: number; maxEntries: number; now?: () => number },
  ) {
    this.granted = new ReferenceCache(settings);
    this.now = settings.now ?? Date.now;
  }

  private readonly now: () => number;

  tenant(tenantId: number) {
    return this.peers.tenant(tenantId);
  }

  issue(tenantId: number, issueId: number) {
    return this.peers.issue(tenantId, issueId);
  }

  isFavorite(tenantId: number, userId: number, issueId: number) {
    return this.peers.isFavorite(tenantId, userId, issueId);
  }

  async access(tenantId: number, userId: number, issueId: number): Promise<AccessInfo> {
    const key = keyOf(tenantId, userId, issueId);
    const cached = this.granted.peek(key);
    if (cached && (cached.expiresAt === null || cached.expiresAt.getTime() > this.now())) return cached;
    const generation = this.granted.snapshot();
    const access = await this.peers.access(tenantId, userId, issueId);
    if (access.canRead) this.granted.setIfCurrent(key, access, generation);
    return access;
  }

  /** Drops what a change of access makes stale: one user (in one tenant or all), a whole tenant, or everything. */
  forget(scope: { tenantId?: number; userId?: number } = {}): void {
    const { tenantId, userId } = scope;
    if (tenantId === undefined && userId === undefined) return this.granted.clear();
    this.granted.deleteWhere((key) => {
      const [tenant, user] = key.split(':').map(Number);
      return (tenantId === undefined || tenant === tenantId) && (userId === undefined || user === userId);
    });
  }
}
