// KOReader's document hash ("partial MD5", frontend/util.lua `partialMD5`):
// MD5 over 1024-byte samples at offsets lshift(1024, 2*i) for i = -1..10,
// where LuaJIT's 32-bit lshift(1024, -2) is 0: offsets 0, 1024, 4096,
// 16384, ..., 1 GiB. A sample past the end stops the loop; the last one may
// be short. KOReader names a document by this hash in its progress sync.
import { createHash } from 'node:crypto';

const STEP = 1024;
const SIZE = 1024;

export const PARTIAL_MD5_OFFSETS: readonly number[] = [0, ...Array.from({ length: 11 }, (_, i) => STEP * 4 ** i)];

export function partialMd5(data: Buffer): string {
  const md5 = createHash('md5');
  for (const offset of PARTIAL_MD5_OFFSETS) {
    if (offset >= data.length) break;
    md5.update(data.subarray(offset, Math.min(offset + SIZE, data.length)));
  }
  return md5.digest('hex');
}
