// Reader's proto messages → the spec's JSON shapes, and validated request
// bodies → reader's messages. Reader answers domain data; every key name and
// every null of the reader routes' answers is decided here, once.
import { DomainError } from '@folio/errors';
import { reader } from '@folio/proto';
import type { ReaderScope } from '../http/route.js';
import { accessibilityEntryOf, readiumAccessibility } from '../opds/accessibility.js';
import type { z } from 'zod';
import type {
  DownloadRecord,
  LastLocation,
  PositionList,
  ReaderSession,
  ReaderSessionV1,
  ReaderSettings,
  StoredReaderSession,
  TocEntry,
  UserReaderSettings,
  WebPublication,
} from '../routes/schemas.js';

type LastLocationWire = z.output<typeof LastLocation>;
type UserSettingsWire = z.output<typeof UserReaderSettings>;
type ContentWire = Omit<z.output<typeof ReaderSession>, 'token'>;

function breach(method: string, what: string): DomainError {
  // A success without a required part is a contract breach upstream, not the client's fault.
  return new DomainError('INTERNAL', `reader ${method} answered without ${what}`);
}

const nullable = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

/** `{title, href}` (EPUB), `{title, page}` (PDF), `{title, track}` (audio): only the position the entry has. */
export function tocToWire(entries: readonly reader.TocEntry[]): z.output<typeof TocEntry>[] {
  return entries.map((entry) => ({
    title: entry.title,
    ...(entry.href !== undefined && { href: entry.href }),
    ...(entry.page !== undefined && { page: entry.page }),
    ...(entry.track !== undefined && { track: entry.track }),
  }));
}

/** The reader session response without `token`: the keys of the other content types are null. */
export function sessionContentToWire(content: reader.SessionContent | undefined, method: string): ContentWire {
  if (!content) throw breach(method, 'content');
  const { epub, pdf, audio } = content;
  return {
    cover: content.cover,
    table_of_contents: tocToWire(content.tableOfContents),
    custom_preview: content.customPreview,
    file_url: epub ? nullable(epub.fileUrl) : null,
    files_urls: pdf ? (pdf.filesUrls?.urls ?? null) : null,
    files_info: pdf ? pdf.filesInfo.map(({ width, height }) => ({ width, height })) : null,
    articles: pdf ? [] : null,
    spine: epub ? epub.spine.map(({ href, idref }) => ({ href, idref })) : null,
    total_words: epub ? epub.totalWords : null,
    // A live session's tracks are signed; the stored record drops the URLs (storedSessionToWire).
    tracks: audio ? audio.tracks.map((track) => ({ title: track.title, url: track.url ?? '', duration: track.duration })) : null,
    // After the spec's keys: how to lay the file out, as the WebPub manifest's presentation says.
    layout: content.layout === 'reflowable' || content.layout === 'fixed' ? content.layout : null,
    reading_progression: content.readingProgression === 'ltr' || content.readingProgression === 'rtl' ? content.readingProgression : null,
  };
}

/** POST /api/v2/reader/{issue_id}/sessions */
export function readerSessionToWire(response: reader.CreateReaderSessionResponse): z.output<typeof ReaderSession> {
  return { token: response.readerToken, ...sessionContentToWire(response.content, 'CreateReaderSession') };
}

/** POST {store}/api/v1/sessions: the session response plus the stored session's public id. */
export function exchangedSessionToWire(response: reader.ExchangeSessionTokenResponse): z.output<typeof ReaderSessionV1> {
  return { id: response.publicId, token: response.readerToken, ...sessionContentToWire(response.content, 'ExchangeSessionToken') };
}

