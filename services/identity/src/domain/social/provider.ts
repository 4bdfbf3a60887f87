// Social identity providers behind one interface: each adapter turns the
// token a client got from its provider into the identity the provider vouches
// for, or says that the provider refused it or could not be reached.

export type SocialProviderName = 'google' | 'facebook' | 'apple';

export interface SocialIdentity {
  subject: string;
  /** Null when the provider did not share an address. */
  email: string | null;
  emailVerified: boolean;
}

export interface SocialProvider {
  readonly name: SocialProviderName;
  identify(token: string): Promise<SocialIdentity>;
}

/** The provider rejected the token (expired, revoked, declined, forged). */
export class ProviderRefusedError extends Error {
  override readonly name = 'ProviderRefusedError';
}

/** The provider could not answer: network failure, timeout, 5xx. */
export class ProviderUnavailableError extends Error {
  override readonly name = 'ProviderUnavailableError';
}

/** GET a provider's JSON endpoint with a timeout; maps failures to the two errors above. */
export async function getProviderJson(url: string, options: { headers?: Record<string, string>; timeoutMs: number }): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json', ...options.headers },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    throw new ProviderUnavailableError(`provider unreachable: ${(error as Error).message}`);
  }
  // 400 is how the Graph API answers an invalid or expired token.
  if (response.status === 400 || response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    throw new ProviderRefusedError(`provider answered ${response.status}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ProviderUnavailableError(`provider answered ${response.status}`);
  }
  try {
    const body = (await response.json()) as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('not an object');
    return body as Record<string, unknown>;
  } catch (error) {
    throw new ProviderUnavailableError(`provider sent an unreadable body: ${(error as Error).message}`);
  }
}

/** Providers spell booleans as booleans or strings ("true"). */
export function truthy(value: unknown): boolean {
  return value === true || value === 'true';
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}
