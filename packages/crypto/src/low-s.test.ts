import { generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { flipS, hasCanonicalLowS, withLowS } from './low-s.js';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An ES256 JWS as WebCrypto makes it: r || s (IEEE P1363), s in either form. */
function es256(payload: object, key: KeyObject = privateKey): string {
  const input = `${b64({ alg: 'ES256' })}.${b64(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

const verifies = (jws: string) => {
  const dot = jws.lastIndexOf('.');
  return verify('sha256', Buffer.from(jws.slice(0, dot)), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(jws.slice(dot + 1), 'base64url'));
};

describe('the low-S rule', () => {
  it('when tokens are signed and put in low-S form, then every one passes the check and still verifies', () => {
    let flipped = 0;
    for (let i = 0; i < 40; i++) {
      const raw = es256({ i });
      const low = withLowS(raw);
      if (low !== raw) flipped += 1;
      expect(hasCanonicalLowS(low)).toBe(true);
      expect(verifies(low)).toBe(true);
    }
    // The signer picks either form: 40 signatures without a single high-S one is a 1 in 10^12 event.
    expect(flipped).toBeGreaterThan(0);
  });

  it('when a signature and its malleated twin are checked, then both verify and exactly one passes', () => {
    for (let i = 0; i < 10; i++) {
      const token = es256({ i });
      expect(verifies(flipS(token))).toBe(true);
      expect(hasCanonicalLowS(token) !== hasCanonicalLowS(flipS(token))).toBe(true);
    }
  });

  it('when the signature is not 64 canonical bytes, then it fails', () => {
    expect(hasCanonicalLowS('a.b.c')).toBe(false);
    expect(hasCanonicalLowS(`a.b.${'A'.repeat(85)}B`)).toBe(false); // spare bits set
    expect(hasCanonicalLowS(`a.b.${'A'.repeat(86)}`)).toBe(false); // s = 0
    expect(() => withLowS('a.b.c')).toThrow('not an ES256 signature');
  });
});
