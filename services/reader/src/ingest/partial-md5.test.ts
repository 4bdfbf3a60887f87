import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PARTIAL_MD5_OFFSETS, partialMd5 } from './partial-md5.js';

const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');

describe("KOReader's partial MD5", () => {
  it('when computed, then the samples are 1024 bytes at 0, 1 KiB, 4 KiB, 16 KiB ... 1 GiB', () => {
    expect(PARTIAL_MD5_OFFSETS).toEqual([0, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864, 268435456, 1073741824]);
  });

  it('when the file is shorter than 1 KiB, then it is the MD5 of the whole file', () => {
    const data = Buffer.from('a small file');
    expect(partialMd5(data)).toBe(md5(data));
  });

  it('when the file is 5000 bytes, then the samples are [0,1024), [1024,2048) and the short [4096,5000)', () => {
    const data = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) % 251));
    const expected = md5(Buffer.concat([data.subarray(0, 1024), data.subarray(1024, 2048), data.subarray(4096, 5000)]));
    expect(partialMd5(data)).toBe(expected);
  });

  it('when only bytes outside the samples change, then the hash does not', () => {
    const data = Buffer.alloc(20_000, 1);
    const changed = Buffer.from(data);
    changed[3000] = 9;
    expect(partialMd5(changed)).toBe(partialMd5(data));
    changed[4100] = 9;
    expect(partialMd5(changed)).not.toBe(partialMd5(data));
  });
});
