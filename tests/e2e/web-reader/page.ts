// A web reader as a third party would write it with the Readium web toolkit
// (@readium/navigator, @readium/shared), bundled by esbuild when the test runs
// (test/web-reader.test.ts) and served from an origin of its own: it logs in
// with a JWT it is handed, fetches the manifest from the gateway directly
// (Authorization and X-Svc-Tenant-Id, so CORS), lets the navigator fetch the
// positions list and the content itself, and saves where the reader is.
import { EpubNavigator, type EpubNavigatorListeners } from '@readium/navigator';
import { HttpFetcher, Manifest, Profile, Publication, type Locator } from '@readium/shared';
import type { FolioReader, Opened, OpenOptions, Saved } from './contract.js';

let navigator: EpubNavigator | null = null;
let publication: Publication | null = null;
let session: OpenOptions | null = null;

/** Credentials on the API's URLs only: the media links are signed and fetched as they are. */
function clientFor(options: OpenOptions) {
  return (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(`${options.gateway}/api/`)) return fetch(input, init);
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${options.token}`);
    headers.set('X-Svc-Tenant-Id', String(options.tenantId));
    return fetch(input, { ...init, headers });
  };
}

const ignore = () => {};
const listeners: EpubNavigatorListeners = {
  frameLoaded: ignore,
  positionChanged: ignore,
  tap: () => false,
  click: () => false,
  zoom: ignore,
  miscPointer: ignore,
  scroll: ignore,
  customEvent: ignore,
  handleLocator: () => false,
  textSelected: ignore,
  contentProtection: ignore,
  contextMenu: ignore,
  peripheral: ignore,
};

async function open(options: OpenOptions): Promise<Opened> {
  await navigator?.destroy();
  session = options;
  const client = clientFor(options);
  const response = await client(`${options.gateway}/api/v2/reader/${options.issueId}/manifest`);
  if (!response.ok) throw new Error(`manifest: HTTP ${response.status} ${await response.text()}`);
  const manifest = Manifest.deserialize(await response.json());
  if (!manifest) throw new Error('manifest: not a Readium Web Publication Manifest');
  publication = new Publication({ manifest, fetcher: new HttpFetcher(client) });
  const container = document.getElementById('reader')!;
  container.replaceChildren();
  // The navigator confines a fixed-layout page's resources (its Content-Security-Policy) to the
  // manifest's base URL; the signed links live under the gateway's /media/, allowed here.
  navigator = new EpubNavigator(container, publication, listeners, [], undefined, {
    preferences: {},
    defaults: {},
    injectables: { rules: [], allowedDomains: [`${options.gateway}/media/`] },
  });
  // load() fetches the positions list the manifest links (positionsFromManifest).
  await navigator.load();
  const shown = navigator._cframes.find((frame) => frame !== undefined)!;
  const doc = shown.window.document;
  const img = doc.querySelector('img');
  if (img) await img.decode();
  const positions = await publication.positionsFromManifest();
  return {
    layout: String(navigator.layout),
    readingOrderIndex: publication.readingOrder.findIndexWithHref(navigator.currentLocator.href),
    positions: positions.length,
    text: doc.body?.textContent ?? '',
    image: img ? { width: img.naturalWidth, height: img.naturalHeight } : null,
  };
}

/**
 * Saves where the navigator is through PUT /api/v2/reader/{issue_id}/last-location:
 * an EPUB chapter by its href inside the package (what follows the signed package
 * prefix) with a CFI of the chapter's start; a page of a PDF by its number.
 */
async function savePosition(): Promise<Saved> {
  if (!navigator || !publication || !session) throw new Error('nothing is open');
  const locator: Locator = navigator.currentLocator;
  const index = publication.readingOrder.findIndexWithHref(locator.href);
  const fixed = publication.metadata.conformsTo?.includes(Profile.DIVINA);
  const lastLocation = fixed
    ? { page: index + 1 }
    : { chapterHref: decodeURIComponent(new URL(locator.href).pathname.replace(/^.*\/~[^/]+~[^/]+\//, '')), cfi: `epubcfi(/6/${(index + 1) * 2}!/4/2)` };
  const response = await clientFor(session)(`${session.gateway}/api/v2/reader/${session.issueId}/last-location`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ lastLocation }),
  });
  return { status: response.status, body: await response.json() };
}

const folioReader: FolioReader = { open, savePosition };
Object.assign(window, { folioReader });
document.documentElement.dataset.ready = 'true';
