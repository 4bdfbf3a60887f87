// Opaque, tamper-proof cursors of my-content:
//   base64url(JSON {d, t, i, u}) "." base64url(HMAC-SHA256(secret, first part))
// A cursor names a position in the listing's order (published_at, id) and a
// direction, not an offset, so pages stay stable while content is added. The
// signature stops clients from forging positions, and the user id stops a
// cursor from being replayed by someone else.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalidArgument } from '@folio/errors';

export interface CursorPosition {
  /** `after`: the page after this position (next); `before`: the page before it (prev). */
  direction: 'after' | 'before';
  publishedAtMs: number;
  issueId: number;
}

export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(position: CursorPosition, userId: number): string {
    const body = Buffer.from(
      JSON.stringify({ d: position.direction === 'after' ? 'a' : 'b', t: position.publishedAtMs, i: position.issueId, u: userId }),
    ).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The position a cursor names; INVALID_ARGUMENT (field `cursor`) when it is forged, mangled or someone else's. */
  decode(cursor: string, userId: number): CursorPosition {
    const invalid = () => invalidArgument('The cursor is invalid.', { cursor: ['The cursor is invalid.'] });
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined) throw invalid();
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    let value: { d?: unknown; t?: unknown; i?: unknown; u?: unknown };
    try {
      value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof value;
    } catch {
      throw invalid();
    }
    if ((value.d !== 'a' && value.d !== 'b') || !Number.isSafeInteger(value.t) || !Number.isSafeInteger(value.i) || value.u !== userId) {
      throw invalid();
    }
    return { direction: value.d === 'a' ? 'after' : 'before', publishedAtMs: value.t as number, issueId: value.i as number };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}
