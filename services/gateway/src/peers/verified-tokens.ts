// Tokens already verified, so that a client sending the same token on every
// request pays for one ES256 verification, not one per request. Bounded (the
// least recently used entry goes first) and each entry dies when its token
// expires, so the cache never accepts what jose would now refuse. Keys are
// the whole token: a malleated or altered token is another key and goes
// through the full verification.

export class VerifiedTokenCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAtMs: number }>();

  constructor(private readonly maxEntries: number) {}

  get(token: string, nowMs = Date.now()): T | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    this.entries.delete(token);
    if (entry.expiresAtMs <= nowMs) return undefined;
    // Re-inserted: Map keeps insertion order, so the first key is the least recently used.
    this.entries.set(token, entry);
    return entry.value;
  }

  set(token: string, value: T, expiresAtMs: number): void {
    if (this.maxEntries <= 0) return;
    this.entries.delete(token);
    this.entries.set(token, { value, expiresAtMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}
