// Domain results <-> reader's proto messages. Only types change here: key
// names and null-versus-absent of the HTTP answers are the gateway's to
// decide (render/reader.ts there). An unset optional is "null".
import { reader } from '@folio/proto';
import type { SessionContent } from '../domain/content.js';
import type { DownloadView } from '../domain/downloads.js';
import type { LastLocation } from '../domain/positions.js';
import type { Progression } from '../domain/progression.js';
import type { PositionLocator } from '../domain/position-list.js';
import type { Publication, PublicationLink } from '../domain/publications.js';
import type { PageText, TextHit } from '../domain/search.js';
import type { StoredSession } from '../domain/sessions.js';
import type { ContentAccessibility } from '../domain/repositories.js';
import type { ReaderSettingsView, TocEntry, UserReaderSettings } from '../domain/settings.js';

const orUndefined = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

export function tocToProto(entries: readonly TocEntry[]): reader.TocEntry[] {
  return entries.map((entry) => ({
    title: String(entry.title ?? ''),
    href: typeof entry.href === 'string' ? entry.href : undefined,
    page: typeof entry.page === 'number' ? entry.page : undefined,
    track: typeof entry.track === 'number' ? entry.track : undefined,
  }));
}

/** A session's content, as returned or as stored (there without signed URLs). */
export function contentToProto(content: SessionContent): reader.SessionContent {
  const { epub, pdf, audio } = content;
  return {
    cover: content.cover,
    tableOfContents: tocToProto(content.tableOfContents),
    customPreview: content.customPreview,
    epub: epub ? { fileUrl: orUndefined(epub.fileUrl), spine: epub.spine, totalWords: epub.totalWords } : undefined,
    pdf: pdf ? { filesUrls: pdf.filesUrls ? { urls: pdf.filesUrls } : undefined, filesInfo: pdf.filesInfo } : undefined,
    audio: audio ? { tracks: audio.tracks.map((track) => ({ title: track.title, url: orUndefined(track.url), duration: track.duration })) } : undefined,
    layout: orUndefined(content.layout),
    readingProgression: orUndefined(content.readingProgression),
  };
}

export function storedSessionToProto(session: StoredSession): reader.StoredReaderSession {
  return {
    id: orUndefined(session.id),
    tenantId: session.tenantId,
    userId: session.userId,
    issueId: session.issueId,
    preview: session.preview,
    api: session.api,
    reader: orUndefined(session.reader),
    engineHost: orUndefined(session.engineHost),
    createdAt: session.createdAt,
    expiresAt: session.expiresAt,
    content: contentToProto(session.content),
  };
}

export function userSettingsToProto(settings: UserReaderSettings): reader.UserReaderSettings {
  return {
    theme: orUndefined(settings.theme),
    epub: { zoom: orUndefined(settings.epub.zoom), layout: orUndefined(settings.epub.layout) },
    pdf: { layout: orUndefined(settings.pdf.layout) },
  };
}

export function userSettingsFromProto(settings: reader.UserReaderSettings | undefined): UserReaderSettings {
  return {
    theme: settings?.theme ?? null,
    epub: { zoom: settings?.epub?.zoom ?? null, layout: settings?.epub?.layout ?? null },
    pdf: { layout: settings?.pdf?.layout ?? null },
  };
}

export function locationToProto(location: LastLocation | null): reader.LastLocation | undefined {
  if (!location) return undefined;
  if ('chapterHref' in location) return { epub: { chapterHref: location.chapterHref, cfi: location.cfi }, pdf: undefined, audio: undefined };
  if ('page' in location) return { epub: undefined, pdf: { page: location.page }, audio: undefined };
  return { epub: undefined, pdf: undefined, audio: { currentSeek: location.currentSeek, currentTrack: location.currentTrack } };
}

/** The sent position, or null when no shape was set (the domain refuses it). */
export function locationFromProto(location: reader.LastLocation | undefined): LastLocation | null {
  if (location?.epub) return { chapterHref: location.epub.chapterHref, cfi: location.epub.cfi };
  if (location?.pdf) return { page: location.pdf.page };
  if (location?.audio) return { currentSeek: location.audio.currentSeek, currentTrack: location.audio.currentTrack };
  return null;
}

export function settingsViewToProto(view: ReaderSettingsView): reader.ReaderSettingsView {
  const defaults = view.tenant.reader;
  return {
    token: view.token,
    trackerTrackToken: view.trackerTrackToken,
    features: {
      tts: view.features.tts,
      search: view.features.search,
      concurrencyLimit: view.features.concurrency_limit,
      chineseVoice: view.features.chinese_voice,
    },
    tenant: {
      lang: view.tenant.lang,
      readerTokenSessionUrl: view.tenant.readerTokenSessionUrl,
      exitUrl: view.tenant.exitUrl,
      reader: {
        pdfLayout: orUndefined(defaults.pdfLayout),
        tts: defaults.tts,
        theme: defaults.theme,
        extras: defaults.extras,
        styles: stylesToProto(defaults.customStyles),
      },
      preview: view.tenant.preview,
    },
    user: userSettingsToProto(view.user),
    issue: {
      ...view.issue,
      lastLocation: locationToProto(view.issue.lastLocation),
    },
    engineUrl: view.engineUrl,
    engineUrlProxied: view.engineUrlProxied,
  };
}

