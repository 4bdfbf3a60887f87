// Reads zip archives (EPUB packages) without trusting them. Every zip reader
// opens goes through here: the ingest, the package path of the media server and
// the preview builder. An archive is refused when it is too big, holds too many
// files, or declares a file too big, too compressed (a zip bomb), named outside
// the archive (`../x`, `/x`, `C:/x`), a symbolic link, encrypted, or listed
// twice; and the declared sizes are held while inflating: a file whose data
// inflates to more bytes than it declared is cut off at that point, so one
// file never costs more memory than its declared size, and the whole archive
// never more than the total it declared. yauzl reads the central directory and
// inflates one entry at a time as a stream, from a buffer or from byte ranges
// of a stored object, so the archive itself need not be held in memory.
// Nothing here writes files: entries are only ever returned as bytes.
import { Readable } from 'node:stream';
import yauzl from 'yauzl';

export interface ArchiveLimits {
  /** Bytes of the archive file itself. */
  maxArchiveBytes: number;
  /** Entries in the central directory (directories count). */
  maxEntries: number;
  /** Uncompressed bytes of one entry. */
  maxEntryBytes: number;
  /** Uncompressed bytes of all entries together. */
  maxTotalBytes: number;
  /** Uncompressed over compressed size of one entry (entries under RATIO_FLOOR_BYTES are not held to it). */
  maxRatio: number;
  /** Uncompressed bytes of one XML document (package document, container, navigation, chapters) parsed into a DOM. */
  maxXmlBytes: number;
}

const MB = 1024 * 1024;

/** Limits that fit reader's memory limit (512 MiB, 352 MiB of heap); the service takes its own from its config. */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxArchiveBytes: 200 * MB,
  maxEntries: 10_000,
  maxEntryBytes: 64 * MB,
  maxTotalBytes: 1024 * MB,
  maxRatio: 100,
  maxXmlBytes: 8 * MB,
};

/** A short run of markup or white space compresses far; the ratio only matters for entries of this size and up. */
export const RATIO_FLOOR_BYTES = 1 * MB;

/** The archive is unsafe or broken; the message says why in a publisher's words. */
export class ArchiveError extends Error {
  override readonly name = 'ArchiveError';
}

export interface ArchiveEntry {
  name: string;
  /** Declared uncompressed size (held while inflating). */
  size: number;
  compressedSize: number;
  compressionMethod: number;
  crc32: number;
  lastModFileTime: number;
  lastModFileDate: number;
}

/** A stored object read by byte range (the media server's storage). */
export interface RangeSource {
  size: number;
  /** Bytes `start` to `end` inclusive. */
  stream(start: number, end: number): Readable;
}

export interface OpenOptions {
  /** How the archive is named in messages ("the EPUB"). */
  label?: string;
  /** Aborts every read still running or started later (the ingest's deadline). */
  signal?: AbortSignal;
  /** Shared with other archives: whole-entry reads wait their turn while it is spent. */
  budget?: InflateBudget;
}

/**
 * Bytes that concurrent whole-entry reads may hold at once: a read takes its
 * entry's declared size (at most the whole budget) before it inflates and gives
 * it back when done, waiting in line while the rest is taken. Many requests for
 * big files of many packages then cost the budget, not their sum.
 */
export class InflateBudget {
  private used = 0;
  private readonly waiting: { bytes: number; start: () => void }[] = [];
  /** The most bytes ever taken at once. */
  peak = 0;

  constructor(readonly maxBytes: number) {}

  async take(bytes: number): Promise<number> {
    const taken = Math.min(bytes, this.maxBytes);
    if (this.waiting.length === 0 && this.used + taken <= this.maxBytes) this.reserve(taken);
    // First come, first served: give() reserves the bytes of the head of the line before it starts it.
    else await new Promise<void>((start) => this.waiting.push({ bytes: taken, start }));
    return taken;
  }

  give(bytes: number): void {
    this.used -= bytes;
    while (this.waiting.length > 0 && this.used + this.waiting[0]!.bytes <= this.maxBytes) {
      const next = this.waiting.shift()!;
      this.reserve(next.bytes);
      next.start();
    }
  }

  private reserve(bytes: number): void {
    this.used += bytes;
    this.peak = Math.max(this.peak, this.used);
  }
}

/** Directory entries end with a slash; they carry no data. */
const isDirectory = (name: string) => name.endsWith('/');

