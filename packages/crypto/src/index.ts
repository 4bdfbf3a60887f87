// Text encryption "with the reader session key" (architecture brief): notes'
// totalText in responses and integration text in requests are protected with
// AES-256-GCM under a key derived by HKDF-SHA256 from the reader-token string
// (salt empty, info `svc-reader-text-v1`). Wire form: base64(iv[12] || ciphertext || tag[16]).
// Also the one ES256 signature form access tokens may take (low-s.ts).
import { createCipheriv, createDecipheriv, hkdfSync, randomFillSync } from 'node:crypto';

export { flipS, hasCanonicalLowS, withLowS } from './low-s.js';

const INFO = 'svc-reader-text-v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Fresh random IVs, drawn from the CSPRNG 256 at a time (as node's own
 * randomUUID buffers its entropy): a note list encrypts every note's text, and
 * one randomBytes(12) per note was ~6 % of the gateway's CPU on
 * GET /reader/notes. Each IV is used once: a refill allocates a new pool
 * instead of overwriting bytes a caller may still hold.
 */
const IVS_PER_POOL = 256;
let ivPool = Buffer.alloc(0);
let ivOffset = 0;

function nextIv(): Buffer {
  if (ivOffset + IV_BYTES > ivPool.length) {
    ivPool = randomFillSync(Buffer.allocUnsafe(IV_BYTES * IVS_PER_POOL));
    ivOffset = 0;
  }
  const iv = ivPool.subarray(ivOffset, ivOffset + IV_BYTES);
  ivOffset += IV_BYTES;
  return iv;
}

/**
 * Keys of recent reader-tokens: a reader session sends its token with every
 * request, and HKDF per request was ~3 % of the gateway's CPU on note lists.
 * Bounded; the oldest entry goes first.
 */
const MAX_CACHED_KEYS = 1_024;
const keys = new Map<string, Buffer>();

/** A payload that is not base64, too short, or fails authentication under this reader-token's key. */
export class TextDecryptionError extends Error {
  override readonly name = 'TextDecryptionError';
  constructor() {
    super('The text could not be decrypted with this reader session.');
  }
}

export function deriveTextKey(readerToken: string): Buffer {
  const cached = keys.get(readerToken);
  if (cached) return cached;
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(readerToken, 'utf8'), Buffer.alloc(0), INFO, 32));
  if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value as string);
  keys.set(readerToken, key);
  return key;
}

export function encryptText(readerToken: string, plaintext: string, key: Buffer = deriveTextKey(readerToken)): string {
  const iv = nextIv();
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
