// The reader settings response (GET /api/v2/reader/settings/{issue_id}) and
// the user's own reader settings (PUT /api/v2/reader/settings, user-wide).
import { createHmac } from 'node:crypto';
import { invalidArgument, permissionDenied } from '@folio/errors';
import type { Peers, TenantInfo } from './ports.js';
import { positionVersion, storedLocation, type LastLocation } from './positions.js';
import type { ReaderSessions } from './sessions.js';
import type { PositionRepository, UserSettingsRecord, UserSettingsRepository } from './repositories.js';
import type { TokenService } from './tokens.js';

export interface UserReaderSettings {
  theme: string | null;
  epub: { zoom: number | null; layout: string | null };
  pdf: { layout: string | null };
}

/** An entry of a table of contents: `{title, href}` (EPUB), `{title, page}` (PDF), `{title, track}` (audio). */
export interface TocEntry {
  title: string;
  href?: string;
  page?: number;
  track?: number;
}

/** The reader settings of an issue for a user (GET /api/v2/reader/settings/{issue_id}). */
export interface ReaderSettingsView {
  token: string;
  trackerTrackToken: string;
  features: TenantInfo['features'];
  tenant: {
    lang: string;
    readerTokenSessionUrl: string;
    exitUrl: string;
    reader: { pdfLayout: string | null; tts: boolean; theme: string; extras: string[]; customStyles: Record<string, unknown> | null };
    preview: boolean;
  };
  user: UserReaderSettings;
  issue: {
    name: string;
    description: string;
    fileType: string;
    tags: { author: string[]; keyword: string[]; edition: string[] };
    issueUrl: string;
    issueFullUrl: string;
    issueTenantId: number;
    publicationDate: string;
    issueIsFavorite: boolean;
    lastLocation: LastLocation | null;
    twitterUser: string;
  };
  engineUrl: string;
  engineUrlProxied: string;
}

export const EMPTY_USER_SETTINGS: UserReaderSettings = { theme: null, epub: { zoom: null, layout: null }, pdf: { layout: null } };
const PDF_LAYOUTS = ['single', 'double', 'continuous'];
const LANGS = /^[a-z]{2}(-[A-Za-z]{2})?$/;

export interface SettingsLinks {
  engineUrl: string;
  engineProxiedUrl: string;
  storeUrlTemplate: string;
  /** Keys the analytics token (opaque to clients). */
  trackerKey: string;
}

export function storeUrl(template: string, tenant: Pick<TenantInfo, 'id' | 'domain'>): string {
  return template.replace('{domain}', tenant.domain).replace('{tenant_id}', String(tenant.id)).replace(/\/+$/, '');
}

export class ReaderSettings {
  constructor(
    private readonly deps: {
      sessions: ReaderSessions;
      settings: UserSettingsRepository;
      positions: PositionRepository;
      tokens: TokenService;
      peers: Peers;
      links: SettingsLinks;
    },
  ) {}

