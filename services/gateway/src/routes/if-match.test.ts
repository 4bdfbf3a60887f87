import { describe, expect, it } from 'vitest';
import { ifMatchOf } from './reader.js';

describe('If-Match of a position save (RFC 9110 13.1.1)', () => {
  it('when there is no header, then the save is unconditional', () => {
    expect(ifMatchOf(undefined)).toBeUndefined();
  });

  it('when the header is *, then any stored position will do', () => {
    expect(ifMatchOf(' * ')).toEqual({ versions: [], any: true });
  });

  it('when strong tags are listed, then each is a version the save may replace; weak ones never match', () => {
    expect(ifMatchOf('"abc"')).toEqual({ versions: ['abc'], any: false });
    expect(ifMatchOf('"a1", W/"weak", "b-2_"')).toEqual({ versions: ['a1', 'b-2_'], any: false });
  });

  it('when the header is malformed or empty, then it names no version, so the save is refused', () => {
    expect(ifMatchOf('not an etag')).toEqual({ versions: [], any: false });
    expect(ifMatchOf('')).toEqual({ versions: [], any: false });
    expect(ifMatchOf(`${'"x",'.repeat(100)}"y"`)?.versions).toHaveLength(16);
  });
});