/** GET/DELETE {store}/api/v1/sessions/{id}: `token` and signed URLs always null. */
export function storedSessionToWire(session: reader.StoredReaderSession | undefined, method: string): z.output<typeof StoredReaderSession> {
  if (!session) throw breach(method, 'a session');
  const content = sessionContentToWire(session.content, method);
  return {
    id: nullable(session.id),
    tenant_id: session.tenantId,
    user_id: session.userId,
    issue_id: session.issueId,
    preview: session.preview,
    api: session.api as 'v1' | 'v2',
    reader: nullable(session.reader),
    engine_host: nullable(session.engineHost),
    created_at: session.createdAt,
    expires_at: session.expiresAt,
    token: null,
    ...content,
    // The record has no authentication: never a signed URL in it.
    tracks: content.tracks ? content.tracks.map(({ title, duration }) => ({ title, url: null, duration })) : null,
  };
}

export function userSettingsToWire(settings: reader.UserReaderSettings | undefined): UserSettingsWire {
  return {
    theme: nullable(settings?.theme),
    epub: { zoom: nullable(settings?.epub?.zoom), layout: nullable(settings?.epub?.layout) },
    pdf: { layout: nullable(settings?.pdf?.layout) },
  };
}

export function userSettingsToProto(settings: UserSettingsWire): reader.UserReaderSettings {
  const unset = <T>(value: T | null): T | undefined => (value === null ? undefined : value);
  return {
    theme: unset(settings.theme),
    epub: { zoom: unset(settings.epub.zoom), layout: unset(settings.epub.layout) },
    pdf: { layout: unset(settings.pdf.layout) },
  };
}

export function lastLocationToWire(location: reader.LastLocation | undefined): LastLocationWire | null {
  if (location?.epub) return { chapterHref: location.epub.chapterHref, cfi: location.epub.cfi };
  if (location?.pdf) return { page: location.pdf.page };
  if (location?.audio) return { currentSeek: location.audio.currentSeek, currentTrack: location.audio.currentTrack };
  return null;
}

export function lastLocationToProto(location: LastLocationWire): reader.LastLocation {
  if ('chapterHref' in location) return { epub: { chapterHref: location.chapterHref, cfi: location.cfi } };
  if ('page' in location) return { pdf: { page: location.page } };
  return { audio: { currentSeek: location.currentSeek, currentTrack: location.currentTrack } };
}

/** GET /api/v2/reader/settings/{issue_id} */
export function readerSettingsToWire(view: reader.ReaderSettingsView | undefined): z.output<typeof ReaderSettings> {
  if (!view?.tenant || !view.issue || !view.features) throw breach('GetReaderSettings', 'settings');
  const { tenant, issue, features } = view;
  const defaults = tenant.reader;
  return {
    token: view.token,
    tracker_track_token: view.trackerTrackToken,
    features: { tts: features.tts, search: features.search, concurrency_limit: features.concurrencyLimit, chinese_voice: features.chineseVoice },
    settings: {
      tenant: {
        lang: tenant.lang,
        reader_token_session_url: tenant.readerTokenSessionUrl,
        exit_url: tenant.exitUrl,
        reader: {
          pdf: { layout: nullable(defaults?.pdfLayout) },
          tts: defaults?.tts ?? false,
          theme: defaults?.theme ?? 'light',
          extras: defaults?.extras ?? [],
          customStyles: defaults?.styles ? { ...defaults.styles.values } : null,
        },
        preview: tenant.preview,
      },
      user: userSettingsToWire(view.user),
    },
    issue: {
      name: issue.name,
      description: issue.description,
      file_type: issue.fileType,
      tags: { author: issue.tags?.author ?? [], keyword: issue.tags?.keyword ?? [], edition: issue.tags?.edition ?? [] },
      issue_url: issue.issueUrl,
      issue_full_url: issue.issueFullUrl,
      issue_tenant_id: issue.issueTenantId,
      publication_date: issue.publicationDate,
      user: { issue_is_favorite: issue.issueIsFavorite, last_location: lastLocationToWire(issue.lastLocation) },
      twitter_user: issue.twitterUser,
    },
    engine_url: view.engineUrl,
    engine_url_proxied: view.engineUrlProxied,
  };
}

