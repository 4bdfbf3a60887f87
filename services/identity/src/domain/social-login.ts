// Login with a social identity provider: the provider vouches for an e-mail
// address, and from there it is the same as an e-mail login (find or create
// the user and the account in the app's tenant, start a token family).
import { unauthenticated, unavailable } from '@folio/errors';
import type { Logger } from '@folio/logger';
import { badRequest, invalidFields } from './errors.js';
import type { Sessions, TokenPair } from './sessions.js';
import { ProviderRefusedError, ProviderUnavailableError, type SocialProvider, type SocialProviderName } from './social/index.js';
import type { TenantDirectory } from './tenants.js';
import { normalizeEmail, type UserAccounts } from './users.js';

export class SocialLogin {
  private readonly providers: Map<SocialProviderName, SocialProvider>;

  constructor(
    providers: SocialProvider[],
    private readonly deps: { users: UserAccounts; tenants: TenantDirectory; sessions: Sessions; logger: Logger },
  ) {
    this.providers = new Map(providers.map((provider) => [provider.name, provider]));
  }

  async login(request: { provider: SocialProviderName | undefined; accessToken: string; appTenantId: number }): Promise<TokenPair> {
    const provider = request.provider && this.providers.get(request.provider);
    if (!provider) throw badRequest('The selected provider is invalid.');
    if (!request.accessToken) throw invalidFields({ access_token: ['The access token field is required.'] });
    const tenant = await this.deps.tenants.appTenant(request.appTenantId);

    let identity;
    try {
      identity = await provider.identify(request.accessToken);
    } catch (error) {
      if (error instanceof ProviderRefusedError) {
        this.deps.logger.info({ provider: provider.name, reason: error.message }, 'social login refused by the provider');
        throw unauthenticated('Unauthorized.');
      }
      if (error instanceof ProviderUnavailableError) {
        this.deps.logger.warn({ provider: provider.name, reason: error.message }, 'social provider unavailable');
        throw unavailable('The identity provider is not available. Please try again later.');
      }
      throw error;
    }
    if (!identity.email || !identity.emailVerified) {
      throw invalidFields({ email: ['The identity provider did not share a verified e-mail address.'] });
    }
    const user = await this.deps.users.findOrCreateIn(normalizeEmail(identity.email), tenant._id);
    return this.deps.sessions.login(user);
  }
}
