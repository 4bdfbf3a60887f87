// gRPC entry point of identity: decode the request, call a use case, encode
// the reply. No rules live here.
import type { ServiceHandlers } from '@folio/grpc';
import { identity } from '@folio/proto';
import type { AuditLog } from '../domain/audit-log.js';
import type { DeviceKeys } from '../domain/device-keys.js';
import type { TenantDiscovery } from '../domain/discovery.js';
import type { EmailLogin } from '../domain/email-login.js';
import type { HelpDesk } from '../domain/help.js';
import type { PublisherApiKeys } from '../domain/publisher-api-keys.js';
import type { PushRegistrations } from '../domain/push.js';
import type { Sessions } from '../domain/sessions.js';
import type { SigningKeys } from '../domain/signing-keys.js';
import type { SocialLogin } from '../domain/social-login.js';
import type { StaffDirectory } from '../domain/staff.js';
import type { TenantDirectory } from '../domain/tenants.js';
import type { UserAccounts } from '../domain/users.js';
import {
  platformName,
  providerName,
  publicJwkOf,
  secretFormName,
  staffRoleName,
  toAuditEntry,
  toDeviceKey,
  toHelpSubject,
  toPublisherApiKey,
  toStaffGrant,
  toStaffMember,
  toTenant,
  toTokenPair,
  toUser,
} from './mappers.js';

export interface UseCases {
  emailLogin: EmailLogin;
  socialLogin: SocialLogin;
  sessions: Sessions;
  keys: SigningKeys;
  users: UserAccounts;
  tenants: TenantDirectory;
  discovery: TenantDiscovery;
  help: HelpDesk;
  push: PushRegistrations;
  deviceKeys: DeviceKeys;
  staff: StaffDirectory;
  apiKeys: PublisherApiKeys;
  auditLog: AuditLog;
}

export function identityHandlers(app: UseCases): ServiceHandlers<typeof identity.IdentityServiceService> {
  return {
    async startEmailLogin(request) {
      await app.emailLogin.start(request);
      return {};
    },

    async completeEmailLogin(request) {
      return { tokens: toTokenPair(await app.emailLogin.complete(request)) };
    },

    async socialLogin(request) {
      const tokens = await app.socialLogin.login({
        provider: providerName(request.provider),
        accessToken: request.accessToken,
        appTenantId: request.appTenantId,
      });
      return { tokens: toTokenPair(tokens) };
    },

    async refreshToken(request) {
      const { tokens, userId } = await app.sessions.refresh(request.refreshToken);
      // A refresh from a custom-branded app keeps the user's account in that app's tenant.
      if (request.appTenantId > 0) await app.tenants.ensureMembership(userId, request.appTenantId).catch(() => false);
      return { tokens: toTokenPair(tokens) };
    },

    async checkSession(request) {
      const user = await app.sessions.check(request.jti, request.userId, request.enforceLimit);
      return { userId: user._id, email: user.email, admin: user.admin };
    },

    async logout(request) {
      await app.sessions.logout(request.jti);
      return {};
    },

    async getJwks() {
      const jwks = await app.keys.jwks();
      return { keys: jwks.keys.map(publicJwkOf) };
    },

    async getUser(request) {
      const { user, tenants } = await app.users.profile(request.userId);
      return { user: toUser(user, tenants) };
    },

    async getTenant(request) {
      return { tenant: toTenant(await app.tenants.get(request.tenantId)) };
    },

    async resolveTenantByDomain(request) {
      return { tenant: toTenant(await app.tenants.resolveDomain(request.domain)) };
    },

    async listWebOrigins() {
      return { tenants: (await app.tenants.webOrigins()).map(({ id, webOrigins }) => ({ tenantId: id, webOrigins })) };
    },

    async listDiscoverableTenants(request) {
      const page = await app.discovery.list(request);
      return {
        tenants: page.tenants.map(toTenant),
        meta: {
          perPage: page.meta.perPage,
          nextCursor: page.meta.nextCursor ?? undefined,
          prevCursor: page.meta.prevCursor ?? undefined,
        },
      };
    },

    async ensureMembership(request) {
      return { created: await app.tenants.ensureMembership(request.userId, request.tenantId) };
    },

    async listHelpSubjects(request) {
      const subjects = await app.help.subjects(request.appTenantId);
      return { subjects: subjects.map(toHelpSubject) };
    },

    async submitHelpRequest(request) {
      await app.help.submit(request);
      return {};
    },

    async registerPushToken(request) {
      await app.push.register({ ...request, platform: platformName(request.platform) });
      return {};
    },

    async unregisterPushToken(request) {
      await app.push.unregister({ ...request, platform: platformName(request.platform) });
      return {};
    },

    async createDeviceKey(request) {
      const { view, key } = await app.deviceKeys.create(request);
      return { deviceKey: toDeviceKey(view), key };
    },

    async listDeviceKeys(request) {
      return { deviceKeys: (await app.deviceKeys.list(request.userId)).map(toDeviceKey) };
    },

    async deleteDeviceKey(request) {
      await app.deviceKeys.delete(request);
      return {};
    },

    async verifyDeviceKey(request) {
      const verified = await app.deviceKeys.verify({
        email: request.email,
        tenantId: request.tenantId,
        secret: request.secret,
        form: secretFormName(request.secretForm),
        clientIp: request.clientIp,
      });
      return { userId: verified.userId, email: verified.email, admin: verified.admin, deviceKeyId: verified.keyId };
    },

    async authorizeStaff(request) {
      return toStaffGrant(await app.staff.authorize(request));
    },

    async setStaffRole(request) {
      const member = await app.staff.setRole({ tenantId: request.tenantId, email: request.email, role: staffRoleName(request.role) });
      return { member: toStaffMember(member) };
    },

    async listStaff(request) {
      return { staff: (await app.staff.list(request.tenantId)).map(toStaffMember) };
    },

    async createPublisherApiKey(request) {
      const { view, key } = await app.apiKeys.create(request);
      return { apiKey: toPublisherApiKey(view), key };
    },

    async listPublisherApiKeys(request) {
      return { apiKeys: (await app.apiKeys.list(request.tenantId)).map(toPublisherApiKey) };
    },

    async revokePublisherApiKey(request) {
      return { apiKey: toPublisherApiKey(await app.apiKeys.revoke(request)) };
    },

    async recordAuditEntry(request) {
      return { entry: toAuditEntry(await app.auditLog.record(request)) };
    },

    async listAuditEntries(request) {
      const page = await app.auditLog.list(request);
      return { entries: page.entries.map(toAuditEntry), total: page.total, page: page.page, perPage: page.perPage };
    },
  };
}
