// Reader sessions: opening one (v2 with the JWT, v1 by exchanging the settings
// token), resuming one with its reader-token, reading and deleting the stored
// record, and verifying reader-tokens for every reader-token endpoint. Each
// start and end is also written where the gateway reads it
// (ReaderSessionLiveness), so that it need not ask on every request.
//
// The stored ReaderSession (GET/DELETE /api/v1/sessions/{id}) is
// `{id, tenant_id, user_id, issue_id, preview, api, reader, engine_host,
// created_at, expires_at}` followed by the session response fields as first
// returned (`cover`, `table_of_contents`, `custom_preview`, `file_url`, ...),
// with `token: null`: that endpoint has no authentication, so it never
// discloses the reader-token. For the same reason its `id` is the session's
// public id (128 random bits), not the sequential internal one: the URL is the
// capability, and sequential ids let anyone read and delete every session.
import { randomBytes } from 'node:crypto';
import { failedPrecondition, notFound, permissionDenied, unavailable } from '@folio/errors';
import { previewLimit, type ContentLinks, type SessionContent } from './content.js';
import { contentOfSnapshot, snapshotOf } from './session-snapshot.js';
import type { Peers } from './ports.js';
import type { ContentManifest, ManifestRepository, SessionRecord, SessionRepository } from './repositories.js';
import type { ReaderClaims, TokenService } from './tokens.js';

const FOREIGN = 'The reader token does not belong to this session.';

export interface OpenedSession {
  sessionId: number;
  /** The id of the v1 session routes; null for a resumed session stored before public ids. */
  publicId: string | null;
  token: string;
  /** What the session shows (the reader session response is `{token, ...content}`). */
  content: SessionContent;
}

/**
 * The stored session of GET/DELETE {store}/api/v1/sessions/{id}: the record
 * and its content as first returned, without credentials: no token, and no
 * signed URL (null in `content`).
 */
export interface StoredSession {
  id: string | null;
  tenantId: number;
  userId: number;
  issueId: number;
  preview: boolean;
  api: 'v1' | 'v2';
  reader: string | null;
  engineHost: string | null;
  /** ISO 8601 UTC. */
  createdAt: string;
  expiresAt: string;
  content: SessionContent;
}

/** A session as the gateway may take it without asking: its user, and how long its newest token lives. */
export interface LiveReaderSession {
  sessionId: number;
  userId: number;
  tokenExpiresAt: Date;
}

/**
 * Which sessions are live, for the gateway (data/session-liveness.ts): with
 * it, a token the gateway verified once is taken without VerifyReaderToken
 * while its session is live. The store stays the source of truth. A start
 * is written after the store, best effort (without it the gateway asks);
 * an end before the store, and `ended` throws when it could not be written,
 * so that no deleted session stays live for the gateway.
 */
export interface ReaderSessionLiveness {
  started(session: LiveReaderSession): Promise<void>;
  /** A verification found the session: written unless a key exists (live, or ended meanwhile). */
  confirmed(session: LiveReaderSession): Promise<void>;
  ended(sessionIds: readonly number[]): Promise<void>;
}

export class ReaderSessions {
  constructor(
    private readonly deps: {
      manifests: ManifestRepository;
      sessions: SessionRepository;
      tokens: TokenService;
      peers: Peers;
      content: ContentLinks;
      liveness: ReaderSessionLiveness;
    },
  ) {}

  /**
   * A readable issue's manifest: NOT_FOUND when reader has none in the tenant, 422 for
   * physical issues. `structure: false` skips the per-page/chapter lists (epub/pdf/audio null).
   */
  async readableManifest(tenantId: number, issueId: number, options: { structure?: boolean } = {}): Promise<ContentManifest> {
    const manifest =
      options.structure === false ? await this.deps.manifests.findSummary({ tenantId, issueId }) : await this.deps.manifests.find({ tenantId, issueId });
    if (!manifest) throw notFound('Issue not found.');
    if (manifest.type === 'physical') throw failedPrecondition('This issue has no digital content to read.', 'NO_DIGITAL_CONTENT');
    return manifest;
  }

  /** POST /api/v2/reader/{issue_id}/sessions */
  async openV2(input: { tenantId: number; userId: number; issueId: number; preview: boolean; resumeToken?: string | undefined }): Promise<OpenedSession> {
    const manifest = await this.readableManifest(input.tenantId, input.issueId);
    let resumed: ReaderClaims | null = null;
    if (input.resumeToken !== undefined) {
      resumed = await this.verify(input.resumeToken, input.tenantId);
      if (resumed.userId !== input.userId || resumed.issueId !== input.issueId) throw permissionDenied(FOREIGN);
    }
    const preview = input.preview || (resumed?.preview ?? false);
    return this.open({ manifest, userId: input.userId, preview, api: 'v2', reader: null, engineHost: null, resumed, resumedToken: input.resumeToken ?? null });
  }