/** Unix file type bits of an entry made on Unix (the high half of the external attributes). */
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * MB) return `${(bytes / (1024 * MB)).toFixed(1)} GB`;
  if (bytes >= MB) return `${(bytes / MB).toFixed(bytes >= 10 * MB ? 0 : 1)} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}

class StorageRangeReader extends yauzl.RandomAccessReader {
  constructor(private readonly source: RangeSource) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    // yauzl's end is exclusive, the storage's inclusive; an empty range reads nothing.
    if (end <= start) return Readable.from([]);
    return this.source.stream(start, end - 1);
  }
}

export class BoundedZip {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly byName: Map<string, yauzl.Entry>,
    readonly limits: ArchiveLimits,
    private readonly label: string,
    private readonly signal: AbortSignal | undefined,
    private readonly budget: InflateBudget | undefined,
  ) {}

  /** An archive held in memory (the ingest has read the file). */
  static async fromBuffer(data: Buffer, limits: ArchiveLimits, options: OpenOptions = {}): Promise<BoundedZip> {
    const label = options.label ?? 'the archive';
    checkArchiveSize(data.length, limits, label);
    return BoundedZip.open(() => yauzl.fromBufferPromise(data, OPEN_OPTIONS), limits, label, options);
  }

  /** An archive read by byte ranges: only the central directory and the entries read are fetched. */
  static async fromSource(source: RangeSource, limits: ArchiveLimits, options: OpenOptions = {}): Promise<BoundedZip> {
    const label = options.label ?? 'the archive';
    checkArchiveSize(source.size, limits, label);
    return BoundedZip.open(() => yauzl.fromRandomAccessReaderPromise(new StorageRangeReader(source), source.size, OPEN_OPTIONS), limits, label, options);
  }

  private static async open(opening: () => Promise<yauzl.ZipFile>, limits: ArchiveLimits, label: string, options: OpenOptions): Promise<BoundedZip> {
    options.signal?.throwIfAborted();
    let zip: yauzl.ZipFile;
    try {
      zip = await opening();
    } catch (error) {
      throw new ArchiveError(`${label} is not a readable zip archive (${(error as Error).message})`);
    }
    try {
      if (zip.entryCount > limits.maxEntries) {
        throw new ArchiveError(`${label} holds ${zip.entryCount} files, more than the ${limits.maxEntries} allowed`);
      }
      const byName = new Map<string, yauzl.Entry>();
      let total = 0;
      let count = 0;
      try {
        for await (const entry of zip.eachEntry()) {
          count += 1;
          if (count > limits.maxEntries) throw new ArchiveError(`${label} holds more than the ${limits.maxEntries} files allowed`);
          checkEntry(entry, limits, label);
          if (byName.has(entry.fileName)) throw new ArchiveError(`${label} holds ${entry.fileName} twice`);
          total += entry.uncompressedSize;
          if (total > limits.maxTotalBytes) {
            throw new ArchiveError(`${label} inflates to more than the ${formatBytes(limits.maxTotalBytes)} allowed for all its files together`);
          }
          if (!isDirectory(entry.fileName)) byName.set(entry.fileName, entry);
        }
      } catch (error) {
        if (error instanceof ArchiveError) throw error;
        // yauzl's own refusals: names outside the archive, sizes that disagree, a damaged directory.
        throw new ArchiveError(`${label} cannot be read safely: ${(error as Error).message}`);
      }
      return new BoundedZip(zip, byName, limits, label, options.signal, options.budget);
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  /** Names of the file entries, in archive order. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  entry(name: string): ArchiveEntry | null {
    const entry = this.byName.get(name);
    if (!entry) return null;
    return {
      name,
      size: entry.uncompressedSize,
      compressedSize: entry.compressedSize,
      compressionMethod: entry.compressionMethod,
      crc32: entry.crc32,
      lastModFileTime: entry.lastModFileTime,
      lastModFileDate: entry.lastModFileDate,
    };
  }

  /**
   * The bytes of an entry, inflated with a count: reading stops as soon as the
   * data passes its declared size or `maxBytes` (the per-entry cap unless smaller).
   * Null when the archive has no such file.
   */
  async read(name: string, maxBytes: number = this.limits.maxEntryBytes): Promise<Buffer | null> {
    const entry = this.byName.get(name);
    if (!entry) return null;
    const cap = Math.min(maxBytes, this.limits.maxEntryBytes);
    // Refused before waiting for the budget; then the read holds its declared size of it while it inflates.
    if (entry.uncompressedSize > cap) return this.inflate(entry, cap, () => {}).then(() => null);
    const taken = (await this.budget?.take(entry.uncompressedSize)) ?? 0;
    try {
      const chunks: Buffer[] = [];
      const size = await this.inflate(entry, cap, (chunk) => chunks.push(chunk));
      return Buffer.concat(chunks, size);
    } finally {
      this.budget?.give(taken);
    }
  }

  /** An XML document's bytes, held to the XML cap (the DOM of a document costs several times its size). */
  readXml(name: string): Promise<Buffer | null> {
    return this.read(name, this.limits.maxXmlBytes);
  }

  /** Inflates an entry and throws the bytes away: proves its data is what it declares, at no memory cost. */
  async verify(name: string): Promise<void> {
    const entry = this.byName.get(name);
    if (!entry) throw new ArchiveError(`${this.label} has no ${name}`);
    await this.inflate(entry, this.limits.maxEntryBytes, () => {});
  }

  /** Every file inflated once with a count (and thrown away): the archive holds what its directory declares. */
  async verifyAll(): Promise<void> {
    for (const name of this.byName.keys()) await this.verify(name);
  }

  /** The entry's data as stored in the archive (still compressed), for copying it into another archive unchanged. */
  async raw(name: string): Promise<Buffer> {
    const entry = this.byName.get(name);
    if (!entry) throw new ArchiveError(`${this.label} has no ${name}`);
    this.signal?.throwIfAborted();
    const chunks: Buffer[] = [];
    let length = 0;
    try {
      const stream = await this.zip.openReadStreamPromise(entry, { decodeFileData: false });
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        length += chunk.length;
        if (length > entry.compressedSize) throw new ArchiveError(`${name} in ${this.label} is damaged`);
        chunks.push(chunk);
      }
    } catch (error) {
      throw this.readError(name, error);
    }
    return Buffer.concat(chunks, length);
  }

  /** Releases the archive (a buffer's needs nothing; a ranged source's reader is let go). */
  close(): void {
    this.zip.close();
  }

  private async inflate(entry: yauzl.Entry, maxBytes: number, onChunk: (chunk: Buffer) => void): Promise<number> {
    const name = entry.fileName;
    if (entry.uncompressedSize > maxBytes) {
      throw new ArchiveError(`${name} in ${this.label} is ${formatBytes(entry.uncompressedSize)} uncompressed, more than the ${formatBytes(maxBytes)} allowed`);
    }
    this.signal?.throwIfAborted();
    let size = 0;
    try {
      const stream = await this.zip.openReadStreamPromise(entry);
      const abort = () => stream.destroy(this.signal?.reason instanceof Error ? this.signal.reason : new Error('aborted'));
      this.signal?.addEventListener('abort', abort, { once: true });
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          size += chunk.length;
          // yauzl holds the declared size too; this count does not depend on it.
          if (size > entry.uncompressedSize || size > maxBytes) {
            throw new ArchiveError(
              `${name} in ${this.label} inflates to more than it declares (${formatBytes(entry.uncompressedSize)}): it looks like a zip bomb`,
            );
          }
          onChunk(chunk);
        }
      } finally {
        this.signal?.removeEventListener('abort', abort);
      }
    } catch (error) {
      throw this.readError(name, error);
    }
    if (size !== entry.uncompressedSize) throw new ArchiveError(`${name} in ${this.label} is damaged (shorter than it declares)`);
    return size;
  }

  private readError(name: string, error: unknown): Error {
    if (error instanceof ArchiveError) return error;
    if (this.signal?.aborted) return this.signal.reason instanceof Error ? this.signal.reason : new ArchiveError('reading stopped');
    const message = (error as Error).message;
    if (/too many bytes/i.test(message)) {
      return new ArchiveError(`${name} in ${this.label} inflates to more than it declares: it looks like a zip bomb`);
    }
    return new ArchiveError(`${name} in ${this.label} is damaged (${message})`);
  }
}

const OPEN_OPTIONS: yauzl.Options = { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: false };

function checkArchiveSize(size: number, limits: ArchiveLimits, label: string): void {
  if (size > limits.maxArchiveBytes) throw new ArchiveError(`${label} is ${formatBytes(size)}, more than the ${formatBytes(limits.maxArchiveBytes)} allowed`);
}

function checkEntry(entry: yauzl.Entry, limits: ArchiveLimits, label: string): void {
  const name = entry.fileName;
  if (/[\0]/.test(name) || name === '') throw new ArchiveError(`${label} holds a file with an unusable name`);
  // yauzl refuses absolute names and `..` segments already (decodeStrings); a symbolic link could still point anywhere.
  const madeOnUnix = entry.versionMadeBy >> 8 === 3;
  if (madeOnUnix && ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
    throw new ArchiveError(`${label} holds a symbolic link (${name}), which is not allowed`);
  }
  if (isDirectory(name)) return;
  if (entry.isEncrypted()) throw new ArchiveError(`${name} in ${label} is encrypted`);
  if (!entry.canDecodeFileData()) throw new ArchiveError(`${name} in ${label} uses a compression method other than deflate`);
  if (entry.uncompressedSize > limits.maxEntryBytes) {
    throw new ArchiveError(
      `${name} in ${label} is ${formatBytes(entry.uncompressedSize)} uncompressed, more than the ${formatBytes(limits.maxEntryBytes)} allowed for one file`,
    );
  }
  const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
  if (entry.uncompressedSize >= RATIO_FLOOR_BYTES && ratio > limits.maxRatio) {
    throw new ArchiveError(
      `${name} in ${label} expands ${Math.round(ratio)} times when uncompressed (at most ${limits.maxRatio} allowed): it looks like a zip bomb`,
    );
  }
}
