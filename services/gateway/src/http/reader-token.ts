// The reader-token, verified once per request like the access token: routes
// that declare it (auth `reader-token` or `jwt+reader-token`) get the scope
// it stands for in their context, and nothing else reads the header for
// authentication. The reader service decrypts and checks it
// (VerifyReaderToken: session alive, tenant expected); here the tenant is the
// route's (X-Svc-Tenant-Id in v2, the store Host in v1) and, with a JWT, the
// token must be the signed-in user's. Every refusal is the same 403.
import { permissionDenied } from '@folio/errors';
import type { ReaderScope, Services } from './route.js';

const TOKEN_REFUSED = 'The reader-token is missing, invalid or expired.';

export async function verifyReaderToken(
  services: Services,
  readerToken: string | undefined,
  expectedTenantId: number,
  jwtUserId: number | undefined,
): Promise<ReaderScope> {
  if (!readerToken) throw permissionDenied(TOKEN_REFUSED);
  const { context } = await services.reader.verifyReaderToken({ readerToken, expectedTenantId });
  if (!context || context.tenantId !== expectedTenantId) throw permissionDenied(TOKEN_REFUSED);
  if (jwtUserId !== undefined && context.userId !== jwtUserId) throw permissionDenied(TOKEN_REFUSED);
  return {
    sessionId: context.sessionId,
    tenantId: context.tenantId,
    userId: context.userId,
    issueId: context.issueId,
    preview: context.preview,
    previewLimit: context.previewLimit,
    readerToken,
  };
}
