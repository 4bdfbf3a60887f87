// Identity's records to the wire messages of svc.identity.v1.
import { identity } from '@folio/proto';
import type { AuditEntry } from '../domain/audit-log.js';
import type { DeviceKeyView, SecretForm } from '../domain/device-keys.js';
import type { HelpSubject } from '../domain/help.js';
import type { PublisherApiKeyView } from '../domain/publisher-api-keys.js';
import type { PushPlatform } from '../domain/push.js';
import type { TokenPair } from '../domain/sessions.js';
import type { SocialProviderName } from '../domain/social/index.js';
import type { StaffGrant, StaffMember, StaffRole } from '../domain/staff.js';
import type { TenantRecord, UserRecord } from '../domain/repositories.js';

export function toTenant(doc: TenantRecord): identity.Tenant {
  return {
    id: doc._id,
    name: doc.name,
    domain: doc.domain,
    logo: doc.logo ?? '',
    countryCode: doc.country_code ?? undefined,
    countryName: doc.country_name ?? undefined,
    colors: { primary: doc.colors?.primary ?? '', secondary: doc.colors?.secondary ?? '' },
    aggregatorId: doc.aggregator_id ?? undefined,
    currency: doc.currency ?? '',
    lang: doc.lang ?? '',
    previewPercentage: doc.preview_percentage ?? 0,
    freeAccess: doc.free_access ?? false,
    features: {
      storefrontSearch: doc.features?.storefront_search ?? false,
      tts: doc.features?.tts ?? false,
      search: doc.features?.search ?? false,
      concurrencyLimit: doc.features?.concurrency_limit ?? false,
      chineseVoice: doc.features?.chinese_voice ?? false,
    },
    mobileAppScheme: doc.mobile_app_scheme ?? undefined,
    planActive: doc.plan_active ?? false,
    reader: readerDefaultsOf(doc.reader),
    exitUrl: doc.exit_url ?? '',
    twitterUser: doc.twitter_user ?? '',
    webOrigins: doc.web_origins ?? [],
    opdsPublicCatalog: doc.opds_public_catalog ?? false,
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The tenant's reader defaults as configured (a free-form document): the known keys, typed; anything else left out. */
function readerDefaultsOf(reader: unknown): identity.TenantReaderDefaults {
  const defaults = isRecord(reader) ? reader : {};
  const pdf = isRecord(defaults.pdf) ? defaults.pdf : {};
  return {
    pdfLayout: typeof pdf.layout === 'string' ? pdf.layout : undefined,
    tts: defaults.tts === true,
    theme: typeof defaults.theme === 'string' ? defaults.theme : undefined,
    extras: Array.isArray(defaults.extras) ? defaults.extras.filter((extra): extra is string => typeof extra === 'string') : [],
    styles: isRecord(defaults.customStyles) ? stylesOf(defaults.customStyles) : undefined,
  };
}

/** The styles when every value is text, as a style is; a tenant configured with another value has none. */
function stylesOf(styles: Record<string, unknown>): identity.TenantReaderStyles | undefined {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(styles)) {
    if (typeof value !== 'string') return undefined;
    values[name] = value;
  }
  return { values };
}

/** A help subject with its labels in every language; the gateway picks the client's. */
export function toHelpSubject(subject: HelpSubject): identity.HelpSubject {
  return { key: subject.key, labels: subject.labels };
}

export function toUser(user: UserRecord, tenants: TenantRecord[]): identity.User {
  return { id: user._id, admin: user.admin, email: user.email, picture: user.picture ?? '', tenants: tenants.map(toTenant) };
}

export function toTokenPair(pair: TokenPair): identity.TokenPair {
  return { accessToken: pair.accessToken, tokenType: pair.tokenType, expiresIn: pair.expiresIn, refreshToken: pair.refreshToken };
}

export function providerName(provider: identity.SocialProvider): SocialProviderName | undefined {
  switch (provider) {
    case identity.SocialProvider.SOCIAL_PROVIDER_GOOGLE:
      return 'google';
    case identity.SocialProvider.SOCIAL_PROVIDER_FACEBOOK:
      return 'facebook';
    case identity.SocialProvider.SOCIAL_PROVIDER_APPLE:
      return 'apple';
    default:
      return undefined;
  }
}

export function platformName(platform: identity.PushPlatform): PushPlatform | null {
  switch (platform) {
    case identity.PushPlatform.PUSH_PLATFORM_IOS:
      return 'ios';
    case identity.PushPlatform.PUSH_PLATFORM_ANDROID:
      return 'android';
    default:
      return null;
  }
}

export function toDeviceKey(view: DeviceKeyView): identity.DeviceKey {
  return {
    id: view.id,
    label: view.label,
    createdAt: view.createdAt.toISOString(),
    lastUsedAt: view.lastUsedAt ? view.lastUsedAt.toISOString() : undefined,
  };
}

/** An unspecified form is the plain key (HTTP Basic). */
export function secretFormName(form: identity.SecretForm): SecretForm {
  return form === identity.SecretForm.SECRET_FORM_KOSYNC_MD5 ? 'kosync-md5' : 'plain';
}

/** A published key as the typed message: only the public members are copied, so a private one can never leak. */
export function publicJwkOf(jwk: { kty?: string; kid?: string; alg?: string; use?: string; crv?: string; x?: string; y?: string }): identity.PublicJwk {
  return { kty: jwk.kty ?? '', kid: jwk.kid ?? '', alg: jwk.alg ?? '', use: jwk.use ?? '', crv: jwk.crv ?? '', x: jwk.x ?? '', y: jwk.y ?? '' };
}

export function toStaffRole(role: StaffRole | null): identity.StaffRole {
  switch (role) {
    case 'owner':
      return identity.StaffRole.STAFF_ROLE_OWNER;
    case 'editor':
      return identity.StaffRole.STAFF_ROLE_EDITOR;
    default:
      return identity.StaffRole.STAFF_ROLE_UNSPECIFIED;
  }
}

/** Unspecified (and anything unknown) is no role: SetStaffRole's way of taking one away. */
export function staffRoleName(role: identity.StaffRole): StaffRole | null {
  switch (role) {
    case identity.StaffRole.STAFF_ROLE_OWNER:
      return 'owner';
    case identity.StaffRole.STAFF_ROLE_EDITOR:
      return 'editor';
    default:
      return null;
  }
}

export function toStaffGrant(grant: StaffGrant): identity.AuthorizeStaffResponse {
  return { role: toStaffRole(grant.role), actor: grant.actor, userId: grant.userId, apiKeyId: grant.apiKeyId };
}

export function toStaffMember(member: StaffMember): identity.StaffMember {
  return { userId: member.userId, email: member.email, role: toStaffRole(member.role) };
}

export function toPublisherApiKey(view: PublisherApiKeyView): identity.PublisherApiKey {
  return {
    id: view.id,
    tenantId: view.tenantId,
    name: view.name,
    prefix: view.prefix,
    role: toStaffRole(view.role),
    createdAt: view.createdAt.toISOString(),
    createdByUserId: view.createdByUserId ?? undefined,
    lastUsedAt: view.lastUsedAt?.toISOString(),
    revokedAt: view.revokedAt?.toISOString(),
  };
}

export function toAuditEntry(entry: AuditEntry): identity.AuditEntry {
  return {
    id: entry.id,
    tenantId: entry.tenantId,
    at: entry.at.toISOString(),
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    detailsJson: entry.detailsJson,
    requestId: entry.requestId,
  };
}
