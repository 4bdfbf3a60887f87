// What the use cases need from identity's database: the records they read
// and write, and one repository interface per aggregate. data/ implements them
// (data/index.ts opens them all, app.ts hands them to the use cases). The
// records keep the documents' field names (`_id`, snake_case), so the
// repositories hand their lean documents over as they are.
import type { AuditEntryRepository } from './audit-log.js';
import type { DeviceKeyRepository } from './device-keys.js';
import type { PublisherApiKeyRepository } from './publisher-api-keys.js';
import type { StaffRole } from './staff.js';

export interface UserRecord {
  /** The integer id the API exposes. */
  _id: number;
  /** Normalized (see normalizeEmail); unique. */
  email: string;
  admin: boolean;
  picture: string;
  created_at: Date;
}

/** A tenant (store) with the settings clients see; the search keys and the member count stay in data/. */
export interface TenantRecord {
  _id: number;
  name: string;
  domain: string;
  logo: string;
  country_code: string | null;
  country_name: string | null;
  colors: { primary: string; secondary: string };
  plan_active: boolean;
  aggregator_id: number | null;
  currency: string;
  lang: string;
  preview_percentage: number;
  free_access: boolean;
  features: { storefront_search: boolean; tts: boolean; search: boolean; concurrency_limit: boolean; chinese_voice: boolean };
  mobile_app_scheme: string | null;
  help_subjects_hidden: string[];
  reader: unknown;
  exit_url: string;
  twitter_user: string;
  /** Web origins allowed to call the API from a browser (CORS), as the gateway matches them. */
  web_origins: string[];
  /** The store's OPDS catalog is open to anonymous browsing. */
  opds_public_catalog: boolean;
}

/** Which tenants discovery lists: active plans, none of `excludeIds`, and the optional filters. */
export interface DiscoveryCriteria {
  excludeIds: number[];
  /** Signup country, upper case. */
  countryCode?: string | undefined;
  /** A substring of the searchable name (NFC, lower case). */
  nameContains?: string | undefined;
  /** Only this app tenant and the tenants it aggregates. */
  familyOf?: number | undefined;
}

/** The pending login code of an e-mail address. */
export interface LoginCodeRecord {
  email: string;
  /** Identifies this issuance of a code: its attempt slots are keyed by it. */
  code_id: string;
  /** HMAC-SHA256 (CODE_PEPPER) of the code, hex. */
  hash: string;
  expires_at: Date;
  /** Attempts taken so far (informational; the attempt slots decide). */
  attempts: number;
  created_at: Date;
}

export type SessionStatus = 'active' | 'logged_out' | 'evicted' | 'rotated';

/** A mobile session: one per access token (jti). */
export interface SessionRecord {
  jti: string;
  user_id: number;
  family_id: string;
  /** When the family's login happened: the session limit evicts the oldest logins. */
  login_at: Date;
  created_at: Date;
  expires_at: Date;
  status: SessionStatus;
}

export type RefreshTokenStatus = 'active' | 'rotated' | 'revoked';

export interface RefreshTokenRecord {
  /** SHA-256 of the token, hex; the token itself is never stored. */
  hash: string;
  family_id: string;
  user_id: number;
  /** The session issued together with this token. */
  jti: string;
  /**
   * Hash of the token this one replaced (`family:<id>` for a login's first
   * token). A token can be rotated into at most one successor.
   */
  parent_hash: string;
  status: RefreshTokenStatus;
  created_at: Date;
  expires_at: Date;
  rotated_at?: Date | null;
}

export interface SigningKeyRecord {
  kid: string;
  public_jwk: Record<string, unknown>;
  private_jwk: Record<string, unknown>;
  created_at: Date;
  active: boolean;
  deactivated_at?: Date | null;
  retired_at?: Date | null;
}

/** A push registration as a client sends it: one per (user, tenant, device). */
export interface PushRegistration {
  user_id: number;
  tenant_id: number;
  /** device_token when the client sent one, else the FCM token. */
  device_key: string;
  fcm_token: string;
  device_token: string | null;
  platform: 'ios' | 'android' | null;
}

/** The help subjects, their labels per language and their routing, as loaded from the dataset. */
export interface HelpConfigRecord {
  subjects: string[];
  labels: Record<string, Record<string, string>>;
  routing: Record<string, string>;
  generic_app_only: string[];
}

export interface UserRepository {
  findById(id: number): Promise<UserRecord | null>;
  findByEmail(email: string): Promise<UserRecord | null>;
  /** The user with this (normalized) e-mail, created if absent; concurrent first logins end with one user. */
  findOrCreate(email: string): Promise<{ user: UserRecord; created: boolean }>;
  /** Erasure: false when there was no such user. */
  delete(id: number): Promise<boolean>;
}

