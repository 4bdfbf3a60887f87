// One access token, one encoding. ECDSA signatures are malleable (if (r, s)
// verifies, so does (r, n - s)) and base64url has spare bits in its last
// character, so without a rule a valid token has several spellings that all
// verify. The rule: an ES256 signature is 64 bytes in canonical base64url with
// s <= n/2. Identity signs in that form (WebCrypto, which jose uses, returns
// either form at random, so half its signatures are flipped), and the gateway
// refuses anything else.

/** Order of the P-256 group (ES256), and its half. */
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const HALF_N = N >> 1n;

const sOf = (signature: Buffer) => BigInt(`0x${signature.subarray(32).toString('hex')}`);

function withS(jws: string, signature: Buffer, s: bigint): string {
  const encoded = Buffer.from(s.toString(16).padStart(64, '0'), 'hex');
  return `${jws.slice(0, jws.lastIndexOf('.') + 1)}${Buffer.concat([signature.subarray(0, 32), encoded]).toString('base64url')}`;
}

/** True when the JWS's signature is 64 bytes in canonical base64url with 0 < s <= n/2. */
export function hasCanonicalLowS(jws: string): boolean {
  const encoded = jws.slice(jws.lastIndexOf('.') + 1);
  if (encoded.length !== 86) return false;
  const signature = Buffer.from(encoded, 'base64url');
  if (signature.length !== 64 || signature.toString('base64url') !== encoded) return false;
  const s = sOf(signature);
  return s > 0n && s <= HALF_N;
}

/** The same JWS with its ES256 signature in low-S form (what a signer sends). */
export function withLowS(jws: string): string {
  const signature = Buffer.from(jws.slice(jws.lastIndexOf('.') + 1), 'base64url');
  if (signature.length !== 64) throw new Error('not an ES256 signature');
  const s = sOf(signature);
  return s <= HALF_N ? jws : withS(jws, signature, N - s);
}

/** The same signature with s replaced by n - s: the malleated twin, which verifies too (tests). */
export function flipS(jws: string): string {
  const signature = Buffer.from(jws.slice(jws.lastIndexOf('.') + 1), 'base64url');
  return withS(jws, signature, N - sOf(signature));
}
