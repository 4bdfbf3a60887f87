import { createDecipheriv, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptText, deriveTextKey, encryptText, TextDecryptionError } from './index.js';

const token = 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..reader-token-example';

describe('reader text encryption', () => {
  it('when text is encrypted, then it decrypts with the same reader-token, accents included', () => {
    const payload = encryptText(token, 'Café con Letras — «página» 12');
    expect(decryptText(token, payload)).toBe('Café con Letras — «página» 12');
  });

  it('when decrypted independently by the brief, then the wire form is iv || ciphertext || tag under HKDF-SHA256', () => {
    const payload = Buffer.from(encryptText(token, 'hello'), 'base64');
    const key = Buffer.from(hkdfSync('sha256', token, Buffer.alloc(0), 'svc-reader-text-v1', 32));
    const decipher = createDecipheriv('aes-256-gcm', key, payload.subarray(0, 12));
    decipher.setAuthTag(payload.subarray(payload.length - 16));
    expect(Buffer.concat([decipher.update(payload.subarray(12, payload.length - 16)), decipher.final()]).toString()).toBe('hello');
    expect(deriveTextKey(token)).toEqual(key);
  });

  it('when the payload is for another reader-token, tampered, short or not base64, then it is refused', () => {
    const payload = encryptText(token, 'secret');
    expect(() => decryptText('another-token', payload)).toThrow(TextDecryptionError);
    const tampered = Buffer.from(payload, 'base64');
    tampered[14]! ^= 1;
    expect(() => decryptText(token, tampered.toString('base64'))).toThrow(TextDecryptionError);
    expect(() => decryptText(token, 'c2hvcnQ=')).toThrow(TextDecryptionError);
    expect(() => decryptText(token, 'not base64 at all!')).toThrow(TextDecryptionError);
  });

  it('when the same text is encrypted twice, then the payloads differ (fresh iv)', () => {
    expect(encryptText(token, 'x')).not.toBe(encryptText(token, 'x'));
  });

  it('when many texts are encrypted, across refills of the IV pool, then no IV repeats', () => {
    const ivs = new Set<string>();
    for (let n = 0; n < 1_000; n++) ivs.add(Buffer.from(encryptText(token, 'x'), 'base64').subarray(0, 12).toString('hex'));
    expect(ivs.size).toBe(1_000);
  });

  it('when more reader-tokens are used than keys are kept, then every key is still the HKDF of its token', () => {
    const tokens = Array.from({ length: 1_100 }, (_, n) => `${token}-${n}`);
    for (const each of tokens) deriveTextKey(each);
    for (const each of [tokens[0]!, tokens[1_099]!]) {
      expect(deriveTextKey(each)).toEqual(Buffer.from(hkdfSync('sha256', each, Buffer.alloc(0), 'svc-reader-text-v1', 32)));
      expect(decryptText(each, encryptText(each, 'kept'))).toBe('kept');
    }
  });
});
