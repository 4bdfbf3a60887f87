// Reader-tokens and settings tokens: compact JWE, `dir` + `A256GCM`, under
// READER_TOKEN_KEY (only reader can read or make them; notes and integrations
// ask VerifyReaderToken). Claims: `pur` (purpose: `reader` | `settings`, so
// one kind can never pass for the other), `sid` session id, `tid` tenant,
// `uid` user, `iid` issue, `pv` preview, `pl` preview page limit, `iss`,
// `iat`, `exp`. Any failure (corrupt, expired, other key, other purpose) is
// one PERMISSION_DENIED with one message: a client learns nothing from it.
import { EncryptJWT, jwtDecrypt } from 'jose';
import { permissionDenied } from '@folio/errors';

const ISSUER = 'folio-reader';
const INVALID = 'The reader token is missing, invalid or expired.';

export interface ReaderClaims {
  sessionId: number;
  tenantId: number;
  userId: number;
  issueId: number;
  preview: boolean;
  /** Preview sessions: the last page (PDF) or chapter (EPUB) they may read or search. */
  previewLimit: number | null;
  expiresAt: Date;
}

export interface SettingsClaims {
  tenantId: number;
  userId: number;
  issueId: number;
  preview: boolean;
  /** A session the settings were asked for with a reader-token: the exchange reuses it. */
  resumeSessionId: number | null;
}

export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    keyBase64: string,
    private readonly readerTtlSeconds: number,
    private readonly settingsTtlSeconds: number,
  ) {
    this.key = new Uint8Array(Buffer.from(keyBase64, 'base64'));
    if (this.key.length !== 32) throw new Error('READER_TOKEN_KEY must be 32 bytes');
  }

  readerTokenExpiry(now = new Date()): Date {
    return new Date(Math.floor(now.getTime() / 1000) * 1000 + this.readerTtlSeconds * 1000);
  }

  async issueReaderToken(claims: Omit<ReaderClaims, 'expiresAt'>, expiresAt: Date): Promise<string> {
    return this.encrypt(
      { pur: 'reader', sid: claims.sessionId, tid: claims.tenantId, uid: claims.userId, iid: claims.issueId, pv: claims.preview, pl: claims.previewLimit },
      expiresAt,
    );
  }

  async verifyReaderToken(token: string | undefined | null): Promise<ReaderClaims> {
    const payload = await this.decrypt(token, 'reader');
    const ints = ['sid', 'tid', 'uid', 'iid'].map((name) => payload[name]);
    if (!ints.every((value) => Number.isInteger(value) && (value as number) > 0)) throw permissionDenied(INVALID);
    const [sessionId, tenantId, userId, issueId] = ints as number[];
    return {
      sessionId: sessionId!,
      tenantId: tenantId!,
      userId: userId!,
      issueId: issueId!,
      preview: payload.pv === true,
      previewLimit: Number.isInteger(payload.pl) ? (payload.pl as number) : null,
      expiresAt: new Date((payload.exp as number) * 1000),
    };
  }

  async issueSettingsToken(claims: SettingsClaims, now = new Date()): Promise<string> {
    return this.encrypt(
      { pur: 'settings', tid: claims.tenantId, uid: claims.userId, iid: claims.issueId, pv: claims.preview, sid: claims.resumeSessionId },
      new Date(now.getTime() + this.settingsTtlSeconds * 1000),
    );
  }

  async verifySettingsToken(token: string | undefined | null): Promise<SettingsClaims> {
    const payload = await this.decrypt(token, 'settings');
    const ints = ['tid', 'uid', 'iid'].map((name) => payload[name]);
    if (!ints.every((value) => Number.isInteger(value) && (value as number) > 0)) throw permissionDenied(INVALID);
    return {
      tenantId: ints[0] as number,
      userId: ints[1] as number,
      issueId: ints[2] as number,
      preview: payload.pv === true,
      resumeSessionId: Number.isInteger(payload.sid) ? (payload.sid as number) : null,
    };
  }

  private encrypt(claims: Record<string, unknown>, expiresAt: Date): Promise<string> {
    return new EncryptJWT(claims)
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .encrypt(this.key);
  }

  private async decrypt(token: string | undefined | null, purpose: 'reader' | 'settings'): Promise<Record<string, unknown>> {
    if (!token || token.length > 4096 || !isCanonicalCompact(token)) throw permissionDenied(INVALID);
    try {
      const { payload } = await jwtDecrypt(token, this.key, {
        issuer: ISSUER,
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
        requiredClaims: ['exp', 'pur'],
      });
      if (payload.pur !== purpose) throw new Error('wrong purpose');
      return payload as Record<string, unknown>;
    } catch {
      throw permissionDenied(INVALID);
    }
  }
}

/**
 * A token has one spelling. base64url's last character of a part may carry
 * unused bits, so two strings can decode to the same bytes; only the one we
 * issued (all unused bits zero, as every encoder writes) is accepted.
 */
function isCanonicalCompact(token: string): boolean {
  return token.split('.').every((part) => Buffer.from(part, 'base64url').toString('base64url') === part);
}
