// The reader settings response (GET /api/v2/reader/settings/{issue_id}) and
// the user's own reader settings (PUT /api/v2/reader/settings, user-wide).
import { createHmac } from 'node:crypto';
import { invalidArgument, permissionDenied } from '@folio/errors';
import type { PositionRepository, UserSettingsRepository } from '../data/repositories.js';
import type { UserSettingsDoc } from '../data/schemas.js';
import type { Peers, TenantInfo } from './ports.js';
import type { ReaderSessions } from './sessions.js';
import type { TokenService } from './tokens.js';

export interface UserReaderSettings {
  theme: string | null;
  epub: { zoom: number | null; layout: string | null };
  pdf: { layout: string | null };
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

  async get(input: { tenantId: number; userId: number; issueId: number; readerToken?: string | undefined; location?: string | undefined; lang?: string | undefined }) {
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
      this.deps.positions.find(userId, tenantId, issueId),
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
    const reader = tenant.reader;
    const pdf = (reader.pdf && typeof reader.pdf === 'object' ? reader.pdf : {}) as Record<string, unknown>;
    return {
      token,
      tracker_track_token: this.trackerToken(tenantId, userId, issueId),
      features: { ...tenant.features },
      settings: {
        tenant: {
          lang,
          reader_token_session_url: `${store}/api/v1/sessions`,
          exit_url: tenant.exitUrl,
          reader: {
            pdf: { layout: typeof pdf.layout === 'string' ? pdf.layout : null },
            tts: reader.tts === true,
            theme: typeof reader.theme === 'string' ? reader.theme : 'light',
            extras: Array.isArray(reader.extras) ? reader.extras : [],
            customStyles: reader.customStyles ?? null,
          },
          preview,
        },
        user: userSettingsView(userSettings),
      },
      issue: {
        name: issue.name,
        description: issue.description,
        file_type: manifest.type,
        tags: issue.tags,
        issue_url: `${store}/issues/${issueId}`,
        issue_full_url: `${store}/issues/${issueId}/${issue.slug}`,
        issue_tenant_id: tenantId,
        publication_date: issue.publishedAt,
        user: { issue_is_favorite: favorite, last_location: position?.location ?? null },
        twitter_user: tenant.twitterUser,
      },
      engine_url: engine(this.deps.links.engineUrl),
      engine_url_proxied: engine(this.deps.links.engineProxiedUrl),
    };
  }

  /** PUT /api/v2/reader/settings: all three keys required, types checked; user-wide. */
  async update(userId: number, body: unknown): Promise<{ user_reader_settings: UserReaderSettings }> {
    const settings = validateUserSettings(body);
    await this.deps.settings.save({ _id: userId, ...settings, updated_at: new Date() });
    return { user_reader_settings: settings };
  }

  /** Opaque analytics token: a keyed hash of tenant, user, issue and day (pseudonymous, no ids inside). */
  private trackerToken(tenantId: number, userId: number, issueId: number): string {
    const day = new Date().toISOString().slice(0, 10);
    return createHmac('sha256', this.deps.links.trackerKey).update(`tracker:${tenantId}:${userId}:${issueId}:${day}`).digest('base64url');
  }
}

function userSettingsView(doc: UserSettingsDoc | null): UserReaderSettings {
  if (!doc) return structuredClone(EMPTY_USER_SETTINGS);
  return {
    pdf: { layout: doc.pdf?.layout ?? null },
    epub: { zoom: doc.epub?.zoom ?? null, layout: doc.epub?.layout ?? null },
    theme: doc.theme ?? null,
  } as UserReaderSettings;
}

export function validateUserSettings(body: unknown): UserReaderSettings {
  const errors: Record<string, string[]> = {};
  const fail = (field: string, reason: string) => (errors[field] ??= []).push(reason);
  const root = isObject(body) ? body.userReaderSettings : undefined;
  if (!isObject(root)) {
    fail('userReaderSettings', 'is required and must be an object');
    throw invalidArgument('The given data was invalid.', errors);
  }
  const nullableString = (value: unknown, field: string, max = 32) => {
    if (value === null) return null;
    if (typeof value !== 'string' || value.length === 0 || value.length > max) {
      fail(field, `must be a string of 1-${max} characters or null`);
      return null;
    }
    return value;
  };
  for (const key of ['theme', 'epub', 'pdf']) if (!(key in root)) fail(`userReaderSettings.${key}`, 'is required');
  const theme = 'theme' in root ? nullableString(root.theme, 'userReaderSettings.theme') : null;

  let zoom: number | null = null;
  let epubLayout: string | null = null;
  if ('epub' in root) {
    if (!isObject(root.epub)) fail('userReaderSettings.epub', 'must be an object');
    else {
      const epub = root.epub;
      if (!('zoom' in epub) || !('layout' in epub)) fail('userReaderSettings.epub', 'must have zoom and layout');
      if (epub.zoom !== null && epub.zoom !== undefined) {
        if (typeof epub.zoom !== 'number' || !Number.isInteger(epub.zoom) || epub.zoom < 1 || epub.zoom > 1000) fail('userReaderSettings.epub.zoom', 'must be an integer between 1 and 1000 or null');
        else zoom = epub.zoom;
      }
      if (epub.layout !== undefined) epubLayout = nullableString(epub.layout, 'userReaderSettings.epub.layout');
    }
  }
  let pdfLayout: string | null = null;
  if ('pdf' in root) {
    if (!isObject(root.pdf)) fail('userReaderSettings.pdf', 'must be an object');
    else if (!('layout' in root.pdf)) fail('userReaderSettings.pdf', 'must have layout');
    else if (root.pdf.layout !== null) {
      if (typeof root.pdf.layout !== 'string' || !PDF_LAYOUTS.includes(root.pdf.layout)) fail('userReaderSettings.pdf.layout', `must be one of ${PDF_LAYOUTS.join(', ')} or null`);
      else pdfLayout = root.pdf.layout;
    }
  }
  if (Object.keys(errors).length) throw invalidArgument('The given data was invalid.', errors);
  return { theme, epub: { zoom, layout: epubLayout }, pdf: { layout: pdfLayout } };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
