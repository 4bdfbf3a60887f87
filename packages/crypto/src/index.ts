// Text encryption "with the reader session key" (architecture brief): notes'
// totalText in responses and integration text in requests are protected with
// AES-256-GCM under a key derived by HKDF-SHA256 from the reader-token string
// (salt empty, info `svc-reader-text-v1`). Wire form: base64(iv[12] || ciphertext || tag[16]).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const INFO = 'svc-reader-text-v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A payload that is not base64, too short, or fails authentication under this reader-token's key. */
export class TextDecryptionError extends Error {
  override readonly name = 'TextDecryptionError';
  constructor() {
    super('The text could not be decrypted with this reader session.');
  }
}

export function deriveTextKey(readerToken: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(readerToken, 'utf8'), Buffer.alloc(0), INFO, 32));
}

export function encryptText(readerToken: string, plaintext: string, key: Buffer = deriveTextKey(readerToken)): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64');
}

export function decryptText(readerToken: string, payload: string, key: Buffer = deriveTextKey(readerToken)): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) throw new TextDecryptionError();
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new TextDecryptionError();
  const iv = bytes.subarray(0, IV_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  const ciphertext = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new TextDecryptionError();
  }
}
