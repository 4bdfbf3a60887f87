import { generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { withLowS } from './low-s.js';

const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const sOf = (jws: string) => BigInt(`0x${Buffer.from(jws.split('.')[2]!, 'base64url').subarray(32).toString('hex')}`);

describe('withLowS', () => {
  it('when tokens are signed, then every one comes out low-S and still verifies', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    let flipped = 0;
    for (let i = 0; i < 40; i++) {
      const raw = await new SignJWT({ i }).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
      const low = withLowS(raw);
      if (low !== raw) flipped += 1;
      expect(sOf(low) <= N >> 1n).toBe(true);
      await expect(jwtVerify(low, publicKey)).resolves.toBeTruthy();
    }
    // WebCrypto picks either form: 40 signatures without a single high-S one is a 1 in 10^12 event.
    expect(flipped).toBeGreaterThan(0);
  });
});