  /** POST {store}/api/v1/sessions: the settings token of GetReaderSettings for a session. */
  async exchangeV1(input: {
    storeTenantId: number;
    token: string;
    reader?: string | undefined;
    engineHost?: string | undefined;
    preview?: boolean | undefined;
  }): Promise<OpenedSession> {
    const claims = await this.deps.tokens.verifySettingsToken(input.token);
    if (claims.tenantId !== input.storeTenantId) throw permissionDenied('The token was issued for another store.');
    const manifest = await this.readableManifest(claims.tenantId, claims.issueId);
    let resumed: ReaderClaims | null = null;
    let resumedPublicId: string | null = null;
    if (claims.resumeSessionId !== null) {
      const session = await this.deps.sessions.find(claims.resumeSessionId);
      // A session deleted since the settings were read is simply not resumed;
      // nor is one stored before public ids (v1 could not address it).
      if (session?.public_id && session.tenant_id === claims.tenantId && session.user_id === claims.userId && session.issue_id === claims.issueId) {
        resumed = {
          sessionId: session._id,
          tenantId: session.tenant_id,
          userId: session.user_id,
          issueId: session.issue_id,
          preview: session.preview,
          previewLimit: null,
          expiresAt: session.expires_at,
        };
        resumedPublicId = session.public_id;
      }
    }
    // An explicit `preview: false` asks for the full content: without access that is a 403 (spec), not a silent preview.
    const preview = input.preview ?? (claims.preview || (resumed?.preview ?? false));
    const opened = await this.open({
      manifest,
      userId: claims.userId,
      preview,
      api: 'v1',
      reader: clip(input.reader),
      engineHost: clip(input.engineHost),
      resumed,
      resumedToken: null,
    });
    return { ...opened, publicId: resumedPublicId ?? opened.publicId };
  }

  private async open(input: {
    manifest: ContentManifest;
    userId: number;
    preview: boolean;
    api: 'v1' | 'v2';
    reader: string | null;
    engineHost: string | null;
    resumed: ReaderClaims | null;
    /** The resumed session's token, kept when the session stays as it was; null: a fresh one is issued (v1 never sees it). */
    resumedToken: string | null;
  }): Promise<OpenedSession> {
    const { manifest, userId, preview } = input;
    const tenantId = manifest.tenant_id;
    const issueId = manifest.issue_id;

    const { limit, notAfter } = await this.grant(manifest, userId, preview);

    const now = new Date();
    const content = await this.deps.content.sessionContent(manifest, { limit, notAfter, now });
    if (input.resumed) {
      const resumed = input.resumed;
      if (input.resumedToken !== null && resumed.preview === preview) {
        return { sessionId: resumed.sessionId, publicId: null, token: input.resumedToken, content };
      }
      const tokenExpiresAt = this.deps.tokens.readerTokenExpiry(now);
      const token = await this.deps.tokens.issueReaderToken({ ...resumed, preview, previewLimit: limit }, tokenExpiresAt);
      // The session lives as long as its newest token: it is not pruned before that (pruneExpired).
      await this.deps.sessions.extend(resumed.sessionId, tokenExpiresAt);
      await this.deps.liveness.confirmed({ sessionId: resumed.sessionId, userId: resumed.userId, tokenExpiresAt });
      return { sessionId: resumed.sessionId, publicId: null, token, content };
    }

    const sessionId = await this.deps.sessions.nextId();
    const publicId = newPublicId();
    const expiresAt = this.deps.tokens.readerTokenExpiry(now);
    const token = await this.deps.tokens.issueReaderToken({ sessionId, tenantId, userId, issueId, preview, previewLimit: limit }, expiresAt);
    // The session and its liveness key for the gateway are written together: nobody holds the token
    // before this answer, so a key without its session (a failed insert) is never used.
    const stored = this.deps.sessions.create({
      _id: sessionId,
      public_id: publicId,
      tenant_id: tenantId,
      user_id: userId,
      issue_id: issueId,
      preview,
      api: input.api,
      reader: input.reader,
      engine_host: input.engineHost,
      created_at: now,
      expires_at: expiresAt,
      // What the v1 session record shows: never a signed URL, which would be a credential at rest.
      snapshot: snapshotOf(content),
    });
    await Promise.all([stored, this.deps.liveness.started({ sessionId, userId, tokenExpiresAt: expiresAt })]);
    return { sessionId, publicId, token, content };
  }

  /**
   * What a user may read of an issue: a preview is the tenant's preview share
   * (`limit`, see previewLimit) for anyone; otherwise the user needs access
   * (PERMISSION_DENIED), and signed URLs end with it (`notAfter`).
   */
  async grant(manifest: ContentManifest, userId: number, preview: boolean): Promise<{ limit: number | null; notAfter: Date | null }> {
    if (preview) return { limit: previewLimit(manifest, (await this.deps.peers.tenant(manifest.tenant_id)).previewPercentage), notAfter: null };
    const access = await this.deps.peers.access(manifest.tenant_id, userId, manifest.issue_id);
    if (!access.canRead) throw permissionDenied('You do not have access to this issue.');
    return { limit: null, notAfter: access.expiresAt };
  }

