// The Readium positions list of a publication
// (`application/vnd.readium.position-list+json`): the reading order cut into
// positions the way the Readium toolkits cut it, so that a position number
// means the same place in Thorium, the mobile toolkits and our own readers.
//   EPUB (reflowable): one position per 1024 bytes of each reading-order
//     document (its length in the package), at least one per document; a
//     document's positions split it into equal progressions.
//   PDF (page images): one position per page.
//   Audio: one position per track, its total progression by time.
// Computed from facts stored at ingest (each chapter's byte length, the
// pages, the track durations) at the time of the request: cheap, and the
// hrefs are those of the manifest's reading order signed at the same time.

/** Readium's reflowable page length (EpubPositionsService.reflowableStrategy). */
export const POSITION_BYTES = 1024;

export interface PositionLocator {
  href: string;
  type: string;
  title?: string;
  locations: {
    /** 1-based, over the whole publication. */
    position: number;
    /** Within the resource, 0 to 1 (excluded). */
    progression: number;
    /** Within the publication, 0 to 1 (excluded). */
    totalProgression: number;
    /** Media fragments (audio: `t=<seconds>`). */
    fragments?: string[];
  };
}

/** A reading-order resource and what it weighs: bytes (EPUB), one page (PDF) or seconds (audio). */
export interface PositionedResource {
  href: string;
  type: string;
  title?: string;
  /** EPUB: the document's byte length; absent on content ingested before it was recorded (one position then). */
  bytes?: number;
  /** Audio: the track's duration in seconds. */
  duration?: number;
}

/** EPUB: positions by the length of each document. */
export function epubPositions(resources: readonly PositionedResource[]): PositionLocator[] {
  const counts = resources.map((resource) => Math.max(1, Math.ceil((resource.bytes ?? 0) / POSITION_BYTES)));
  const total = counts.reduce((sum, count) => sum + count, 0);
  const positions: PositionLocator[] = [];
  resources.forEach((resource, index) => {
    const count = counts[index]!;
    for (let page = 0; page < count; page += 1) {
      const position = positions.length + 1;
      positions.push(locator(resource, { position, progression: page / count, totalProgression: (position - 1) / total }));
    }
  });
  return positions;
}

/** PDF page images: one position per page. */
export function pagePositions(resources: readonly PositionedResource[]): PositionLocator[] {
  return resources.map((resource, index) => locator(resource, { position: index + 1, progression: 0, totalProgression: index / resources.length }));
}

/** Audio: one position per track; its total progression is where it starts in time (by track count when durations are unknown). */
export function audioPositions(resources: readonly PositionedResource[]): PositionLocator[] {
  const total = resources.reduce((sum, resource) => sum + Math.max(0, resource.duration ?? 0), 0);
  let start = 0;
  return resources.map((resource, index) => {
    const totalProgression = total > 0 ? start / total : index / resources.length;
    start += Math.max(0, resource.duration ?? 0);
    return locator(resource, { position: index + 1, progression: 0, totalProgression, fragments: ['t=0'] });
  });
}

function locator(resource: PositionedResource, locations: PositionLocator['locations']): PositionLocator {
  return { href: resource.href, type: resource.type, ...(resource.title !== undefined && { title: resource.title }), locations };
}