export interface TenantRepository {
  findById(id: number): Promise<TenantRecord | null>;
  /** Ascending by id; unknown ids are left out. */
  findByIds(ids: number[]): Promise<TenantRecord[]>;
  findByDomain(domain: string): Promise<TenantRecord | null>;
  /** One page of the tenants matching the criteria, most members first, then by id. */
  discoverable(criteria: DiscoveryCriteria, offset: number, limit: number): Promise<TenantRecord[]>;
  /** The tenants that allow any web origin, with those origins, by id. */
  withWebOrigins(): Promise<{ id: number; webOrigins: string[] }[]>;
}

/** Which users have an account in which tenants, and their staff role there. */
export interface MembershipRepository {
  /** Idempotent; `true` only for the call that created it. */
  ensure(userId: number, tenantId: number): Promise<boolean>;
  /** Ascending. */
  tenantIdsOf(userId: number): Promise<number[]>;
  /** Erasure: returns how many went (and the staff roles with them). */
  deleteAllOf(userId: number): Promise<number>;
  /** The user's role in the tenant, from the store (never cached); null without a role or a membership. */
  staffRoleOf(userId: number, tenantId: number): Promise<StaffRole | null>;
  /** Sets or clears (null) the role of an existing membership. */
  setStaffRole(userId: number, tenantId: number, role: StaffRole | null): Promise<void>;
  countOwners(tenantId: number): Promise<number>;
  /** The members of the tenant who have a role. */
  staffOf(tenantId: number): Promise<{ userId: number; role: StaffRole }[]>;
}

/** One pending login code per e-mail; every check of it takes one of its attempt slots first. */
export interface LoginCodeRepository {
  /** Stores a new code for the e-mail, replacing any previous one (a new code starts with no attempts). */
  replace(email: string, hash: string, expiresAt: Date): Promise<void>;
  find(email: string): Promise<LoginCodeRecord | null>;
  /** Takes the next free attempt slot of a code: its number, or null when all are taken. */
  takeAttempt(code: LoginCodeRecord, maxAttempts: number): Promise<number | null>;
  /** Uses a code: true for exactly one caller; the code is gone afterwards. */
  consume(code: LoginCodeRecord): Promise<boolean>;
  /** Erasure: the pending code of an address and its slots. */
  deleteFor(email: string): Promise<void>;
}

export interface SessionRepository {
  create(session: SessionRecord): Promise<void>;
  findByJti(jti: string): Promise<SessionRecord | null>;
  /** Moves a session from `active` to `status`; false when it was no longer active. */
  endIfActive(jti: string, status: Exclude<SessionStatus, 'active'>): Promise<boolean>;
  setStatus(jti: string, status: SessionStatus): Promise<void>;
  /** Logs out every still-live session with this jti; returns their families. */
  logout(jti: string): Promise<string[]>;
  logoutFamily(familyId: string): Promise<void>;
  /** Live sessions of a user, newest login first. */
  activeOf(userId: number, now: Date): Promise<SessionRecord[]>;
  /** The live sessions of a token family (at most one, unless a race left two). */
  activeOfFamily(familyId: string): Promise<SessionRecord[]>;
  /** Ends these sessions as `evicted` (those still active). */
  evict(jtis: string[]): Promise<void>;
  deleteAllOf(userId: number): Promise<number>;
}

export interface RefreshTokenRepository {
  /** Inserts a token; false when its parent already has a successor (a lost rotation race). */
  insert(token: RefreshTokenRecord): Promise<boolean>;
  findByHash(hash: string): Promise<RefreshTokenRecord | null>;
  findSuccessor(parentHash: string): Promise<RefreshTokenRecord | null>;
  markRotated(hash: string, now: Date): Promise<void>;
  /** Kills every token of the family that could still be used or replayed. */
  revokeFamily(familyId: string): Promise<void>;
  revokeFamilies(familyIds: string[]): Promise<void>;
  deleteAllOf(userId: number): Promise<number>;
}

export interface SigningKeyRepository {
  /** The newest active key. */
  active(): Promise<SigningKeyRecord | null>;
  insert(key: SigningKeyRecord): Promise<void>;
  /** Deactivates every other key: they keep verifying, no longer signing. */
  deactivateAllBut(kid: string, now: Date): Promise<void>;
  /** Retires keys deactivated before `before`. */
  retireDeactivatedBefore(before: Date, now: Date): Promise<void>;
  /** Every key not yet retired, newest first. */
  published(): Promise<SigningKeyRecord[]>;
}

export interface PushRegistrationRepository {
  upsert(registration: PushRegistration, now: Date): Promise<void>;
  /** Deletes a device's registrations across tenants; returns the tenants it was registered in, ascending. */
  deleteDevice(userId: number, deviceToken: string, platform?: string): Promise<number[]>;
  deleteAllOf(userId: number): Promise<number>;
}

export interface HelpConfigRepository {
  /** Null until the dataset was loaded. */
  get(): Promise<HelpConfigRecord | null>;
}

/** Every repository of identity's database; each use case takes the ones it needs (a Pick of this). */
export interface IdentityRepositories {
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
