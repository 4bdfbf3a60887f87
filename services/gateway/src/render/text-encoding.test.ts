import { integrations } from '@folio/proto';
import { describe, expect, it } from 'vitest';
import { manifestEncrypts, textEncodingOf } from './text-encoding.js';

const { TEXT_ENCODING_ENCRYPTED: ENCRYPTED, TEXT_ENCODING_PLAINTEXT: PLAINTEXT } = integrations.TextEncoding;

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

describe('textEncodingOf', () => {
  it('when the call is v2, then the text is encrypted whatever the manifest', () => {
    expect(textEncodingOf('v2', undefined)).toBe(ENCRYPTED);
    expect(textEncodingOf('v2', '1.0.0')).toBe(ENCRYPTED);
  });

  it('when the call is v1, then the manifest version decides, and no manifest means plaintext', () => {
    expect(textEncodingOf('v1', '2.0.0')).toBe(ENCRYPTED);
    expect(textEncodingOf('v1', '1.12.3')).toBe(PLAINTEXT);
    expect(textEncodingOf('v1', undefined)).toBe(PLAINTEXT);
  });
});
