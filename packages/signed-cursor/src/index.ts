// Opaque, tamper-proof cursors for paged listings, one format for every
// service:
//   base64url(JSON payload) "." base64url(HMAC-SHA256(secret, first part))
// The signature stops clients from forging positions; what the payload holds
// (a position, an offset, the user or the filters it was made for, so it
// cannot be replayed elsewhere) is the caller's, which checks its shape.
import { createHmac, timingSafeEqual } from 'node:crypto';

export class SignedCursor {
  constructor(private readonly secret: string) {
    if (!secret) throw new Error('SignedCursor needs a secret');
  }

  seal(payload: Record<string, unknown>): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The payload of a cursor this secret sealed; null when it is forged, mangled or not an object. */
  open(cursor: string): Record<string, unknown> | null {
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const value: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}
