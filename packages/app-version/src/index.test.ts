import { describe, expect, it } from 'vitest';
import { AppVersion, isAtLeast } from './index.js';

describe('AppVersion', () => {
  it('when versions differ in a part, then they compare numerically', () => {
    expect(isAtLeast('1.9.0', '1.28.0')).toBe(false);
    expect(isAtLeast('1.28.0', '1.28.0')).toBe(true);
    expect(isAtLeast('1.28', '1.28.0')).toBe(true);
    expect(isAtLeast('v2', '1.28.0')).toBe(true);
    expect(isAtLeast('1.28.0.1', '1.28.0')).toBe(true);
  });

  it('when the version is a pre-release, then it is before its release', () => {
    expect(isAtLeast('1.28.0-beta', '1.28.0')).toBe(false);
    expect(isAtLeast('1.28.0-rc.1+build.5', '1.28.0')).toBe(false);
    expect(isAtLeast('1.28.1-beta', '1.28.0')).toBe(true);
    expect(AppVersion.parse('1.28.0-beta')?.preRelease).toBe('beta');
  });

  it('when the header is missing or not a version, then it is an old client', () => {
    expect(isAtLeast(undefined, '1.28.0')).toBe(false);
    expect(isAtLeast('', '1.28.0')).toBe(false);
    expect(isAtLeast('latest', '1.28.0')).toBe(false);
    expect(isAtLeast('1.28.0.0.0', '1.28.0')).toBe(false);
    expect(AppVersion.parse('1.2.x')).toBeUndefined();
  });
});
