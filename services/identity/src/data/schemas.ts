// The identity database: one mongoose schema per collection, with every index
// a query path needs. Documents are returned as plain objects by the
// repositories; nothing outside data/ sees mongoose.
//
// The local stack runs FerretDB, which has no multi-document transactions and
// (measured with 20 concurrent callers) does not apply a conditional
// findOneAndUpdate or $inc atomically: several callers can "win" the same
// compare-and-set. Every decision that must have exactly one winner is
// therefore an insert on a unique index (a successor refresh token per
// parent, an attempt slot per login code), which both FerretDB and MongoDB
// enforce.
import { Schema, type Connection, type Model } from 'mongoose';
import { modelOn } from '@folio/mongo';
import type { StaffRole } from '../domain/staff.js';
import type {
  LoginCodeRecord,
  PushRegistration,
  RefreshTokenRecord,
  SessionRecord,
  SigningKeyRecord,
  TenantRecord,
  UserRecord,
} from '../domain/repositories.js';
export type { RefreshTokenStatus, SessionStatus } from '../domain/repositories.js';

// The documents are the domain's records (domain/repositories.ts), with what only data/ needs added.
export type UserDoc = UserRecord;

/** The tenant as stored: the domain's record and what only discovery's queries use. */
export interface TenantDoc extends TenantRecord {
  /** NFC-normalized, lower-cased name: what discovery's `query` matches. */
  name_search: string;
  /** Upper-cased ISO 3166-1 alpha-2 code discovery's `country_code` filters on. */
  signup_country_code: string | null;
  /** Number of memberships, kept by single-document $inc so discovery can sort on an index. */
  member_count: number;
}

export interface MembershipDoc {
  user_id: number;
  tenant_id: number;
  created_at: Date;
  /** The publisher staff role in the tenant; absent (memberships made before roles) or null for none. */
  staff_role?: StaffRole | null;
}

export type LoginCodeDoc = LoginCodeRecord;

/** One taken attempt (`<code_id>:<n>`) or the single use (`<code_id>:used`) of a login code. */
export interface LoginCodeSlotDoc {
  _id: string;
  code_id: string;
  /** The code's expiry: slots are swept a while after it. */
  code_expires_at: Date;
  claimed_at: Date;
}

export type SessionDoc = SessionRecord;

export type RefreshTokenDoc = RefreshTokenRecord;

export type SigningKeyDoc = SigningKeyRecord;

export interface PushRegistrationDoc extends PushRegistration {
  created_at: Date;
  updated_at: Date;
}

/**
 * A device key (OPDS readers, KOReader sync). Only digests are stored: `_id`
 * is SHA-256(key) (HTTP Basic sends the key), `md5_digest` SHA-256(MD5 hex of
 * the key) (KOReader sends the MD5 hex), so each verification is one lookup
 * by `_id` or by a unique field. `key_id` is the public id the API lists.
 */
export interface DeviceKeyDoc {
  _id: string;
  md5_digest: string;
  key_id: string;
  user_id: number;
  label: string;
  created_at: Date;
  last_used_at: Date | null;
}

/**
 * A publisher API key. `_id` is SHA-256(key), hex: authorizing a request is
 * one read by `_id`. `key_id` is the public id the API lists and revokes.
 */
