// PNG renditions of the SVG covers, for clients that show only raster images:
// OPDS 2.0 requires one of JPEG, PNG, GIF, AVIF or WebP among a publication's
// `images`, and e-readers (KOReader among them) do not draw SVG. Rendered on
// first request with resvg (a maintained SVG renderer in Rust, off the event
// loop with renderAsync) and kept in memory, keyed by the SVG's storage key and
// modification time, so a new cover is rendered again. The text of the covers
// is set in DejaVu Sans, shipped as a dependency, so a rendition looks the
// same on any machine whatever fonts it has.
import { createRequire } from 'node:module';
import { renderAsync } from '@resvg/resvg-js';
import { ReferenceCache } from '@folio/messaging';
import type { ContentStorage } from '../storage/storage.js';

const fontFile = (name: string) => createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${name}`);
const FONTS = {
  fontFiles: [fontFile('DejaVuSans.ttf'), fontFile('DejaVuSans-Bold.ttf')],
  loadSystemFonts: false,
  defaultFontFamily: 'DejaVu Sans',
  sansSerifFamily: 'DejaVu Sans',
};

export interface RasterCover {
  png: Buffer;
  modifiedAt: Date;
}

export class CoverRasters {
  private readonly cache = new ReferenceCache<string, RasterCover | null>({ name: 'reader-cover-png', maxEntries: 500, ttlMs: 60 * 60_000 });

  constructor(private readonly storage: ContentStorage) {}

  /** The PNG of the SVG cover at `svgKey` (its own width), or null when there is no such cover. */
  async png(svgKey: string): Promise<RasterCover | null> {
    const info = await this.storage.stat(svgKey);
    if (!info) return null;
    const key = `${svgKey}@${info.modifiedAt.getTime()}`;
    // get(): the covers of a feed page are asked for at once by every reader that opens it; one render each.
    return this.cache.get(key, async () => {
      const svg = await this.storage.get(svgKey);
      if (!svg) return null;
      const rendered = await renderAsync(svg, { font: FONTS });
      return { png: rendered.asPng(), modifiedAt: info.modifiedAt };
    });
  }
}
