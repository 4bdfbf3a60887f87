import { generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { flipS, hasCanonicalLowS } from './low-s.js';

describe('hasCanonicalLowS', () => {
  it('when a signature and its malleated twin are checked, then exactly one of them passes', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    for (let i = 0; i < 10; i++) {
      const token = await new SignJWT({ i }).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
      expect(hasCanonicalLowS(token) !== hasCanonicalLowS(flipS(token))).toBe(true);
    }
  });

  it('when the signature is not 64 canonical bytes, then it fails', () => {
    expect(hasCanonicalLowS('a.b.c')).toBe(false);
    expect(hasCanonicalLowS(`a.b.${'A'.repeat(85)}B`)).toBe(false); // spare bits set
    expect(hasCanonicalLowS(`a.b.${'A'.repeat(86)}`)).toBe(false); // s = 0
  });
});