export interface PublisherApiKeyDoc {
  _id: string;
  key_id: string;
  tenant_id: number;
  name: string;
  prefix: string;
  role: StaffRole;
  created_at: Date;
  created_by_user_id: number | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** One entry of the publisher audit log; `details_json` is kept as the text it came in. */
export interface AuditEntryDoc {
  _id: string;
  tenant_id: number;
  at: Date;
  actor: string;
  action: string;
  target: string;
  details_json: string;
  request_id: string;
}

export interface HelpConfigDoc {
  _id: string;
  subjects: string[];
  labels: Record<string, Record<string, string>>;
  routing: Record<string, string>;
  generic_app_only: string[];
}

const options = { versionKey: false } as const;

const userSchema = new Schema<UserDoc>(
  {
    _id: { type: Number, required: true },
    email: { type: String, required: true },
    admin: { type: Boolean, default: false },
    picture: { type: String, default: '' },
    created_at: { type: Date, required: true },
  },
  { ...options, collection: 'users' },
);
userSchema.index({ email: 1 }, { unique: true });

const tenantSchema = new Schema<TenantDoc>(
  {
    _id: { type: Number, required: true },
    name: String,
    name_search: String,
    domain: String,
    logo: String,
    country_code: { type: String, default: null },
    country_name: { type: String, default: null },
    colors: { primary: String, secondary: String },
    plan_active: Boolean,
    aggregator_id: { type: Number, default: null },
    currency: String,
    lang: String,
    preview_percentage: Number,
    free_access: Boolean,
    features: {
      storefront_search: Boolean,
      tts: Boolean,
      search: Boolean,
      concurrency_limit: Boolean,
      chinese_voice: Boolean,
    },
    mobile_app_scheme: { type: String, default: null },
    signup_country_code: { type: String, default: null },
    help_subjects_hidden: { type: [String], default: [] },
    reader: { type: Schema.Types.Mixed },
    exit_url: String,
    twitter_user: String,
    web_origins: { type: [String], default: [] },
    opds_public_catalog: { type: Boolean, default: false },
    member_count: { type: Number, default: 0 },
  },
  { ...options, collection: 'tenants', minimize: false },
);
tenantSchema.index({ domain: 1 }, { unique: true });
tenantSchema.index({ aggregator_id: 1 });
tenantSchema.index({ plan_active: 1, member_count: -1, _id: 1 });

const membershipSchema = new Schema<MembershipDoc>(
  {
    user_id: { type: Number, required: true },
    tenant_id: { type: Number, required: true },
    created_at: { type: Date, required: true },
    staff_role: { type: String, default: null },
  },
  { ...options, collection: 'memberships' },
);
membershipSchema.index({ user_id: 1, tenant_id: 1 }, { unique: true });
membershipSchema.index({ tenant_id: 1 });
// A tenant's staff (ListStaff, the owner count) without reading its readers' memberships.
membershipSchema.index({ tenant_id: 1, staff_role: 1 });

const loginCodeSchema = new Schema<LoginCodeDoc>(
  {
    email: { type: String, required: true },
    code_id: { type: String, required: true },
    hash: { type: String, required: true },
    expires_at: { type: Date, required: true },
    attempts: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
  },
  { ...options, collection: 'login_codes' },
);
loginCodeSchema.index({ email: 1 }, { unique: true });

const loginCodeSlotSchema = new Schema<LoginCodeSlotDoc>(
  {
    _id: { type: String, required: true },
    code_id: { type: String, required: true },
    code_expires_at: { type: Date, required: true },
    claimed_at: { type: Date, required: true },
  },
  { ...options, collection: 'login_code_slots' },
);
loginCodeSlotSchema.index({ code_id: 1 });
loginCodeSlotSchema.index({ code_expires_at: 1 });

const sessionSchema = new Schema<SessionDoc>(
  {
    jti: { type: String, required: true },
    user_id: { type: Number, required: true },
    family_id: { type: String, required: true },
    login_at: { type: Date, required: true },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
    status: { type: String, required: true },
  },
  { ...options, collection: 'sessions' },
);
sessionSchema.index({ jti: 1 }, { unique: true });
sessionSchema.index({ user_id: 1, status: 1, login_at: -1 });
sessionSchema.index({ family_id: 1 });

const refreshTokenSchema = new Schema<RefreshTokenDoc>(
  {
    hash: { type: String, required: true },
    family_id: { type: String, required: true },
    user_id: { type: Number, required: true },
    jti: { type: String, required: true },
    parent_hash: { type: String, required: true },
    status: { type: String, required: true },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
    rotated_at: { type: Date, default: null },
  },
  { ...options, collection: 'refresh_tokens' },
);
refreshTokenSchema.index({ hash: 1 }, { unique: true });
refreshTokenSchema.index({ parent_hash: 1 }, { unique: true });
refreshTokenSchema.index({ family_id: 1, status: 1 });
refreshTokenSchema.index({ user_id: 1 });

const signingKeySchema = new Schema<SigningKeyDoc>(
  {
    kid: { type: String, required: true },
    public_jwk: { type: Schema.Types.Mixed, required: true },
    private_jwk: { type: Schema.Types.Mixed, required: true },
    created_at: { type: Date, required: true },
    active: { type: Boolean, required: true },
    deactivated_at: { type: Date, default: null },
    retired_at: { type: Date, default: null },
  },
  { ...options, collection: 'signing_keys' },
);
signingKeySchema.index({ kid: 1 }, { unique: true });
signingKeySchema.index({ active: 1, created_at: -1 });

const pushRegistrationSchema = new Schema<PushRegistrationDoc>(
  {
    user_id: { type: Number, required: true },
    tenant_id: { type: Number, required: true },
    device_key: { type: String, required: true },
    fcm_token: { type: String, required: true },
    device_token: { type: String, default: null },
    platform: { type: String, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { ...options, collection: 'push_registrations' },
);
pushRegistrationSchema.index({ user_id: 1, tenant_id: 1, device_key: 1 }, { unique: true });
pushRegistrationSchema.index({ user_id: 1, device_token: 1 });

const deviceKeySchema = new Schema<DeviceKeyDoc>(
  {
    _id: { type: String, required: true },
    md5_digest: { type: String, required: true },
    key_id: { type: String, required: true },
    user_id: { type: Number, required: true },
    label: { type: String, required: true },
    created_at: { type: Date, required: true },
    last_used_at: { type: Date, default: null },
  },
  { ...options, collection: 'device_keys' },
);
deviceKeySchema.index({ md5_digest: 1 }, { unique: true });
deviceKeySchema.index({ key_id: 1 }, { unique: true });
deviceKeySchema.index({ user_id: 1 });

const publisherApiKeySchema = new Schema<PublisherApiKeyDoc>(
  {
    _id: { type: String, required: true },
    key_id: { type: String, required: true },
    tenant_id: { type: Number, required: true },
    name: { type: String, required: true },
    prefix: { type: String, required: true },
    role: { type: String, required: true },
    created_at: { type: Date, required: true },
    created_by_user_id: { type: Number, default: null },
    last_used_at: { type: Date, default: null },
    revoked_at: { type: Date, default: null },
  },
  { ...options, collection: 'publisher_api_keys' },
);
publisherApiKeySchema.index({ key_id: 1 }, { unique: true });
publisherApiKeySchema.index({ tenant_id: 1, created_at: -1 });

const auditEntrySchema = new Schema<AuditEntryDoc>(
  {
    _id: { type: String, required: true },
    tenant_id: { type: Number, required: true },
    at: { type: Date, required: true },
    actor: { type: String, required: true },
    action: { type: String, required: true },
    target: { type: String, required: true },
    details_json: { type: String, required: true },
    request_id: { type: String, default: '' },
  },
  { ...options, collection: 'audit_entries' },
);
auditEntrySchema.index({ tenant_id: 1, at: -1, _id: -1 });

const helpConfigSchema = new Schema<HelpConfigDoc>(
  {
    _id: { type: String, required: true },
    subjects: [String],
    labels: { type: Schema.Types.Mixed },
    routing: { type: Schema.Types.Mixed },
    generic_app_only: [String],
  },
  { ...options, collection: 'help_config' },
);

export interface Models {
  users: Model<UserDoc>;
  tenants: Model<TenantDoc>;
  memberships: Model<MembershipDoc>;
  loginCodes: Model<LoginCodeDoc>;
  loginCodeSlots: Model<LoginCodeSlotDoc>;
  sessions: Model<SessionDoc>;
  refreshTokens: Model<RefreshTokenDoc>;
  signingKeys: Model<SigningKeyDoc>;
  pushRegistrations: Model<PushRegistrationDoc>;
  helpConfig: Model<HelpConfigDoc>;
  deviceKeys: Model<DeviceKeyDoc>;
  publisherApiKeys: Model<PublisherApiKeyDoc>;
  auditEntries: Model<AuditEntryDoc>;
}

/** Registers every identity model on the connection (idempotent). */
export function identityModels(connection: Connection): Models {
  return {
    users: modelOn(connection, 'User', userSchema),
    tenants: modelOn(connection, 'Tenant', tenantSchema),
    memberships: modelOn(connection, 'Membership', membershipSchema),
    loginCodes: modelOn(connection, 'LoginCode', loginCodeSchema),
    loginCodeSlots: modelOn(connection, 'LoginCodeSlot', loginCodeSlotSchema),
    sessions: modelOn(connection, 'Session', sessionSchema),
    refreshTokens: modelOn(connection, 'RefreshToken', refreshTokenSchema),
    signingKeys: modelOn(connection, 'SigningKey', signingKeySchema),
    pushRegistrations: modelOn(connection, 'PushRegistration', pushRegistrationSchema),
    helpConfig: modelOn(connection, 'HelpConfig', helpConfigSchema),
    deviceKeys: modelOn(connection, 'DeviceKey', deviceKeySchema),
    publisherApiKeys: modelOn(connection, 'PublisherApiKey', publisherApiKeySchema),
    auditEntries: modelOn(connection, 'AuditEntry', auditEntrySchema),
  };
}

/** True for a MongoDB duplicate-key error (E11000), e.g. a lost race on a unique index. */
export function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}
