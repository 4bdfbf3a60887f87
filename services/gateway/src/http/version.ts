// App versions from X-AppBase-Version, compared numerically part by part
// (1.9.0 < 1.28.0; a string comparison gets that wrong).

export class AppVersion {
  private constructor(
    readonly parts: readonly number[],
    readonly text: string,
  ) {}

  /** `1.28.0`, `1.28`, `v2`: up to four numeric parts; anything else is no version. */
  static parse(raw: string | undefined): AppVersion | undefined {
    if (raw === undefined) return undefined;
    const text = raw.trim().replace(/^v/i, '');
    if (!/^\d{1,9}(\.\d{1,9}){0,3}$/.test(text)) return undefined;
    return new AppVersion(text.split('.').map(Number), text);
  }

  compare(other: AppVersion | string): number {
    const that = typeof other === 'string' ? AppVersion.parse(other) : other;
    if (!that) throw new Error(`not a version: ${String(other)}`);
    return compareVersions(this.parts, that.parts);
  }

  atLeast(other: AppVersion | string): boolean {
    return this.compare(other) >= 0;
  }

  toString(): string {
    return this.text;
  }
}

/** Missing trailing parts count as 0: 1.28 == 1.28.0. */
export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff < 0 ? -1 : 1;
  }
  return 0;
}