/** GET /api/v2/content/{issue_id}/download: every key of the spec; the unused ones as the spec fixes them. */
export function downloadToWire(record: reader.DownloadRecord | undefined): z.output<typeof DownloadRecord> {
  if (!record) throw breach('GetDownload', 'a download record');
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    slug: record.slug,
    published_at: { timestamp: record.publishedTimestamp, date: record.publishedDate, timezone: 'UTC' },
    table_of_contents: tocToWire(record.tableOfContents),
    user_can_read: record.userCanRead,
    file_type: record.fileType,
    reader_url: record.readerUrl,
    cover: record.cover,
    thumbnail: record.thumbnail,
    url: record.url,
    file_url: nullable(record.epubUrl),
    packed_file_url: nullable(record.epubUrl),
    tracks: record.audio ? record.audio.tracks.map((track) => ({ title: track.title, url: track.url ?? '', duration: track.duration })) : null,
    files_urls: record.pageUrls?.urls ?? null,
    articles: [],
    payment_links: null,
    prices: { ...record.prices },
    author: record.author,
    pages: null,
    number_of_pages: nullable(record.numberOfPages),
    external_id: record.externalId,
    private_material: null,
    access_expires_at: nullable(record.accessExpiresAt),
    require_login: record.requireLogin ? 1 : 0,
    free: record.free,
  };
}

// ------------------------------------------------------------ publication --

type PublicationWire = z.output<typeof WebPublication>;
type LinkWire = PublicationWire['readingOrder'][number];

export const WEBPUB_MEDIA_TYPE = 'application/webpub+json';
export const POSITION_LIST_MEDIA_TYPE = 'application/vnd.readium.position-list+json';

/** Readium profiles and schema.org types by kind of publication. */
const PROFILES: Record<number, { conformsTo: string; type: string }> = {
  [reader.PublicationType.PUBLICATION_TYPE_EPUB]: { conformsTo: 'https://readium.org/webpub-manifest/profiles/epub', type: 'http://schema.org/Book' },
  [reader.PublicationType.PUBLICATION_TYPE_PDF]: { conformsTo: 'https://readium.org/webpub-manifest/profiles/divina', type: 'http://schema.org/Book' },
  [reader.PublicationType.PUBLICATION_TYPE_AUDIOBOOK]: {
    conformsTo: 'https://readium.org/webpub-manifest/profiles/audiobook',
    type: 'http://schema.org/Audiobook',
  },
};

/** MARC relator codes Readium has a contributor key for; any other role is a `contributor` with its role. */
const CONTRIBUTOR_KEYS: Record<string, 'translator' | 'editor' | 'artist' | 'illustrator' | 'narrator' | 'colorist' | 'inker' | 'penciler' | 'letterer'> = {
  trl: 'translator',
  edt: 'editor',
  art: 'artist',
  ill: 'illustrator',
  nrt: 'narrator',
  clr: 'colorist',
  ink: 'inker',
  pnc: 'penciler',
  ltr: 'letterer',
};

type MetadataWire = PublicationWire['metadata'];

/** The file's creators other than its authors, under Readium's key for their role. */
function contributorsToWire(contributors: reader.PublicationContributor[]): Partial<MetadataWire> {
  const byKey: Record<string, string[]> = {};
  const others: { name: string; role: string }[] = [];
  for (const { name, role } of contributors) {
    const key = CONTRIBUTOR_KEYS[role];
    if (key) (byKey[key] ??= []).push(name);
    else others.push({ name, role });
  }
  return { ...byKey, ...(others.length > 0 && { contributor: others }) };
}

function linkToWire(link: reader.PublicationLink): LinkWire {
  return {
    href: link.href,
    type: link.type,
    ...(link.title !== undefined && { title: link.title }),
    ...(link.duration !== undefined && { duration: link.duration }),
    ...(link.width !== undefined && { width: link.width }),
    ...(link.height !== undefined && { height: link.height }),
    ...(link.rel.length > 0 && { rel: link.rel }),
    ...(link.children.length > 0 && { children: link.children.map(linkToWire) }),
  };
}

