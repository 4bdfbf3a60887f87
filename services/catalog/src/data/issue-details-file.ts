// The view's issue details (domain/issue-details.ts) in files: each segment is
// an append-only file, created and unlinked at once in a directory of its
// own, so that nothing is left behind when the process ends, however it ends.
// Its bytes live in the page cache, not in the process's memory.
//
// Appends are buffered (a snapshot restore stores 100,000 issues) and reads of
// buffered bytes are served from the buffer. Released bytes stay in their
// segment: a record replaced while a request holds it still reads its own
// details. When released bytes outweigh the live ones, compact() copies the
// live details into a new segment and relocates their records; the old
// segment's file is closed once no record refers to it any more.
import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import {
  decodeDetails,
  encodeDetails,
  type DetailsLocation,
  type DetailsSegment,
  type EncodedDetails,
  type IssueDetails,
  type IssueDetailsStore,
  type ViewIssue,
} from '../domain/issue-details.js';

const WRITE_BUFFER_BYTES = 64 * 1024;
/** Released bytes below this are never worth a compaction. */
const MIN_COMPACTION_BYTES = 8 * 1024 * 1024;

/** Reads run one at a time on the event loop: one scratch buffer for all segments. */
let scratch = Buffer.allocUnsafe(4096);

/**
 * Details decoded lately, of every segment, least recently read first: the
 * first page of a tenant's shelves shows the same issues to each of its
 * users, so a page is mostly presented from here, without a read and a
 * JSON.parse per issue. Stored bytes never change, so an entry is true for as
 * long as it is kept. Bounded by the stored bytes of its entries (decoded,
 * they take a few times that), whatever the number of tenants.
 */
const RECENT_DETAILS_BYTES = 1024 * 1024;
/** Larger details (a long description) are decoded on each read rather than crowd out many others. */
const RECENT_DETAILS_MAX_LENGTH = 16 * 1024;
const recentDetails = new Map<string, { details: IssueDetails; length: number }>();
let recentBytes = 0;
let segmentCount = 0;

function remember(key: string, details: IssueDetails, length: number): void {
  if (length > RECENT_DETAILS_MAX_LENGTH) return;
  recentDetails.set(key, { details, length });
  recentBytes += length;
  for (const [oldest, entry] of recentDetails) {
    if (recentBytes <= RECENT_DETAILS_BYTES) break;
    recentDetails.delete(oldest);
    recentBytes -= entry.length;
  }
}

/** Closes a segment's file when the segment is garbage collected (no record reads it any more). */
const closeWhenCollected = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing to free.
  }
});

class FileSegment implements DetailsSegment {
  private readonly fd: number;
  /** Bytes in the file; the buffered ones follow. */
  private written = 0;
  /** Allocated by an append, dropped by flush(): a tenant with no pending writes holds none. */
  private buffer: Buffer | undefined;
  private buffered = 0;
  /** Names the segment in recentDetails. */
  private readonly id = ++segmentCount;
  // A page presents an issue field by field: its details are looked up once.
  private lastAt = -1;
  private lastDetails: IssueDetails | undefined;

  constructor(directory: string) {
    const dir = mkdtempSync(join(directory, 'catalog-details-'));
    const path = join(dir, 'segment');
    this.fd = openSync(path, 'w+', 0o600);
    unlinkSync(path);
    rmdirSync(dir);
    closeWhenCollected.register(this, this.fd);
  }

  /** Where the next appended byte goes. */
  get end(): number {
    return this.written + this.buffered;
  }

  append(bytes: Buffer): number {
    const at = this.end;
    if (this.buffered + bytes.length > WRITE_BUFFER_BYTES) this.flush();
    if (bytes.length > WRITE_BUFFER_BYTES) {
      this.writeAll(bytes);
    } else {
      this.buffer ??= Buffer.allocUnsafe(WRITE_BUFFER_BYTES);
      bytes.copy(this.buffer, this.buffered);
      this.buffered += bytes.length;
    }
    return at;
  }

