// Mobile sessions and the tokens that carry them.
//
// A login starts a token family: a session (the access token's jti) plus a
// refresh token. A refresh rotates the family: the one caller whose successor
// token insert succeeds (unique on the parent token's hash) gets a new
// refresh token and a new session, and the family's previous session ends
// (`rotated`), so its access token stops working. Replaying a refresh token that was rotated longer than the grace
// window ago means it leaked: the whole family is revoked. Within the window
// it is most likely a client racing itself, so only that call fails.
//
// The session limit counts live families (devices): after a login, the
// oldest logins beyond the limit are `evicted` and their refresh tokens die,
// so an evicted device must log in again.
//
// Every change of a session is mirrored into Redis right after the store
// write (SessionLiveness below; data/session-liveness.ts keeps it in Redis),
// so that the gateway can authenticate without calling us: a start writes the
// live key, every end writes a tombstone. The store stays the source of
// truth. A failed start costs only a CheckSession (which re-writes the key);
// a failed end is the dangerous case, so logout reports it (503, the client
// retries; logout is idempotent) and the other ends (rotation, eviction,
// family revocation), which must not undo a store change already made, log
// it: exposure is bounded by the ended token's remaining life, and needs
// Redis to be up for the gateway's read while it refused our write.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { conflict, unavailable } from '@folio/errors';
import type { Logger } from '@folio/logger';
import { invalidCredentials, invalidFields } from './errors.js';
import type { SigningKeys } from './signing-keys.js';
import type { IdentityRepositories, SessionRecord, UserRecord } from './repositories.js';

export interface TokenPair {
  accessToken: string;
  tokenType: 'bearer';
  expiresIn: number;
  refreshToken: string;
}

export interface SessionSettings {
  refreshTokenTtlDays: number;
  refreshReuseGraceSeconds: number;
  sessionLimit: number;
  /** Life of an access token: how long a session's liveness key must outlive its start. */
  accessTokenTtlSeconds: number;
}

export interface LiveSession {
  jti: string;
  userId: number;
  email: string;
  admin: boolean;
  /** When the session's access token expires: the key lives as long. */
  tokenExpiresAt: Date;
}

export interface EndedSession {
  jti: string;
  tokenExpiresAt: Date;
}

/** What the gateway reads to authenticate without calling identity: a key per access token, live or ended. */
export interface SessionLiveness {
  /** A new session (login, rotation). Best effort: without the key the gateway asks identity. */
  started(session: LiveSession): Promise<void>;
  /** CheckSession found the session live in the store: re-writes the key unless it exists (live, or ended meanwhile). */
  confirmed(session: LiveSession): Promise<void>;
  /** Sessions that ended in the store: tombstones. Throws when they are not taken. */
  ended(sessions: readonly EndedSession[]): Promise<void>;
  /** `ended` for the paths that must not fail once the store changed: a failure is logged. */
  endedOrLog(sessions: readonly EndedSession[], reason: string): Promise<void>;
}

/** Cheap rejection of concurrent refreshes of one token, in front of the store's unique insert. */
export interface RefreshLocks {
  /** Runs `work` holding the token's lock; returns `busy` without running it when another refresh of the token is in flight. */
  withLock<T>(tokenHash: string, work: () => Promise<T>): Promise<T | 'busy'>;
}