/** The tenant's styles when every value is text, as a style is; a tenant configured with another value has none. */
function stylesToProto(styles: Record<string, unknown> | null): reader.ReaderStyles | undefined {
  if (!styles) return undefined;
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(styles)) {
    if (typeof value !== 'string') return undefined;
    values[name] = value;
  }
  return { values };
}

export function downloadToProto(download: DownloadView): reader.DownloadRecord {
  return {
    id: download.id,
    name: download.name,
    description: download.description,
    slug: download.slug,
    publishedTimestamp: download.publishedTimestamp,
    publishedDate: download.publishedDate,
    tableOfContents: tocToProto(download.tableOfContents),
    userCanRead: download.userCanRead,
    fileType: download.fileType,
    readerUrl: download.readerUrl,
    cover: download.cover,
    thumbnail: download.thumbnail,
    url: download.url,
    epubUrl: orUndefined(download.epubUrl),
    audio: download.tracks ? { tracks: download.tracks } : undefined,
    pageUrls: download.pageUrls ? { urls: download.pageUrls } : undefined,
    prices: download.prices,
    author: download.author,
    numberOfPages: orUndefined(download.numberOfPages),
    externalId: download.externalId,
    accessExpiresAt: orUndefined(download.accessExpiresAt),
    requireLogin: download.requireLogin,
    free: download.free,
  };
}

const PUBLICATION_TYPES = {
  epub: reader.PublicationType.PUBLICATION_TYPE_EPUB,
  pdf: reader.PublicationType.PUBLICATION_TYPE_PDF,
  audio: reader.PublicationType.PUBLICATION_TYPE_AUDIOBOOK,
} as const;

function publicationLinkToProto(link: PublicationLink): reader.PublicationLink {
  return {
    href: link.href,
    type: link.type,
    title: link.title,
    duration: link.duration,
    width: link.width,
    height: link.height,
    rel: link.rel ?? [],
    children: (link.children ?? []).map(publicationLinkToProto),
  };
}

export function publicationToProto(publication: Publication): reader.Publication {
  return {
    type: PUBLICATION_TYPES[publication.contentType],
    preview: publication.preview,
    identifier: publication.identifier,
    title: publication.title,
    language: orUndefined(publication.language),
    authors: publication.authors,
    publisher: orUndefined(publication.publisher),
    published: orUndefined(publication.published),
    description: orUndefined(publication.description),
    numberOfPages: orUndefined(publication.numberOfPages),
    duration: orUndefined(publication.duration),
    readingOrder: publication.readingOrder.map(publicationLinkToProto),
    resources: publication.resources.map(publicationLinkToProto),
    toc: publication.toc.map(publicationLinkToProto),
    links: publication.links.map(publicationLinkToProto),
    signedAt: publication.signedAt,
    accessibility: publication.accessibility ? accessibilityToProto(publication.accessibility) : undefined,
    layout: orUndefined(publication.layout),
    readingProgression: orUndefined(publication.readingProgression),
    altIdentifiers: publication.altIdentifiers,
    contributors: publication.contributors,
  };
}

/** What a file declares of its accessibility (a manifest's, a content status's metadata). */
export function accessibilityToProto(accessibility: ContentAccessibility): reader.ContentAccessibility {
  return {
    conformsTo: accessibility.conforms_to,
    accessModes: accessibility.access_modes,
    accessModesSufficient: accessibility.access_modes_sufficient,
    features: accessibility.features,
    hazards: accessibility.hazards,
    summary: orUndefined(accessibility.summary),
    certifiedBy: orUndefined(accessibility.certified_by),
  };
}

export function positionToProto(locator: PositionLocator): reader.PositionLocator {
  const { position, progression, totalProgression, fragments } = locator.locations;
  return { href: locator.href, type: locator.type, title: locator.title, position, progression, totalProgression, fragments: fragments ?? [] };
}

export function progressionToProto(progression: Progression | null): reader.Progression | undefined {
  if (!progression) return undefined;
  return {
    modified: progression.modified.toISOString(),
    deviceId: progression.device.id,
    deviceName: progression.device.name,
    progression: progression.progression,
    references: progression.references,
    title: orUndefined(progression.title),
  };
}

/** An unset message or an unparsable date become what the domain refuses by field name. */
export function progressionFromProto(progression: reader.Progression | undefined): Progression {
  return {
    modified: new Date(progression?.modified ? Date.parse(progression.modified) : Number.NaN),
    device: { id: progression?.deviceId ?? '', name: progression?.deviceName ?? '' },
    progression: progression?.progression ?? Number.NaN,
    references: progression?.references ?? [],
    title: progression?.title ?? null,
  };
}

export function textHitToProto(hit: TextHit): reader.TextHit {
  return {
    queryWords: hit.queryWords,
    page: hit.page,
    section: hit.section,
    pageOffset: hit.pageOffset,
    cfi: orUndefined(hit.cfi),
    excerpt: hit.excerpt,
  };
}

/** A page's text section: where it is and its text; the gateway renders the location. */
export function pageTextToProto(record: PageText): reader.IssueTextContent {
  return { ...record };
}
