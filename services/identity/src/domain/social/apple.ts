// Sign in with Apple: the client sends the id token, a JWT verified against
// Apple's published keys (fetched and cached by jose) with pinned issuer and
// audience.
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { ProviderRefusedError, ProviderUnavailableError, stringOrNull, truthy, type SocialIdentity, type SocialProvider } from './provider.js';

/** jose failures that mean "this token is not valid", as opposed to "the keys could not be fetched". */
const REFUSALS = [
  errors.JWTClaimValidationFailed,
  errors.JWTExpired,
  errors.JWTInvalid,
  errors.JWSInvalid,
  errors.JWSSignatureVerificationFailed,
  errors.JWKSNoMatchingKey,
  errors.JWKSMultipleMatchingKeys,
  errors.JOSEAlgNotAllowed,
  errors.JOSENotSupported,
];

export class AppleProvider implements SocialProvider {
  readonly name = 'apple' as const;
  private readonly jwks: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly settings: { jwksUrl: string; issuer: string; audience: string; timeoutMs: number }) {
    this.jwks = createRemoteJWKSet(new URL(settings.jwksUrl), { timeoutDuration: settings.timeoutMs });
  }

  async identify(token: string): Promise<SocialIdentity> {
    try {
      const { payload } = await jwtVerify(token, this.jwks, {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: ['RS256', 'ES256'],
      });
      const subject = stringOrNull(payload.sub);
      if (!subject) throw new ProviderRefusedError('id token without a subject');
      const email = stringOrNull(payload.email);
      // Apple omits email_verified on some relay addresses; only an explicit false means unverified.
      const verified = payload.email_verified === undefined ? true : truthy(payload.email_verified);
      return { subject, email, emailVerified: verified };
    } catch (error) {
      if (error instanceof ProviderRefusedError) throw error;
      if (REFUSALS.some((kind) => error instanceof kind)) throw new ProviderRefusedError((error as Error).message);
      throw new ProviderUnavailableError(`apple keys unavailable: ${(error as Error).message}`);
    }
  }
}