/** 64 characters: base64url of 48 random bytes. */
export function newRefreshToken(): string {
  return randomBytes(48).toString('base64url');
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export class Sessions {
  constructor(
    private readonly store: Pick<IdentityRepositories, 'refreshTokens' | 'sessions' | 'users'>,
    private readonly keys: SigningKeys,
    private readonly settings: SessionSettings,
    private readonly logger: Logger,
    private readonly liveness: SessionLiveness,
    private readonly locks: RefreshLocks,
  ) {}

  /** A successful login (code or social): a new family, then the session limit. */
  async login(user: UserRecord): Promise<TokenPair> {
    const now = new Date();
    const issued = await this.issue(user, randomUUID(), now, now);
    if (!issued) throw new Error('a new token family collided with an existing one');
    await this.enforceLimit(user._id, issued.jti);
    return issued.pair;
  }

  async refresh(refreshToken: string): Promise<{ tokens: TokenPair; userId: number }> {
    if (!refreshToken) throw invalidFields({ refresh_token: ['The refresh token field is required.'] });
    const hash = hashRefreshToken(refreshToken);
    // Another refresh of this very token is in flight: at most one of them can
    // win, so this one loses now, before it costs the store anything.
    const result = await this.locks.withLock(hash, () => this.rotate(hash));
    if (result === 'busy') throw invalidCredentials();
    return result;
  }

  private async rotate(hash: string): Promise<{ tokens: TokenPair; userId: number }> {
    const now = new Date();
    const token = await this.store.refreshTokens.findByHash(hash);
    if (!token || token.status === 'revoked') throw invalidCredentials();
    if (token.status === 'rotated') {
      await this.replayed(token.family_id, token.user_id, token.rotated_at ?? now, now);
      throw invalidCredentials();
    }
    if (token.expires_at.getTime() <= now.getTime()) throw invalidCredentials();

    const [user, previous] = await Promise.all([this.store.users.findById(token.user_id), this.store.sessions.findByJti(token.jti)]);
    if (previous?.status === 'rotated') {
      // Only a refresh with this very token rotates its session: another caller won.
      await this.lostRotation(hash, token.family_id, token.user_id, now);
      throw invalidCredentials();
    }
    if (!user || !previous || previous.status !== 'active') {
      // Deleted user, or a family whose device was logged out or evicted: it must log in again.
      await this.revokeFamily(token.family_id);
      throw invalidCredentials();
    }

    const issued = await this.issue(user, token.family_id, previous.login_at, now, hash);
    if (!issued) {
      await this.lostRotation(hash, token.family_id, token.user_id, now);
      throw invalidCredentials();
    }
    await this.store.refreshTokens.markRotated(hash, now);
    if (!(await this.store.sessions.endIfActive(previous.jti, 'rotated'))) {
      // A logout or eviction landed between our check and now: it wins.
      const ended = await this.store.sessions.findByJti(previous.jti);
      await this.store.sessions.setStatus(issued.jti, ended?.status === 'evicted' ? 'evicted' : 'logged_out');
      await this.store.refreshTokens.revokeFamily(token.family_id);
      await this.liveness.endedOrLog([this.endedOf(issued.session)], 'rotation lost to a logout');
      throw invalidCredentials();
    }
    await this.liveness.endedOrLog([this.endedOf(previous)], 'rotated');
    return { tokens: issued.pair, userId: user._id };
  }

  /**
   * The check behind a request whose session the gateway did not find in
   * Redis: one indexed lookup plus the user, then the liveness key again.
   */
  async check(jti: string, userId: number, enforceLimit: boolean): Promise<UserRecord> {
    const session = jti ? await this.store.sessions.findByJti(jti) : null;
    if (!session || (userId > 0 && session.user_id !== userId)) throw invalidCredentials();
    if (session.status === 'evicted') {
      if (enforceLimit) throw conflict('Session limit reached.');
      throw invalidCredentials();
    }
    if (session.status !== 'active' || session.expires_at.getTime() <= Date.now()) throw invalidCredentials();
    const user = await this.store.users.findById(session.user_id);
    if (!user) throw invalidCredentials();
    await this.liveness.confirmed({ ...this.endedOf(session), userId: user._id, email: user.email, admin: user.admin });
    return user;
  }

  /** Ends every session with this jti; a live one also takes its family's refresh token with it. */
  async logout(jti: string): Promise<void> {
    if (!jti) return;
    const session = await this.store.sessions.findByJti(jti);
    if (!session) return;
    const wasActive = await this.store.sessions.endIfActive(jti, 'logged_out');
    await this.store.sessions.logout(jti);
    if (wasActive) await this.store.refreshTokens.revokeFamily(session.family_id);
    // Always, even when the store had it ended already: a retried logout repairs a tombstone that failed.
    try {
      await this.liveness.ended([this.endedOf(session)]);
    } catch (error) {
      this.logger.error({ err: error }, 'logout: session liveness not updated');
      throw unavailable('Logout could not be completed. Please try again.');
    }
  }

  /**
   * Issues a refresh token, its session and the access token. The refresh
   * token goes first: it is unique on its parent, so for a rotation the
   * insert decides the one winner (null for the losers).
   */
  private async issue(
    user: UserRecord,
    familyId: string,
    loginAt: Date,
    now: Date,
    parentHash = `family:${familyId}`,
  ): Promise<{ pair: TokenPair; jti: string; session: SessionRecord } | null> {
    const jti = randomUUID();
    const refreshToken = newRefreshToken();
    const expiresAt = new Date(now.getTime() + this.settings.refreshTokenTtlDays * 86_400_000);
    const inserted = await this.store.refreshTokens.insert({
      hash: hashRefreshToken(refreshToken),
      family_id: familyId,
      user_id: user._id,
      jti,
      parent_hash: parentHash,
      status: 'active',
      created_at: now,
      expires_at: expiresAt,
      rotated_at: null,
    });
    if (!inserted) return null;
    const session: SessionRecord = {
      jti,
      user_id: user._id,
      family_id: familyId,
      login_at: loginAt,
      created_at: now,
      expires_at: expiresAt,
      status: 'active',
    };
    await this.store.sessions.create(session);
    const { token, expiresIn } = await this.keys.sign({ sub: String(user._id), email: user.email, jti });
    await this.liveness.started({ jti, userId: user._id, email: user.email, admin: user.admin, tokenExpiresAt: new Date(now.getTime() + expiresIn * 1000) });
    return { pair: { accessToken: token, tokenType: 'bearer', expiresIn, refreshToken }, jti, session };
  }

  /** A session's access token lives ACCESS_TOKEN_TTL_SECONDS from the session's start. */
  private endedOf(session: Pick<SessionRecord, 'jti' | 'created_at'>): EndedSession {
    return { jti: session.jti, tokenExpiresAt: new Date(session.created_at.getTime() + this.settings.accessTokenTtlSeconds * 1000) };
  }

  /** Another refresh with this token won; if that was longer ago than the grace window, this is a replay. */
  private async lostRotation(hash: string, familyId: string, userId: number, now: Date): Promise<void> {
    const successor = await this.store.refreshTokens.findSuccessor(hash);
    if (successor) await this.replayed(familyId, userId, successor.created_at, now);
  }

  /** A token used again after it was rotated: within the grace window a racing client, past it a leak. */
  private async replayed(familyId: string, userId: number, rotatedAt: Date, now: Date): Promise<void> {
    if (now.getTime() - rotatedAt.getTime() <= this.settings.refreshReuseGraceSeconds * 1000) return;
    this.logger.warn({ user_id: userId, family_id: familyId }, 'rotated refresh token replayed; revoking its family');
    await this.revokeFamily(familyId);
  }

  private async revokeFamily(familyId: string): Promise<void> {
    const live = await this.store.sessions.activeOfFamily(familyId);
    await this.store.refreshTokens.revokeFamily(familyId);
    await this.store.sessions.logoutFamily(familyId);
    await this.liveness.endedOrLog(
      live.map((session) => this.endedOf(session)),
      'family revoked',
    );
  }

  private async enforceLimit(userId: number, keepJti: string): Promise<void> {
    const others = (await this.store.sessions.activeOf(userId, new Date())).filter((session) => session.jti !== keepJti);
    const excess = others.slice(Math.max(0, this.settings.sessionLimit - 1));
    if (excess.length === 0) return;
    await this.store.sessions.evict(excess.map((session) => session.jti));
    await this.store.refreshTokens.revokeFamilies([...new Set(excess.map((session) => session.family_id))]);
    await this.liveness.endedOrLog(
      excess.map((session) => this.endedOf(session)),
      'evicted',
    );
  }

  /** Account erasure: tombstones for every live session of the user, before the store forgets them. Throws when Redis refuses. */
  async endAllOf(userId: number): Promise<void> {
    const live = await this.store.sessions.activeOf(userId, new Date());
    await this.liveness.ended(live.map((session) => this.endedOf(session)));
  }
}
