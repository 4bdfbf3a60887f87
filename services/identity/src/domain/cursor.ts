// Opaque, tamper-proof pagination cursors of tenant discovery: a
// @folio/signed-cursor holding {o: offset, f: filters digest}. The filters
// digest stops a cursor made for one query from being replayed with another.
import { createHash } from 'node:crypto';
import { SignedCursor } from '@folio/signed-cursor';

export class CursorCodec {
  private readonly cursors: SignedCursor;

  constructor(secret: string) {
    this.cursors = new SignedCursor(secret);
  }

  /** A stable digest of the filters a listing was made with. */
  filtersDigest(filters: Record<string, unknown>): string {
    const canonical = JSON.stringify(
      Object.keys(filters)
        .sort()
        .map((key) => [key, filters[key] ?? null]),
    );
    return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
  }

  encode(offset: number, filtersDigest: string): string {
    return this.cursors.seal({ o: offset, f: filtersDigest });
  }

  /** The offset a cursor points at, or null when it is forged, mangled or made for other filters. */
  decode(cursor: string, filtersDigest: string): number | null {
    const value = this.cursors.open(cursor);
    if (!value || value.f !== filtersDigest) return null;
    if (typeof value.o !== 'number' || !Number.isSafeInteger(value.o) || value.o < 0) return null;
    return value.o;
  }
}
