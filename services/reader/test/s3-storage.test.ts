// The S3 adapter against a real S3-compatible server (the local stack's
// Versity gateway, started by ./dev): what ContentStorage promises, over HTTP.
import { randomBytes } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../src/storage/s3.js';

const storage = new S3Storage({
  endpoint: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:7070',
  region: 'us-east-1',
  bucket: process.env.S3_BUCKET ?? 'folio-content',
  accessKeyId: process.env.S3_ACCESS_KEY_ID ?? 'folio',
  secretAccessKey: process.env.S3_SECRET_ACCESS_KEY ?? 'folio-local-secret',
  forcePathStyle: true,
  // Each run in its own folder of the bucket, removed at the end.
  prefix: `test-${randomBytes(4).toString('hex')}`,
});

afterAll(async () => {
  await storage.deletePrefix('1');
  storage.close();
});

async function* chunksOf(data: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

describe('S3Storage (the local S3-compatible server)', () => {
  it('when an object is put, then get, stat, ranges and listings see it', async () => {
    await storage.put('1/7/cover.svg', '<svg/>');
    expect((await storage.get('1/7/cover.svg'))?.toString()).toBe('<svg/>');
    expect(await storage.stat('1/7/cover.svg')).toMatchObject({ size: 6 });
    expect(await text(storage.stream('1/7/cover.svg', { start: 1, end: 3 }))).toBe('svg');
    await storage.put('1/7/pages/0001.png', 'p');
    expect((await storage.list('1/7')).sort()).toEqual(['cover.svg', 'pages']);
  });

  it('when an object is absent, then get and stat say null and its stream fails', async () => {
    expect(await storage.get('1/404/none')).toBeNull();
    expect(await storage.stat('1/404/none')).toBeNull();
    expect(await storage.list('1/404')).toEqual([]);
    await expect(text(storage.stream('1/404/none'))).rejects.toThrow();
  });

  it('when 12 MB stream in, then the object is whole, in parts of at most 5 MB held at a time', async () => {
    const data = randomBytes(12 * 1024 * 1024);
    await storage.putStream('1/8/uploads/book.epub', chunksOf(data, 1024 * 1024));
    expect((await storage.get('1/8/uploads/book.epub'))?.equals(data)).toBe(true);
  });

  it('when the source of a stream fails, then nothing is stored', async () => {
    async function* failing(): AsyncIterable<Uint8Array> {
      yield randomBytes(6 * 1024 * 1024);
      throw new Error('client went away');
    }
    await expect(storage.putStream('1/9/uploads/broken.epub', failing())).rejects.toThrow();
    expect(await storage.stat('1/9/uploads/broken.epub')).toBeNull();
  });

  it('when a folder is deleted, then every object under it goes and its neighbours stay', async () => {
    await storage.put('1/10/a', 'a');
    await storage.put('1/10/b/c', 'c');
    await storage.put('1/100/a', 'stays');
    await storage.put('1/11/upload', 'one object');
    await storage.deletePrefix('1/11/upload');
    expect(await storage.stat('1/11/upload')).toBeNull();
    await storage.deletePrefix('1/10');
    expect(await storage.stat('1/10/a')).toBeNull();
    expect(await storage.stat('1/10/b/c')).toBeNull();
    expect((await storage.get('1/100/a'))?.toString()).toBe('stays');
  });

  it('when a key would leave its folder, then it is refused before any request', async () => {
    await expect(storage.put('1/../etc/passwd', 'x')).rejects.toThrow(/unsafe storage key/);
  });
});