/**
 * GET /api/v2/reader/{issue_id}/manifest: a Readium Web Publication Manifest.
 * `gateway` is the origin it was asked at: the `self` link is the manifest's
 * URL without a query (navigators take it as the base URL), and the positions
 * list link names the preview share and the signing time of the links.
 */
export function publicationToWire(publication: reader.Publication | undefined, gateway: string, issueId: number): PublicationWire {
  if (!publication) throw breach('GetPublicationManifest', 'a publication');
  const profile = PROFILES[publication.type];
  if (!profile) throw breach('GetPublicationManifest', 'a known publication type');
  // The one rendering of accessibility OPDS 2 uses too: reader's ContentAccessibility has catalog's shape.
  const a11y = accessibilityEntryOf(publication.accessibility);
  const accessibility = a11y && readiumAccessibility(a11y);
  const progression = publication.readingProgression === 'ltr' || publication.readingProgression === 'rtl' ? publication.readingProgression : undefined;
  const layout = publication.layout === 'reflowable' || publication.layout === 'fixed' ? publication.layout : undefined;
  return {
    '@context': 'https://readium.org/webpub-manifest/context.jsonld',
    metadata: {
      '@type': profile.type,
      conformsTo: profile.conformsTo,
      identifier: publication.identifier,
      title: publication.title,
      ...(publication.language !== undefined && { language: publication.language }),
      ...(publication.altIdentifiers.length > 0 && { altIdentifier: publication.altIdentifiers }),
      ...(publication.authors.length > 0 && { author: publication.authors }),
      ...contributorsToWire(publication.contributors),
      ...(publication.publisher !== undefined && { publisher: publication.publisher }),
      ...(publication.published !== undefined && { published: publication.published }),
      ...(publication.description !== undefined && { description: publication.description }),
      ...(publication.numberOfPages !== undefined && publication.numberOfPages > 0 && { numberOfPages: publication.numberOfPages }),
      ...(publication.duration !== undefined && publication.duration > 0 && { duration: publication.duration }),
      ...(progression && { readingProgression: progression }),
      // `layout` is the schema's current place; `presentation.layout` is where Readium's EPUB navigators read it.
      ...(layout && { layout, presentation: { layout } }),
      ...(accessibility && { accessibility }),
    },
    links: [
      { rel: ['self'], href: `${gateway}/api/v2/reader/${issueId}/manifest`, type: WEBPUB_MEDIA_TYPE },
      {
        href: `${gateway}/api/v2/reader/${issueId}/positions?signed_at=${publication.signedAt}${publication.preview ? '&preview=true' : ''}`,
        type: POSITION_LIST_MEDIA_TYPE,
      },
      ...publication.links.map(linkToWire),
    ],
    readingOrder: publication.readingOrder.map(linkToWire),
    resources: publication.resources.map(linkToWire),
    toc: publication.toc.map(linkToWire),
  };
}

/** GET /api/v2/reader/{issue_id}/positions */
export function positionListToWire(response: reader.GetPositionListResponse): z.output<typeof PositionList> {
  return {
    total: response.positions.length,
    positions: response.positions.map((locator) => ({
      href: locator.href,
      type: locator.type,
      ...(locator.title !== undefined && { title: locator.title }),
      locations: {
        position: locator.position,
        progression: locator.progression,
        totalProgression: locator.totalProgression,
        ...(locator.fragments.length > 0 && { fragments: locator.fragments }),
      },
    })),
  };
}

/** The verified reader-token's session as reader's message (the token itself stays here). */
export function readerSessionOf(scope: ReaderScope): reader.ReaderContext {
  return {
    sessionId: scope.sessionId,
    tenantId: scope.tenantId,
    userId: scope.userId,
    issueId: scope.issueId,
    preview: scope.preview,
    previewLimit: scope.previewLimit,
    expiresAt: scope.expiresAt,
  };
}
