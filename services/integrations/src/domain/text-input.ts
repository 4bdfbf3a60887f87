// The two-layer text limits of the integrations (spec, Limits): layer 1
// checks the payload as it arrived (encrypted, so about 50% longer), layer 2
// the decrypted text. Text is encrypted with the reader session key unless
// the gateway says the client sends it as typed (older v1 apps), which still
// gets both layers (layer 1 is then trivially the looser one, except for the
// dictionary's word limit).
import { decryptText, TextDecryptionError } from '@folio/crypto';
import { invalidArgument } from '@folio/errors';
import type { Caller } from './caller.js';

export interface TextLimits {
  /** Layer 1: characters of the payload as sent. */
  maxPayloadChars: number;
  /** Layer 2: characters of the decrypted text. */
  minChars?: number;
  maxChars?: number;
  maxWords?: number;
}

/** The spec's table, one row per endpoint. */
export const LIMITS = {
  ai: { maxPayloadChars: 7500, minChars: 10, maxChars: 4000 },
  translate: { maxPayloadChars: 1900, maxChars: 1000 },
  listen: { maxPayloadChars: 750, maxChars: 500 },
  dictionary: { maxPayloadChars: 150, maxWords: 5 },
} satisfies Record<string, TextLimits>;

const refuse = (reason: string) => invalidArgument('The given data was invalid.', { text: [reason] });

/** Counts user-perceived characters as code points, so an emoji is one character, not two UTF-16 units. */
export const charCount = (text: string) => [...text].length;
export const wordsOf = (text: string) => text.split(/\s+/u).filter((word) => word.length > 0);

/** The plaintext of `payload` after both layers, or a 422 naming the limit that failed. */
export function readText(caller: Caller, payload: string, limits: TextLimits): string {
  if (payload.trim().length === 0) throw refuse('The text field is required.');
  const encrypted = caller.textEncrypted;
  if (payload.length > limits.maxPayloadChars) {
    throw refuse(
      encrypted
        ? `The encrypted text must not be longer than ${limits.maxPayloadChars} characters (encrypted limit).`
        : `The text must not be longer than ${limits.maxPayloadChars} characters (payload limit).`,
    );
  }
  let text = payload;
  if (encrypted) {
    try {
      text = decryptText(caller.readerToken, payload);
    } catch (error) {
      if (error instanceof TextDecryptionError) throw refuse('The text could not be decrypted with this reader session.');
      throw error;
    }
  }
  const trimmed = text.trim();
  if (trimmed.length === 0) throw refuse('The text field is required.');
  const chars = charCount(trimmed);
  if (limits.minChars !== undefined && chars < limits.minChars) {
    throw refuse(`The text must be at least ${limits.minChars} characters (text limit).`);
  }
  if (limits.maxChars !== undefined && chars > limits.maxChars) {
    throw refuse(`The text must not be longer than ${limits.maxChars} characters (text limit).`);
  }
  if (limits.maxWords !== undefined && wordsOf(trimmed).length > limits.maxWords) {
    throw refuse(`The text must not have more than ${limits.maxWords} words (text limit).`);
  }
  return trimmed;
}
