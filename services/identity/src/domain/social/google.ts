// Google: the OpenID Connect userinfo endpoint, called with the access token.
import { getProviderJson, ProviderRefusedError, stringOrNull, truthy, type SocialIdentity, type SocialProvider } from './provider.js';

export class GoogleProvider implements SocialProvider {
  readonly name = 'google' as const;

  constructor(private readonly settings: { userinfoUrl: string; timeoutMs: number }) {}

  async identify(token: string): Promise<SocialIdentity> {
    const body = await getProviderJson(this.settings.userinfoUrl, {
      headers: { authorization: `Bearer ${token}` },
      timeoutMs: this.settings.timeoutMs,
    });
    const subject = stringOrNull(body.sub);
    if (!subject) throw new ProviderRefusedError('userinfo without a subject');
    return { subject, email: stringOrNull(body.email), emailVerified: truthy(body.email_verified) };
  }
}
