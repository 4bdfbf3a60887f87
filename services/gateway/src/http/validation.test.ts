import { describe, expect, it } from 'vitest';
import { rejectNulCharacters, type FieldErrors } from './validation.js';

describe('rejectNulCharacters', () => {
  it('when a nested field, an array item or a key has a NUL, then each is named as sent', () => {
    const errors: FieldErrors = {};
    rejectNulCharacters({ text: 'a\u0000b', settings: { theme: '\u0000' }, tags: ['ok', 'x\u0000'], 'k\u0000': 1 }, errors, 'body');
    expect(errors).toEqual({
      text: ['The text field must not contain NUL characters.'],
      'settings.theme': ['The settings.theme field must not contain NUL characters.'],
      'tags.1': ['The tags.1 field must not contain NUL characters.'],
      'k\u0000': ['The k\u0000 field must not contain NUL characters.'],
    });
  });

  it('when the text has no NUL, then nothing is reported, other control characters included', () => {
    const errors: FieldErrors = {};
    rejectNulCharacters({ text: 'tab\there\nnew line', n: 1, none: null, deep: [[[{ a: 'b' }]]] }, errors, 'body');
    expect(errors).toEqual({});
  });

  it('when the whole part is a string with a NUL, then the part is named', () => {
    const errors: FieldErrors = {};
    rejectNulCharacters('\u0000', errors, 'body');
    expect(Object.keys(errors)).toEqual(['body']);
  });
});
