import { describe, expect, it } from 'vitest';
import { AppVersion, compareVersions } from './version.js';

describe('app versions', () => {
  it('when versions differ in a multi-digit part, then they compare numerically', () => {
    expect(AppVersion.parse('1.9.0')!.compare('1.28.0')).toBe(-1);
    expect(AppVersion.parse('1.28.0')!.atLeast('1.28.0')).toBe(true);
    expect(AppVersion.parse('1.27.9')!.atLeast('1.28.0')).toBe(false);
    expect(AppVersion.parse('2.0')!.atLeast('1.28.0')).toBe(true);
    expect(AppVersion.parse('10.0.0')!.compare('9.99.99')).toBe(1);
  });

  it('when trailing parts are missing, then they count as zero', () => {
    expect(compareVersions([1, 28], [1, 28, 0])).toBe(0);
    expect(AppVersion.parse('v1.28')!.compare('1.28.0')).toBe(0);
  });

  it('when the header is not a version, then it counts as absent', () => {
    for (const raw of [undefined, '', 'latest', '1..2', '1.2.3-beta', '1.2.3.4.5', '-1.0', '1.0 ']) {
      if (raw === '1.0 ') expect(AppVersion.parse(raw)?.toString()).toBe('1.0');
      else expect(AppVersion.parse(raw)).toBeUndefined();
    }
  });
});