  async get(input: {
    tenantId: number;
    userId: number;
    issueId: number;
    readerToken?: string | undefined;
    location?: string | undefined;
    lang?: string | undefined;
  }): Promise<{ view: ReaderSettingsView; positionVersion: string | null }> {
    const { tenantId, userId, issueId } = input;
    const manifest = await this.deps.sessions.readableManifest(tenantId, issueId, { structure: false });
    let resumeSessionId: number | null = null;
    if (input.readerToken !== undefined) {
      const claims = await this.deps.sessions.verify(input.readerToken, tenantId);
      if (claims.userId !== userId || claims.issueId !== issueId) throw permissionDenied('The reader token does not belong to this session.');
      resumeSessionId = claims.sessionId;
    }
    const [tenant, issue, access, favorite, userSettings, position] = await Promise.all([
      this.deps.peers.tenant(tenantId),
      this.deps.peers.issue(tenantId, issueId),
      this.deps.peers.access(tenantId, userId, issueId),
      this.deps.peers.isFavorite(tenantId, userId, issueId),
      this.deps.settings.find(userId),
      this.deps.positions.find({ userId, tenantId, issueId }),
    ]);
    const preview = !access.canRead;
    const token = await this.deps.tokens.issueSettingsToken({ tenantId, userId, issueId, preview, resumeSessionId });
    const store = storeUrl(this.deps.links.storeUrlTemplate, tenant);
    const lang = input.lang && LANGS.test(input.lang) ? input.lang : tenant.lang;
    const engine = (base: string) => {
      const url = new URL(base);
      url.searchParams.set('issue_id', String(issueId));
      if (input.lang && LANGS.test(input.lang)) url.searchParams.set('lang', input.lang);
      if (input.location) url.searchParams.set('location', input.location.slice(0, 1024));
      return url.toString();
    };
    const view: ReaderSettingsView = {
      token,
      trackerTrackToken: this.trackerToken(tenantId, userId, issueId),
      features: { ...tenant.features },
      tenant: {
        lang,
        readerTokenSessionUrl: `${store}/api/v1/sessions`,
        exitUrl: tenant.exitUrl,
        reader: { ...tenant.reader, theme: tenant.reader.theme ?? 'light' },
        preview,
      },
      user: userSettingsView(userSettings),
      issue: {
        name: issue.name,
        description: issue.description,
        fileType: manifest.type,
        tags: issue.tags,
        issueUrl: `${store}/issues/${issueId}`,
        issueFullUrl: `${store}/issues/${issueId}/${issue.slug}`,
        issueTenantId: tenantId,
        publicationDate: issue.publishedAt,
        issueIsFavorite: favorite,
        lastLocation: position ? storedLocation(position.location) : null,
        twitterUser: tenant.twitterUser,
      },
      engineUrl: engine(this.deps.links.engineUrl),
      engineUrlProxied: engine(this.deps.links.engineProxiedUrl),
    };
    return { view, positionVersion: position ? positionVersion(position) : null };
  }

  /** PUT /api/v2/reader/settings: user-wide; the shape was checked by the caller, the values are checked here. */
  async update(userId: number, settings: UserReaderSettings): Promise<UserReaderSettings> {
    checkUserSettings(settings);
    await this.deps.settings.save({ _id: userId, ...settings, updated_at: new Date() });
    return settings;
  }

  /** Opaque analytics token: a keyed hash of tenant, user, issue and day (pseudonymous, no ids inside). */
  private trackerToken(tenantId: number, userId: number, issueId: number): string {
    const day = new Date().toISOString().slice(0, 10);
    return createHmac('sha256', this.deps.links.trackerKey).update(`tracker:${tenantId}:${userId}:${issueId}:${day}`).digest('base64url');
  }
}

function userSettingsView(doc: UserSettingsRecord | null): UserReaderSettings {
  if (!doc) return structuredClone(EMPTY_USER_SETTINGS);
  return {
    pdf: { layout: doc.pdf?.layout ?? null },
    epub: { zoom: doc.epub?.zoom ?? null, layout: doc.epub?.layout ?? null },
    theme: doc.theme ?? null,
  } as UserReaderSettings;
}

/**
 * The rules of the values (the shape is the caller's): a known PDF layout, a
 * zoom of 1-1000, a theme and EPUB layout of 1-32 characters. Fields are named
 * as the HTTP body names them.
 */
export function checkUserSettings(settings: UserReaderSettings): void {
  const errors: Record<string, string[]> = {};
  const fail = (field: string, reason: string) => (errors[field] ??= []).push(reason);
  const name = (value: string | null, field: string) => {
    if (value !== null && (value.length === 0 || value.length > 32)) fail(field, 'must be a string of 1-32 characters or null');
  };
  name(settings.theme, 'userReaderSettings.theme');
  name(settings.epub.layout, 'userReaderSettings.epub.layout');
  const zoom = settings.epub.zoom;
  if (zoom !== null && (!Number.isInteger(zoom) || zoom < 1 || zoom > 1000)) {
    fail('userReaderSettings.epub.zoom', 'must be an integer between 1 and 1000 or null');
  }
  const layout = settings.pdf.layout;
  if (layout !== null && !PDF_LAYOUTS.includes(layout)) fail('userReaderSettings.pdf.layout', `must be one of ${PDF_LAYOUTS.join(', ')} or null`);
  if (Object.keys(errors).length) throw invalidArgument('The given data was invalid.', errors);
}
