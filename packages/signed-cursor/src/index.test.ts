import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SignedCursor } from './index.js';

describe('SignedCursor', () => {
  const cursors = new SignedCursor('secret');

  it('when a sealed cursor is opened with the same secret, then the payload comes back', () => {
    expect(cursors.open(cursors.seal({ o: 40, f: 'abc' }))).toEqual({ o: 40, f: 'abc' });
  });

  it('when a cursor is forged, mangled or sealed with another secret, then it opens to null', () => {
    const cursor = cursors.seal({ o: 40 });
    const [body, signature] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ o: 0 })).toString('base64url')}.${signature}`;
    expect(cursors.open(forged)).toBeNull();
    expect(cursors.open(`${body}.${signature}.x`)).toBeNull();
    expect(cursors.open(body!)).toBeNull();
    expect(cursors.open('')).toBeNull();
    expect(new SignedCursor('other').open(cursor)).toBeNull();
  });

  it('when the signed body is not a JSON object, then it opens to null', () => {
    const body = Buffer.from('[1]').toString('base64url');
    const signature = createHmac('sha256', 'secret').update(body).digest('base64url');
    expect(cursors.open(`${body}.${signature}`)).toBeNull();
  });
});
