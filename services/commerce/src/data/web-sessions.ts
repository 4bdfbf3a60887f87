// Web sessions on the store, opened by the purchase redirect. Stored under
// the SHA-256 of the cookie value. FerretDB has no TTL indexes: expired
// sessions are refused on read and pruned by the service.
import { createHash } from 'node:crypto';
import type { Model } from 'mongoose';
import type { WebSessionDoc } from './schemas.js';

export const hashSessionId = (sessionId: string) => createHash('sha256').update(sessionId, 'utf8').digest('hex');

export class WebSessionRepository {
  constructor(private readonly model: Model<WebSessionDoc>) {}

  async create(session: WebSessionDoc): Promise<void> {
    await this.model.create(session);
  }

  /** The live session of a cookie value in this tenant's store, or null. */
  async findLive(sessionId: string, tenantId: number, now: Date): Promise<WebSessionDoc | null> {
    if (!sessionId) return null;
    const session = await this.model.findOne({ _id: hashSessionId(sessionId), tenant_id: tenantId }).lean<WebSessionDoc>().exec();
    return session && session.expires_at.getTime() > now.getTime() ? session : null;
  }

  async deleteAllOf(userId: number): Promise<number> {
    return (await this.model.deleteMany({ user_id: userId }).exec()).deletedCount;
  }

  async pruneExpired(now: Date): Promise<number> {
    return (await this.model.deleteMany({ expires_at: { $lte: now } }).exec()).deletedCount;
  }
}
