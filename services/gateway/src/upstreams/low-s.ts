// One access token, one encoding. ECDSA signatures are malleable (if (r, s)
// verifies, so does (r, n - s)) and base64url has spare bits in its last
// character, so without these checks a valid token has several spellings that
// all verify (issue 10, item 7). Identity signs in low-S form
// (services/identity/src/domain/low-s.ts); anything else is refused here.

/** Order of the P-256 group (ES256), and its half. */
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const HALF_N = N >> 1n;

/** True when the JWS's signature is 64 bytes in canonical base64url with s <= n/2. */
export function hasCanonicalLowS(jws: string): boolean {
  const encoded = jws.slice(jws.lastIndexOf('.') + 1);
  if (encoded.length !== 86) return false;
  const signature = Buffer.from(encoded, 'base64url');
  if (signature.length !== 64 || signature.toString('base64url') !== encoded) return false;
  const s = BigInt(`0x${signature.subarray(32).toString('hex')}`);
  return s > 0n && s <= HALF_N;
}

/** The same signature with s replaced by n - s: the malleated twin (tests). */
export function flipS(jws: string): string {
  const dot = jws.lastIndexOf('.');
  const signature = Buffer.from(jws.slice(dot + 1), 'base64url');
  const s = BigInt(`0x${signature.subarray(32).toString('hex')}`);
  const flipped = Buffer.from((N - s).toString(16).padStart(64, '0'), 'hex');
  return `${jws.slice(0, dot + 1)}${Buffer.concat([signature.subarray(0, 32), flipped]).toString('base64url')}`;
}