  /** GET {store}/api/v1/sessions/{id}: by public id; a session of another store is not found. */
  async get(storeTenantId: number, publicId: string): Promise<StoredSession> {
    const found = await this.findPublic(storeTenantId, publicId);
    const session = await this.deps.sessions.findWithSnapshot(found._id);
    if (!session) throw notFound('Reader session not found.');
    return sessionRecord(session);
  }

  /** DELETE {store}/api/v1/sessions/{id}: by public id; its reader-token stops working. */
  async delete(storeTenantId: number, publicId: string): Promise<StoredSession> {
    const session = await this.findPublic(storeTenantId, publicId);
    await this.endForGateway([session._id]);
    const deleted = await this.deps.sessions.delete(session._id);
    if (!deleted) throw notFound('Reader session not found.');
    return sessionRecord(deleted);
  }

  private async findPublic(storeTenantId: number, publicId: string): Promise<Omit<SessionRecord, 'snapshot'>> {
    const session = PUBLIC_ID.test(publicId) ? await this.deps.sessions.findByPublicId({ tenantId: storeTenantId, publicId }) : null;
    if (!session) throw notFound('Reader session not found.');
    return session;
  }

  /**
   * A reader-token's claims, when it decrypts, has not expired, names a session
   * that still exists with the same tenant, user and issue, and (when given)
   * belongs to `expectedTenantId`. Anything else: PERMISSION_DENIED.
   */
  async verify(token: string | undefined | null, expectedTenantId?: number): Promise<ReaderClaims> {
    const claims = await this.deps.tokens.verifyReaderToken(token);
    if (expectedTenantId !== undefined && expectedTenantId !== claims.tenantId) throw permissionDenied('The reader token was issued for another tenant.');
    const session = await this.deps.sessions.find(claims.sessionId);
    if (!session || session.tenant_id !== claims.tenantId || session.user_id !== claims.userId || session.issue_id !== claims.issueId) {
      throw permissionDenied('The reader session has ended.');
    }
    return claims;
  }

  /**
   * VerifyReaderToken, the gateway's check: `verify`, and the session's
   * liveness written again, so that the gateway takes this token without
   * asking from its next request on.
   */
  async verifyForGateway(token: string | undefined | null, expectedTenantId?: number): Promise<ReaderClaims> {
    const claims = await this.verify(token, expectedTenantId);
    await this.deps.liveness.confirmed({ sessionId: claims.sessionId, userId: claims.userId, tokenExpiresAt: claims.expiresAt });
    return claims;
  }

  /**
   * Forgets the sessions whose last token expired more than `retentionMs`
   * ago: their tokens no longer work, and their v1 records have been
   * readable that long. Their liveness keys in Redis expired with the tokens.
   */
  pruneExpired(now: Date, retentionMs: number): Promise<number> {
    return this.deps.sessions.pruneExpired(new Date(now.getTime() - retentionMs));
  }

  /** Account erasure: the sessions' ends are announced before the store forgets them, like a DELETE's. */
  async deleteAllOf(userId: number): Promise<number> {
    await this.endForGateway(await this.deps.sessions.idsOf(userId));
    return this.deps.sessions.deleteAllOf(userId);
  }

  /** Before the store: a session the store no longer has must not stay live for the gateway. */
  private async endForGateway(sessionIds: readonly number[]): Promise<void> {
    if (!sessionIds.length) return;
    try {
      await this.deps.liveness.ended(sessionIds);
    } catch {
      throw unavailable('Reader sessions cannot be ended right now; try again.');
    }
  }
}

/** 128 random bits, base64url: 22 characters. */
export function newPublicId(): string {
  return randomBytes(16).toString('base64url');
}
const PUBLIC_ID = /^[A-Za-z0-9_-]{22}$/;

function clip(value: string | undefined): string | null {
  return value === undefined ? null : value.slice(0, 256);
}

/**
 * The stored ReaderSession of GET/DELETE {store}/api/v1/sessions/{id}. Those
 * routes need no authentication (spec), so besides an unguessable id the
 * record carries no credential: no token, and no signed content URL (the
 * holder of the reader-token got those at the exchange). Covers are public.
 */
export function sessionRecord(session: SessionRecord): StoredSession {
  return {
    id: session.public_id ?? null,
    tenantId: session.tenant_id,
    userId: session.user_id,
    issueId: session.issue_id,
    preview: session.preview,
    api: session.api,
    reader: session.reader,
    engineHost: session.engine_host,
    createdAt: new Date(session.created_at).toISOString(),
    expiresAt: new Date(session.expires_at).toISOString(),
    content: contentOfSnapshot(session.snapshot),
  };
}
