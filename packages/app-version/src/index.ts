// App versions from X-AppBase-Version, parsed and compared by one rule in
// every service, so one request never gets two answers.
//
// - `1.28.0`, `1.28`, `v2`: one to four numeric parts, compared numerically
//   part by part (1.9.0 < 1.28.0; a string comparison gets that wrong);
//   missing trailing parts count as 0 (1.28 == 1.28.0).
// - `1.28.0-beta`, `1.28.0-rc.1+build`: a pre-release is before its release,
//   as in Semantic Versioning: 1.28.0-beta is not 1.28.0 or later. Pre-release
//   labels are not ordered among themselves (clients only ever compare with a
//   release threshold).
// - anything else is no version at all (undefined), which callers treat as
//   an old client.
// Not the `semver` package: app versions here have one to four parts.

const VERSION = /^v?(\d{1,9}(?:\.\d{1,9}){0,3})(?:-([0-9A-Za-z.-]{1,64}))?(?:\+[0-9A-Za-z.-]{1,64})?$/i;

export class AppVersion {
  private constructor(
    readonly parts: readonly number[],
    /** The pre-release label (`beta` of `1.28.0-beta`), if any. */
    readonly preRelease: string | undefined,
    readonly text: string,
  ) {}

  static parse(raw: string | undefined): AppVersion | undefined {
    if (raw === undefined) return undefined;
    const text = raw.trim();
    const match = VERSION.exec(text);
    if (!match) return undefined;
    return new AppVersion(match[1]!.split('.').map(Number), match[2], text.replace(/^v/i, ''));
  }

  compare(other: AppVersion | string): number {
    const that = typeof other === 'string' ? AppVersion.parse(other) : other;
    if (!that) throw new Error(`not a version: ${String(other)}`);
    const numeric = compareVersions(this.parts, that.parts);
    if (numeric !== 0) return numeric;
    if (this.preRelease === undefined) return that.preRelease === undefined ? 0 : 1;
    return that.preRelease === undefined ? -1 : 0;
  }

  atLeast(other: AppVersion | string): boolean {
    return this.compare(other) >= 0;
  }

  toString(): string {
    return this.text;
  }
}

/** Whether the raw header names a version at or after `threshold`; a missing or unreadable one is an old client. */
export function isAtLeast(raw: string | undefined, threshold: string): boolean {
  return AppVersion.parse(raw)?.atLeast(threshold) ?? false;
}

/** Numeric parts compared one by one; missing trailing parts count as 0. */
export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff < 0 ? -1 : 1;
  }
  return 0;
}
