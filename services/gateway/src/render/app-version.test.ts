import { AppVersion } from '@folio/app-version';
import { describe, expect, it } from 'vitest';
import { libraryFilterKeys } from './app-version.js';

const keysFor = (header: string | undefined) => libraryFilterKeys(AppVersion.parse(header));

describe('libraryFilterKeys', () => {
  it('when versions are compared, then they compare numerically from 1.28.0 on', () => {
    expect(keysFor('1.28.0')).toBe('query-string');
    expect(keysFor('1.28.1')).toBe('query-string');
    expect(keysFor('1.100')).toBe('query-string');
    expect(keysFor('2')).toBe('query-string');
    expect(keysFor('v1.30.0-beta')).toBe('query-string');
    expect(keysFor('1.9.0')).toBe('pair');
    expect(keysFor('1.27.99')).toBe('pair');
    // A pre-release of 1.28.0 is not 1.28.0 or later.
    expect(keysFor('1.28.0-beta')).toBe('pair');
  });

  it('when the version is missing or unreadable, then the client is an old one and gets the pair', () => {
    expect(keysFor(undefined)).toBe('pair');
    expect(keysFor('')).toBe('pair');
    expect(keysFor('garbage')).toBe('pair');
  });
});
