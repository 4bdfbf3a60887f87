// Opaque, tamper-proof pagination cursors:
//   base64url(JSON {o: offset, f: filters digest}) "." base64url(HMAC-SHA256(secret, first part))
// The signature stops clients from forging offsets; the filters digest stops
// a cursor made for one query from being replayed with another.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export class CursorCodec {
  constructor(private readonly secret: string) {}

  /** A stable digest of the filters a listing was made with. */
  filtersDigest(filters: Record<string, unknown>): string {
    const canonical = JSON.stringify(Object.keys(filters).sort().map((key) => [key, filters[key] ?? null]));
    return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
  }

  encode(offset: number, filtersDigest: string): string {
    const body = Buffer.from(JSON.stringify({ o: offset, f: filtersDigest })).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The offset a cursor points at, or null when it is forged, mangled or made for other filters. */
  decode(cursor: string, filtersDigest: string): number | null {
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { o?: unknown; f?: unknown };
      if (value.f !== filtersDigest) return null;
      if (typeof value.o !== 'number' || !Number.isSafeInteger(value.o) || value.o < 0) return null;
      return value.o;
    } catch {
      return null;
    }
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}
