// The files inside a stored EPUB package (chapters, style sheets, images), for
// readers that open a publication file by file (Readium Web Publication
// Manifest) instead of downloading the package. Paths are relative to the
// package document, as the spine and the table of contents name them.
// Recently opened packages stay parsed in memory (a few, by key and stored version).
import { posix } from 'node:path';
import JSZip from 'jszip';
import type { ContentStorage } from '../storage/storage.js';

const KEEP = 8;

interface OpenPackage {
  zip: JSZip;
  /** Folder of the package document inside the zip ('' at the root). */
  root: string;
}

export class PackageFiles {
  private readonly open = new Map<string, Promise<OpenPackage | null>>();

  constructor(private readonly storage: ContentStorage) {}

  /** The bytes of `path` (relative to the package document) in the EPUB at `epubKey`; null when either is missing. */
  async read(epubKey: string, path: string): Promise<Buffer | null> {
    const info = await this.storage.stat(epubKey);
    if (!info) return null;
    // Keyed by the stored version too: a package ingested again is opened again.
    const opened = await this.package(epubKey, `${epubKey}@${info.modifiedAt.getTime()}:${info.size}`);
    if (!opened) return null;
    const name = posix.normalize(posix.join(opened.root, path));
    if (name.startsWith('../') || name === '..') return null;
    const entry = opened.zip.file(name);
    return entry ? entry.async('nodebuffer') : null;
  }

  private package(epubKey: string, version: string): Promise<OpenPackage | null> {
    let opened = this.open.get(version);
    if (!opened) {
      opened = this.load(epubKey);
      opened.catch(() => this.open.delete(version));
      this.open.set(version, opened);
      if (this.open.size > KEEP) this.open.delete(this.open.keys().next().value!);
    }
    return opened;
  }

  private async load(epubKey: string): Promise<OpenPackage | null> {
    const data = await this.storage.get(epubKey);
    if (!data) return null;
    const zip = await JSZip.loadAsync(data);
    const container = (await zip.file('META-INF/container.xml')?.async('string')) ?? '';
    const opfPath = /full-path\s*=\s*"([^"]+)"/.exec(container)?.[1] ?? '';
    const root = posix.dirname(opfPath);
    return { zip, root: root === '.' ? '' : root };
  }
}
