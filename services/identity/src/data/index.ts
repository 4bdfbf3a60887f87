// The identity database behind one object: models registered, indexes built,
// a repository per aggregate, each implementing the domain's store interface
// (domain/repositories.ts). The seed also uses the writes the domain has no use for.
import { ensureIndexes, type Connection } from '@folio/mongo';
import type { IdentityStores } from '../domain/repositories.js';
import { AuditEntryRepository } from './audit-entries.js';
import { DeviceKeyRepository } from './device-keys.js';
import { HelpConfigRepository } from './help-config.js';
import { LoginCodeRepository } from './login-codes.js';
import { MembershipRepository } from './memberships.js';
import { IdentityReadCache } from './read-cache.js';
import { PublisherApiKeyRepository } from './publisher-api-keys.js';
import { PushRegistrationRepository } from './push-registrations.js';
import { RefreshTokenRepository } from './refresh-tokens.js';
import { identityModels } from './schemas.js';
import { SessionRepository } from './sessions.js';
import { SigningKeyRepository } from './signing-keys.js';
import { TenantRepository } from './tenants.js';
import type { UserVersions } from './user-versions.js';
import { UserRepository } from './users.js';

export * from './schemas.js';
export { IdentityReadCache, type IdentityReadCacheSettings } from './read-cache.js';
export type {
  AuditEntryRepository,
  DeviceKeyRepository,
  HelpConfigRepository,
  LoginCodeRepository,
  MembershipRepository,
  PublisherApiKeyRepository,
  PushRegistrationRepository,
  RefreshTokenRepository,
  SessionRepository,
  SigningKeyRepository,
  TenantRepository,
  UserRepository,
};

export interface IdentityStore extends IdentityStores {
  users: UserRepository;
  tenants: TenantRepository;
  memberships: MembershipRepository;
  loginCodes: LoginCodeRepository;
  sessions: SessionRepository;
  refreshTokens: RefreshTokenRepository;
  signingKeys: SigningKeyRepository;
  pushRegistrations: PushRegistrationRepository;
  helpConfig: HelpConfigRepository;
  deviceKeys: DeviceKeyRepository;
  publisherApiKeys: PublisherApiKeyRepository;
  auditEntries: AuditEntryRepository;
}

/** `cache`: the service's read cache for users, memberships and tenants (seeds and tools read the store). */
export async function openIdentityStore(connection: Connection, cache?: IdentityReadCache, versions?: UserVersions): Promise<IdentityStore> {
  const models = identityModels(connection);
  await ensureIndexes(connection);
  const tenants = new TenantRepository(models.tenants, cache);
  return {
    users: new UserRepository(connection, models.users, cache),
    tenants,
    memberships: new MembershipRepository(models.memberships, tenants, cache, versions),
    loginCodes: new LoginCodeRepository(models.loginCodes, models.loginCodeSlots),
    sessions: new SessionRepository(models.sessions),
    refreshTokens: new RefreshTokenRepository(models.refreshTokens),
    signingKeys: new SigningKeyRepository(models.signingKeys),
    pushRegistrations: new PushRegistrationRepository(models.pushRegistrations),
    helpConfig: new HelpConfigRepository(models.helpConfig),
    deviceKeys: new DeviceKeyRepository(models.deviceKeys),
    publisherApiKeys: new PublisherApiKeyRepository(models.publisherApiKeys),
    auditEntries: new AuditEntryRepository(models.auditEntries),
  };
}
