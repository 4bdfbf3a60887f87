import { integrations } from '@folio/proto';
import { describe, expect, it } from 'vitest';
import { legacyTextEncrypted, manifestEncrypts } from './legacy-text-encoding.js';

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

describe('legacyTextEncrypted', () => {
  const { API_VERSION_UNSPECIFIED, API_VERSION_V1, API_VERSION_V2 } = integrations.ApiVersion;

  it('when the call is v2 or says no version, then the text is encrypted whatever the manifest', () => {
    expect(legacyTextEncrypted({ apiVersion: API_VERSION_V2, manifestVersion: '1.0.0' })).toBe(true);
    expect(legacyTextEncrypted({ apiVersion: API_VERSION_UNSPECIFIED, manifestVersion: undefined })).toBe(true);
  });

  it('when the call is v1, then the manifest version decides', () => {
    expect(legacyTextEncrypted({ apiVersion: API_VERSION_V1, manifestVersion: '1.9.9' })).toBe(false);
    expect(legacyTextEncrypted({ apiVersion: API_VERSION_V1, manifestVersion: '2.0.0' })).toBe(true);
  });
});
