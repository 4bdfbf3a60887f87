// Facebook: the Graph API's /me with the user access token. Facebook only
// returns addresses it has confirmed.
import { getProviderJson, ProviderRefusedError, stringOrNull, type SocialIdentity, type SocialProvider } from './provider.js';

export class FacebookProvider implements SocialProvider {
  readonly name = 'facebook' as const;

  constructor(private readonly settings: { graphUrl: string; timeoutMs: number }) {}

  async identify(token: string): Promise<SocialIdentity> {
    const url = new URL(`${this.settings.graphUrl.replace(/\/+$/, '')}/me`);
    url.searchParams.set('fields', 'id,email');
    url.searchParams.set('access_token', token);
    const body = await getProviderJson(url.toString(), { timeoutMs: this.settings.timeoutMs });
    const subject = stringOrNull(body.id);
    if (!subject) throw new ProviderRefusedError('graph /me without an id');
    const email = stringOrNull(body.email);
    return { subject, email, emailVerified: email !== null };
  }
}
