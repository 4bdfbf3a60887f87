import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverSvg } from '../ingest/cover.js';
import { LocalDiskStorage } from '../storage/local-disk.js';
import { CoverRasters } from './cover-raster.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('PNG renditions of SVG covers', () => {
  let dir: string;
  let storage: LocalDiskStorage;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cover-raster-'));
    storage = new LocalDiskStorage(dir);
    await storage.put('1/1001/cover.svg', coverSvg({ title: 'The Harbour at Dawn', author: 'Mara Ellison' }));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('when a generated cover is asked for as PNG, then it is a PNG of the SVG size, with its title drawn', async () => {
    const rasters = new CoverRasters(storage);
    const raster = await rasters.png('1/1001/cover.svg');
    expect(raster?.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    // IHDR: width and height, big-endian, at bytes 16-23.
    expect([raster!.png.readUInt32BE(16), raster!.png.readUInt32BE(20)]).toEqual([600, 900]);
    // The same cover without its text compresses smaller: the title was drawn with the shipped font.
    await storage.put('1/1002/cover.svg', coverSvg({ title: ' ' }));
    const blank = await rasters.png('1/1002/cover.svg');
    expect(raster!.png.length).toBeGreaterThan(blank!.png.length + 1_000);
  });

  it('when asked twice, then the second answer comes from memory; a missing cover is null', async () => {
    const rasters = new CoverRasters(storage);
    const first = await rasters.png('1/1001/cover.svg');
    expect(await rasters.png('1/1001/cover.svg')).toBe(first);
    expect(await rasters.png('1/9999/cover.svg')).toBeNull();
  });
});
