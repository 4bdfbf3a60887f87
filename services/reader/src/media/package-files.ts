// The files inside a stored EPUB package (chapters, style sheets, images), for
// readers that open a publication file by file (Readium Web Publication
// Manifest) instead of downloading the package. Paths are relative to the
// package root, as the spine and the table of contents name them.
// Recently opened packages stay open (a few, by key and stored version): only
// their central directory is in memory, entries are read by byte range from
// storage and inflated within the archive limits, one request at a time each.
import { posix } from 'node:path';
import { BoundedZip, DEFAULT_ARCHIVE_LIMITS, InflateBudget, type ArchiveLimits } from '../archive/zip-reader.js';
import { decodeXml, deobfuscate, encryptionDeclarations, EpubPathError, readPackageLayout } from '../ingest/epub-package.js';
import type { ContentStorage } from '../storage/storage.js';

const KEEP = 8;

interface OpenPackage {
  zip: BoundedZip;
  /** The package root inside the zip ('' at the zip's root), see epub-package.ts. */
  root: string;
  /** Obfuscated fonts by zip path (META-INF/encryption.xml), served de-obfuscated, and the key they were obfuscated with. */
  obfuscated: Map<string, string>;
  uniqueIdentifier: string;
}

export class PackageFiles {
  private readonly open = new Map<string, Promise<OpenPackage | null>>();

  /** Files of every open package, read whole at once by concurrent requests, hold this much at most. */
  readonly budget: InflateBudget;

  constructor(
    private readonly storage: ContentStorage,
    private readonly limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
    bytesInFlight: number = 2 * limits.maxEntryBytes,
  ) {
    this.budget = new InflateBudget(Math.max(bytesInFlight, limits.maxEntryBytes));
  }

  /**
   * The bytes of `path` (relative to the package document) in the EPUB at `epubKey`; null when either is missing.
   * Throws an ArchiveError when the package or that file breaks the archive limits (a file that inflates past
   * what it declares is cut off there).
   */
  async read(epubKey: string, path: string): Promise<Buffer | null> {
    const info = await this.storage.stat(epubKey);
    if (!info) return null;
    // Keyed by the stored version too: a package ingested again is opened again.
    const opened = await this.package(epubKey, info.size, `${epubKey}@${info.modifiedAt.getTime()}:${info.size}`);
    if (!opened) return null;
    const name = posix.normalize(posix.join(opened.root, path));
    if (name.startsWith('../') || name === '..') return null;
    const data = await opened.zip.read(name);
    // A web reader fetches fonts one by one and cannot undo the obfuscation: it gets the font itself.
    const algorithm = opened.obfuscated.get(name);
    return data && algorithm ? deobfuscate(data, algorithm, opened.uniqueIdentifier) : data;
  }

  private package(epubKey: string, size: number, version: string): Promise<OpenPackage | null> {
    let opened = this.open.get(version);
    if (!opened) {
      opened = this.load(epubKey, size);
      opened.catch(() => this.open.delete(version));
      this.open.set(version, opened);
      if (this.open.size > KEEP) this.open.delete(this.open.keys().next().value!);
    }
    return opened;
  }

  private async load(epubKey: string, size: number): Promise<OpenPackage | null> {
    const source = { size, stream: (start: number, end: number) => this.storage.stream(epubKey, { start, end }) };
    const zip = await BoundedZip.fromSource(source, this.limits, { label: 'the EPUB', budget: this.budget });
    // The same root the ingest named the chapters from; a package whose container or package document
    // does not parse serves nothing (it was refused at ingest).
    const readText = async (path: string) => {
      const data = await zip.readXml(path);
      return data ? decodeXml(data) : undefined;
    };
    const opened = await (async () => {
      const layout = await readPackageLayout(readText);
      const { obfuscated } = encryptionDeclarations(await readText('META-INF/encryption.xml'));
      return { zip, root: layout.root, obfuscated, uniqueIdentifier: layout.uniqueIdentifier };
    })().catch((error: unknown) => {
      if (error instanceof EpubPathError) return null;
      throw error;
    });
    if (!opened) zip.close();
    return opened;
  }
}
