// The reader-token, verified once per request like the access token: routes
// that declare it (auth `reader-token` or `jwt+reader-token`) get the scope
// it stands for in their context, and nothing else reads the header for
// authentication. Only reader can decrypt a token (VerifyReaderToken: token
// valid, session alive, tenant expected); here the tenant is the route's
// (X-Svc-Tenant-Id in v2, the store Host in v1) and, with a JWT, the token
// must be the signed-in user's. Every refusal is the same 403.
//
// A token reader verified once is remembered here (its scope and expiry),
// and taken again without asking while its session is live: the session's
// liveness key, which reader writes (services/reader/src/data/session-liveness.ts
// describes the format), is read in the request's one Redis round trip
// (request-gate.ts). `<user id>`: live, so the remembered scope holds; `-`:
// the session ended (v1 DELETE, account erasure), refused on the very next
// request through any replica; absent or unreadable: reader is asked, and
// writes the key again.
import { permissionDenied } from '@folio/errors';
import { VerifiedTokenCache } from '../peers/verified-tokens.js';
import type { ReaderScope, Services } from './route.js';

const TOKEN_REFUSED = 'The reader-token is missing, invalid or expired.';
const ENDED = '-';

type VerifiedScope = Omit<ReaderScope, 'readerToken'>;

export class ReaderTokenVerifier {
  private readonly verified: VerifiedTokenCache<VerifiedScope>;

  constructor(
    private readonly reader: Services['reader'],
    private readonly settings: { livenessPrefix: string; cacheSize: number },
  ) {
    this.verified = new VerifiedTokenCache(settings.cacheSize);
  }

  /** A token reader verified before and that has not expired: what the admission reads for it, and whose it is. */
  known(readerToken: string): { livenessKey: string; userId: number } | undefined {
    const scope = this.verified.get(readerToken);
    return scope && { livenessKey: `${this.settings.livenessPrefix}:${scope.sessionId}`, userId: scope.userId };
  }

  /**
   * The token's scope, for the route's tenant (and JWT user). `liveness` is
   * the value the admission read for `known(readerToken).livenessKey`: null
   * when absent, undefined when not read.
   */
  async verify(
    readerToken: string | undefined,
    expectedTenantId: number,
    jwtUserId: number | undefined,
    liveness: string | null | undefined,
  ): Promise<ReaderScope> {
    if (!readerToken) throw permissionDenied(TOKEN_REFUSED);
    const remembered = this.verified.get(readerToken);
    if (remembered && liveness === ENDED) throw permissionDenied(TOKEN_REFUSED);
    // Live for the remembered user: taken as verified. Anything else: reader decides (and a verified token is remembered again).
    const scope = remembered && liveness === String(remembered.userId) ? remembered : await this.ask(readerToken, expectedTenantId);
    if (scope.tenantId !== expectedTenantId) throw permissionDenied(TOKEN_REFUSED);
    if (jwtUserId !== undefined && scope.userId !== jwtUserId) throw permissionDenied(TOKEN_REFUSED);
    return { ...scope, readerToken };
  }

  private async ask(readerToken: string, expectedTenantId: number): Promise<VerifiedScope> {
    const { context } = await this.reader.verifyReaderToken({ readerToken, expectedTenantId });
    if (!context) throw permissionDenied(TOKEN_REFUSED);
    const scope: VerifiedScope = {
      sessionId: context.sessionId,
      tenantId: context.tenantId,
      userId: context.userId,
      issueId: context.issueId,
      preview: context.preview,
      previewLimit: context.previewLimit,
      expiresAt: context.expiresAt ?? 0,
    };
    // Until the token expires (a reader that predates expires_at sends none: never remembered).
    this.verified.set(readerToken, scope, scope.expiresAt * 1000);
    return scope;
  }
}
