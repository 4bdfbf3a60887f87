// Opaque, tamper-proof cursors of my-content: a @folio/signed-cursor holding
// {d: direction, t: published_at ms, i: issue id, u: user id}.
// A cursor names a position in the listing's order (published_at, id) and a
// direction, not an offset, so pages stay stable while content is added. The
// signature stops clients from forging positions, and the user id stops a
// cursor from being replayed by someone else.
import { invalidArgument } from '@folio/errors';
import { SignedCursor } from '@folio/signed-cursor';

export interface CursorPosition {
  /** `after`: the page after this position (next); `before`: the page before it (prev). */
  direction: 'after' | 'before';
  publishedAtMs: number;
  issueId: number;
}

export class CursorCodec {
  private readonly cursors: SignedCursor;

  constructor(secret: string) {
    this.cursors = new SignedCursor(secret);
  }

  encode(position: CursorPosition, userId: number): string {
    return this.cursors.seal({ d: position.direction === 'after' ? 'a' : 'b', t: position.publishedAtMs, i: position.issueId, u: userId });
  }

  /** The position a cursor names; INVALID_ARGUMENT (field `cursor`) when it is forged, mangled or someone else's. */
  decode(cursor: string, userId: number): CursorPosition {
    const invalid = () => invalidArgument('The cursor is invalid.', { cursor: ['The cursor is invalid.'] });
    const value = this.cursors.open(cursor);
    if (!value) throw invalid();
    if ((value.d !== 'a' && value.d !== 'b') || !Number.isSafeInteger(value.t) || !Number.isSafeInteger(value.i) || value.u !== userId) {
      throw invalid();
    }
    return { direction: value.d === 'a' ? 'after' : 'before', publishedAtMs: value.t as number, issueId: value.i as number };
  }
}
