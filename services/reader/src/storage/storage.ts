// Where content files live: EPUB packages, PDF page images, audio tracks,
// covers and the per-issue text indexes. Keys are `/`-separated relative
// paths (`<tenant>/<issue>/<file>`); adapters map them to their medium (local
// disk here; an S3-compatible bucket would implement the same interface).
import type { Readable } from 'node:stream';

export interface StoredObject {
  size: number;
  modifiedAt: Date;
}

export interface ContentStorage {
  /** Writes the whole object, replacing an existing one atomically. */
  put(key: string, data: Buffer | Uint8Array | string): Promise<void>;
  /**
   * Writes the object from a stream of chunks, never holding it whole;
   * replaces an existing one atomically once the source ended. A source that
   * fails leaves nothing behind (the error is rethrown).
   */
  putStream(key: string, source: AsyncIterable<Uint8Array>): Promise<void>;
  /** The whole object, or null when absent. */
  get(key: string): Promise<Buffer | null>;
  /** Size and modification time, or null when absent. */
  stat(key: string): Promise<StoredObject | null>;
  /** A byte range (inclusive `end`), or the whole object. The caller checked `stat` first. */
  stream(key: string, range?: { start: number; end: number }): Readable;
  /** The names directly inside a folder (objects and sub-folders, without the prefix), none when absent. */
  list(prefix: string): Promise<string[]>;
  /** Removes every object whose key starts with `prefix` (a folder). */
  deletePrefix(prefix: string): Promise<void>;
}

/** A key is safe when it has no empty, `.` or `..` segment and no backslash or NUL. */
export function assertSafeKey(key: string): void {
  if (key.length === 0 || key.length > 1024 || /[\\\0]/.test(key)) throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
  }
}
