// ECDSA signatures are malleable: if (r, s) is valid, so is (r, n - s). The
// gateway accepts only the low form (s <= n/2), so that one token has one
// encoding (issue 10, item 7); identity therefore signs in that form. WebCrypto
// (which jose uses) returns either at random, so half the signatures are
// flipped here. The gateway's check is services/gateway/src/upstreams/low-s.ts.

/** Order of the P-256 group (ES256). */
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const HALF_N = N >> 1n;

/** The same JWS with its ES256 signature in low-S form. */
export function withLowS(jws: string): string {
  const dot = jws.lastIndexOf('.');
  const signature = Buffer.from(jws.slice(dot + 1), 'base64url');
  if (signature.length !== 64) throw new Error('not an ES256 signature');
  const s = BigInt(`0x${signature.subarray(32).toString('hex')}`);
  if (s <= HALF_N) return jws;
  const low = Buffer.from((N - s).toString(16).padStart(64, '0'), 'hex');
  return `${jws.slice(0, dot + 1)}${Buffer.concat([signature.subarray(0, 32), low]).toString('base64url')}`;
}
