import { describe, expect, it } from 'vitest';
import { CursorCodec } from './cursor.js';

describe('my-content cursors', () => {
  const codec = new CursorCodec('secret');
  const position = { direction: 'after' as const, publishedAtMs: 1_700_000_000_000, issueId: 1001 };

  it('when a cursor is decoded by the same user, then it gives the position back', () => {
    expect(codec.decode(codec.encode(position, 7), 7)).toEqual(position);
  });

  it('when a cursor is signed with another secret, altered or used by another user, then it is refused', () => {
    const cursor = codec.encode(position, 7);
    expect(() => new CursorCodec('other').decode(cursor, 7)).toThrow('The cursor is invalid.');
    expect(() => codec.decode(cursor, 8)).toThrow('The cursor is invalid.');
    expect(() => codec.decode(`x${cursor}`, 7)).toThrow('The cursor is invalid.');
    expect(() => codec.decode('', 7)).toThrow('The cursor is invalid.');
  });
});
