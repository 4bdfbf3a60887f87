import { describe, expect, it } from 'vitest';
import { charCount } from './text-input.js';

describe('charCount', () => {
  it('when the text has astral characters, then each counts once', () => {
    expect(charCount('a😀b')).toBe(3);
  });
});
