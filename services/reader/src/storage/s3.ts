// ContentStorage on an S3-compatible object store (AWS S3, or any server that
// speaks its API: the local stack runs Versity's S3 gateway). Every replica
// reads the same bucket, so reader needs no shared volume. A PUT replaces an
// object atomically, as the interface asks; a stream upload goes in parts and
// appears only when its last part is in (an aborted one leaves nothing).
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { PassThrough, Readable } from 'node:stream';
import { assertSafeKey, type ContentStorage, type StoredObject } from './storage.js';

export interface S3StorageOptions {
  /** `http://127.0.0.1:7070`; unset: AWS's own endpoint for the region. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (`endpoint/bucket/key`): what most S3-compatible servers want. */
  forcePathStyle: boolean;
  /** Every key is stored under this prefix (several environments in one bucket). */
  prefix?: string;
}

/** Part size of a streamed upload: S3's minimum; a part is the most one upload holds in memory. */
const PART_BYTES = 5 * 1024 * 1024;

const missing = (error: unknown): boolean =>
  error instanceof NoSuchKey || error instanceof NotFound || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);

export class S3Storage implements ContentStorage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(options: S3StorageOptions) {
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint && { endpoint: options.endpoint }),
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Checksums only where S3 requires them: S3-compatible servers differ on the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.bucket = options.bucket;
    this.prefix = options.prefix ? `${options.prefix.replace(/\/+$/, '')}/` : '';
  }

  private keyOf(key: string): string {
    assertSafeKey(key);
    return this.prefix + key;
  }

  async put(key: string, data: Buffer | Uint8Array | string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key), Body: typeof data === 'string' ? Buffer.from(data) : data }));
  }

  async putStream(key: string, source: AsyncIterable<Uint8Array>): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.keyOf(key), Body: Readable.from(source) },
      partSize: PART_BYTES,
      queueSize: 1,
      // A failed source aborts the multipart upload: no object, no parts left behind.
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
      return { size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  stream(key: string, range?: { start: number; end: number }): Readable {
    // The interface hands back a stream at once; the GET starts behind it.
    const out = new PassThrough();
    this.client
      .send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key), ...(range && { Range: `bytes=${range.start}-${range.end}` }) }))
      .then((answer) => {
        const body = answer.Body as Readable;
        body.on('error', (error) => out.destroy(error));
        out.on('close', () => body.destroy());
        body.pipe(out);
      })
      .catch((error: unknown) => out.destroy(error as Error));
    return out;
  }

  async list(prefix: string): Promise<string[]> {
    const folder = `${this.keyOf(prefix.replace(/\/+$/, ''))}/`;
    const names = new Set<string>();
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: folder, Delimiter: '/', ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (object.Key) names.add(object.Key.slice(folder.length));
      for (const common of page.CommonPrefixes ?? []) if (common.Prefix) names.add(common.Prefix.slice(folder.length).replace(/\/$/, ''));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return [...names].filter((name) => name !== '');
  }

  /** Like a folder on disk: the object named `prefix` and every object under `prefix/` (never `prefix-other`). */
  async deletePrefix(prefix: string): Promise<void> {
    const exact = this.keyOf(prefix.replace(/\/+$/, ''));
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: exact, ContinuationToken: token }));
      const objects = (page.Contents ?? []).flatMap((object) =>
        object.Key && (object.Key === exact || object.Key.startsWith(`${exact}/`)) ? [{ Key: object.Key }] : [],
      );
      // DeleteObjects takes up to 1,000 keys: a listing page at most.
      if (objects.length > 0) await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: objects, Quiet: true } }));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  close(): void {
    this.client.destroy();
  }
}
