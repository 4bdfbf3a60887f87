// Content URLs handed to clients. Paid content is signed: `?exp=<unix seconds>&sig=<HMAC>`,
// where the HMAC-SHA256 (MEDIA_SIGNING_KEY) covers the storage key and the expiry, so a
// URL cannot be re-pointed at another file or kept alive longer. Covers are public.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Files anyone may fetch without a signature. */
const PUBLIC_FILES = new Set(['cover.svg', 'thumbnail.svg']);

export function isPublicKey(key: string): boolean {
  // `<tenant>/<issue>/<file>`, or an uploaded version's `<tenant>/<issue>/v/<version>/<file>`.
  const parts = key.split('/');
  return (parts.length === 3 || (parts.length === 5 && parts[2] === 'v')) && PUBLIC_FILES.has(parts.at(-1)!);
}

export class MediaUrls {
  private readonly base: string;

  constructor(
    publicBaseUrl: string,
    private readonly signingKey: string,
    private readonly ttlSeconds: number,
  ) {
    this.base = publicBaseUrl.replace(/\/+$/, '');
  }

  /** A URL of a public file (covers). */
  public(key: string): string {
    return `${this.base}/${encodeKey(key)}`;
  }

  /**
   * A signed URL that expires after the configured lifetime, or earlier at
   * `notAfter` (the end of the user's access grant).
   */
  signed(key: string, options: { now?: Date; notAfter?: Date | null } = {}): string {
    const expiresAt = this.expiryOf(options.now ?? new Date(), options.notAfter ?? null);
    return `${this.base}/${encodeKey(key)}?exp=${expiresAt}&sig=${this.signature(key, expiresAt)}`;
  }

  /**
   * A signed base URL for the files inside an EPUB package:
   * `<base>/<epub key>/~<exp>~<sig>/` followed by a path relative to the
   * package document. The signature covers `<epub key>/*`, so one capability
   * serves every chapter, style sheet and image, and the relative links
   * inside chapters resolve under it.
   */
  signedPackagePrefix(epubKey: string, options: { now?: Date; notAfter?: Date | null } = {}): string {
    const expiresAt = this.expiryOf(options.now ?? new Date(), options.notAfter ?? null);
    return `${this.base}/${encodeKey(epubKey)}/~${expiresAt}~${this.signature(packageScope(epubKey), expiresAt)}/`;
  }

  /** Unix seconds a URL signed now would expire at. */
  expiryOf(now: Date, notAfter: Date | null): number {
    let expiresAt = Math.floor(now.getTime() / 1000) + this.ttlSeconds;
    if (notAfter) expiresAt = Math.min(expiresAt, Math.floor(notAfter.getTime() / 1000));
    return expiresAt;
  }

  signature(key: string, expiresAt: number): string {
    return createHmac('sha256', this.signingKey).update(`${key}\n${expiresAt}`).digest('base64url');
  }

  /** 'ok', or why the signature of a request for `key` is refused. */
  verify(key: string, exp: string | null, sig: string | null, now = new Date()): 'ok' | 'missing' | 'expired' | 'invalid' {
    if (!exp || !sig) return 'missing';
    if (!/^\d{1,12}$/.test(exp)) return 'invalid';
    const expected = Buffer.from(this.signature(key, Number(exp)));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    if (Number(exp) < Math.floor(now.getTime() / 1000)) return 'expired';
    return 'ok';
  }
}

/** What a package capability signs: every file inside the EPUB at `epubKey`. */
export function packageScope(epubKey: string): string {
  return `${epubKey}/*`;
}

/** A package capability path segment: `~<exp>~<sig>`. */
export const PACKAGE_CAPABILITY = /^~(\d{1,12})~([A-Za-z0-9_-]{43})$/;

function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
