import { describe, expect, it } from 'vitest';
import { charCount, manifestEncrypts } from './text-input.js';

describe('manifestEncrypts', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['garbage', false],
    ['1.9.9', false],
    ['1.99.99', false],
    ['2.0.0', true],
    ['2', true],
    ['2.0', true],
    ['2.0.1', true],
    ['2.10.0', true],
    ['10.0.0', true],
    ['v2.1.0', true],
    ['2.0.0-beta.3', true],
    [' 3.1.4 ', true],
  ])('when the manifest version is %j, then encrypted is %s (numeric, not string, comparison)', (version, expected) => {
    expect(manifestEncrypts(version)).toBe(expected);
  });
});

describe('charCount', () => {
  it('when the text has astral characters, then each counts once', () => {
    expect(charCount('a😀b')).toBe(3);
  });
});