  read(at: number, length: number): IssueDetails {
    if (at === this.lastAt) return this.lastDetails!;
    const key = `${this.id}:${at}`;
    const recent = recentDetails.get(key);
    let details: IssueDetails;
    if (recent) {
      // A hit moves to the end of the map, so what is shown often stays.
      recentDetails.delete(key);
      recentDetails.set(key, recent);
      details = recent.details;
    } else {
      details = this.decode(at, length);
      remember(key, details, length);
    }
    this.lastDetails = details;
    this.lastAt = at;
    return details;
  }

  private decode(at: number, length: number): IssueDetails {
    let text: string;
    if (at >= this.written) {
      const from = at - this.written;
      text = this.buffer!.toString('utf8', from, from + length);
    } else {
      if (scratch.length < length) scratch = Buffer.allocUnsafe(Math.max(length, 2 * scratch.length));
      this.readAll(scratch, length, at);
      text = scratch.toString('utf8', 0, length);
    }
    return decodeDetails(text);
  }

  /** The whole segment's bytes, for copying many records at once. */
  contents(): Buffer {
    this.flush();
    const bytes = Buffer.allocUnsafe(this.written);
    this.readAll(bytes, this.written, 0);
    return bytes;
  }

  /** Writes the buffered bytes to the file (and lets the buffer go). */
  flush(): void {
    if (this.buffered > 0) this.writeAll(this.buffer!.subarray(0, this.buffered));
    this.buffered = 0;
    this.buffer = undefined;
  }

  private writeAll(bytes: Buffer): void {
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, this.written + done);
    this.written += bytes.length;
  }

  private readAll(into: Buffer, length: number, at: number): void {
    let done = 0;
    while (done < length) {
      const read = readSync(this.fd, into, done, length - done, at + done);
      if (read === 0) throw new Error(`issue details segment ends before byte ${at + length}`);
      done += read;
    }
  }
}

/** One tenant's details store: segments in `directory` (the service's temporary directory by default). */
export class IssueDetailsFile implements IssueDetailsStore {
  private active: FileSegment | undefined;
  private liveBytes = 0;
  private releasedBytes = 0;

  constructor(private readonly directory: string) {}

  append(details: IssueDetails): DetailsLocation {
    const bytes = Buffer.from(encodeDetails(details), 'utf8');
    const segment = this.segment();
    const at = segment.append(bytes);
    this.liveBytes += bytes.length;
    return { segment, at, length: bytes.length };
  }

  appendEncoded({ bytes, lengths }: EncodedDetails): DetailsLocation[] {
    const segment = this.segment();
    let at = segment.append(bytes);
    this.liveBytes += bytes.length;
    return Array.from(lengths, (length) => {
      const location = { segment, at, length };
      at += length;
      return location;
    });
  }

  encode(records: readonly ViewIssue[]): EncodedDetails {
    const lengths = Uint32Array.from(records, (record) => record.detailsLength);
    let total = 0;
    for (const length of lengths) total += length;
    const bytes = Buffer.allocUnsafe(total);
    const contents = new Map<DetailsSegment, Buffer>();
    let to = 0;
    for (const record of records) {
      const { segment, at, length } = record.location;
      let source = contents.get(segment);
      if (!source) {
        source = (segment as FileSegment).contents();
        contents.set(segment, source);
      }
      source.copy(bytes, to, at, at + length);
      to += length;
    }
    return { bytes, lengths };
  }

  released(length: number): void {
    this.liveBytes -= length;
    this.releasedBytes += length;
  }

  get wantsCompaction(): boolean {
    return this.releasedBytes >= MIN_COMPACTION_BYTES && this.releasedBytes > this.liveBytes;
  }

  compact(live: Iterable<ViewIssue>): void {
    const records = [...live];
    const encoded = this.encode(records);
    this.active = new FileSegment(this.directory);
    this.liveBytes = 0;
    this.releasedBytes = 0;
    const locations = this.appendEncoded(encoded);
    records.forEach((record, i) => record.relocate(locations[i]!.segment, locations[i]!.at));
  }

  /** Writes what appends buffered (after a batch of changes). */
  flush(): void {
    this.active?.flush();
  }

  private segment(): FileSegment {
    this.active ??= new FileSegment(this.directory);
    return this.active;
  }
}
