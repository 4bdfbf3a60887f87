// The identity database behind one object: models registered, indexes built,
// a repository per aggregate, each implementing the domain's repository interface
// (domain/repositories.ts). The seed also uses the writes the domain has no use for.
import { ensureIndexes, type Connection } from '@folio/mongo';
import type { IdentityRepositories } from '../domain/repositories.js';
import { MongoAuditEntryRepository } from './audit-entries.js';
import { MongoDeviceKeyRepository } from './device-keys.js';
import { MongoHelpConfigRepository } from './help-config.js';
import { MongoLoginCodeRepository } from './login-codes.js';
import { MongoMembershipRepository } from './memberships.js';
import { IdentityReadCache } from './read-cache.js';
import { MongoPublisherApiKeyRepository } from './publisher-api-keys.js';
import { MongoPushRegistrationRepository } from './push-registrations.js';
import { MongoRefreshTokenRepository } from './refresh-tokens.js';
import { identityModels } from './schemas.js';
import { MongoSessionRepository } from './sessions.js';
import { MongoSigningKeyRepository } from './signing-keys.js';
import { MongoTenantRepository } from './tenants.js';
import type { UserVersions } from './user-versions.js';
import { MongoUserRepository } from './users.js';

export * from './schemas.js';
export { IdentityReadCache, type IdentityReadCacheSettings } from './read-cache.js';
export type {
  MongoAuditEntryRepository,
  MongoDeviceKeyRepository,
  MongoHelpConfigRepository,
  MongoLoginCodeRepository,
  MongoMembershipRepository,
  MongoPublisherApiKeyRepository,
  MongoPushRegistrationRepository,
  MongoRefreshTokenRepository,
  MongoSessionRepository,
  MongoSigningKeyRepository,
  MongoTenantRepository,
  MongoUserRepository,
};

export interface MongoIdentityRepositories extends IdentityRepositories {
  users: MongoUserRepository;
  tenants: MongoTenantRepository;
  memberships: MongoMembershipRepository;
  loginCodes: MongoLoginCodeRepository;
  sessions: MongoSessionRepository;
  refreshTokens: MongoRefreshTokenRepository;
  signingKeys: MongoSigningKeyRepository;
  pushRegistrations: MongoPushRegistrationRepository;
  helpConfig: MongoHelpConfigRepository;
  deviceKeys: MongoDeviceKeyRepository;
  publisherApiKeys: MongoPublisherApiKeyRepository;
  auditEntries: MongoAuditEntryRepository;
}

/** `cache`: the service's read cache for users, memberships and tenants (seeds and tools read the store). */
export async function openIdentityRepositories(connection: Connection, cache?: IdentityReadCache, versions?: UserVersions): Promise<MongoIdentityRepositories> {
  const models = identityModels(connection);
  await ensureIndexes(connection);
  const tenants = new MongoTenantRepository(models.tenants, cache);
  return {
    users: new MongoUserRepository(connection, models.users, cache),
    tenants,
    memberships: new MongoMembershipRepository(models.memberships, tenants, cache, versions),
    loginCodes: new MongoLoginCodeRepository(models.loginCodes, models.loginCodeSlots),
    sessions: new MongoSessionRepository(models.sessions),
    refreshTokens: new MongoRefreshTokenRepository(models.refreshTokens),
    signingKeys: new MongoSigningKeyRepository(models.signingKeys),
    pushRegistrations: new MongoPushRegistrationRepository(models.pushRegistrations),
    helpConfig: new MongoHelpConfigRepository(models.helpConfig),
    deviceKeys: new MongoDeviceKeyRepository(models.deviceKeys),
    publisherApiKeys: new MongoPublisherApiKeyRepository(models.publisherApiKeys),
    auditEntries: new MongoAuditEntryRepository(models.auditEntries),
  };
}
