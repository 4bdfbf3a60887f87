import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TokenService } from './tokens.js';

const tokens = new TokenService(randomBytes(32).toString('base64'), 3600, 600);
const claims = { sessionId: 7, tenantId: 1, userId: 42, issueId: 1001, preview: false, previewLimit: null };

/** The same bytes spelled another way: the last character of the tag with one unused bit set. */
function respell(token: string): string | undefined {
  const parts = token.split('.');
  const tag = parts[4]!;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(tag.at(-1)!);
  // A 16-byte tag is 22 characters; the last one carries 2 real bits and 4 unused ones.
  const other = alphabet[last | 1];
  if (other === tag.at(-1)) return undefined;
  parts[4] = tag.slice(0, -1) + other;
  return parts.join('.');
}

describe('reader-tokens', () => {
  it('when a token is verified, then its claims come back', async () => {
    const token = await tokens.issueReaderToken(claims, tokens.readerTokenExpiry());
    await expect(tokens.verifyReaderToken(token)).resolves.toMatchObject(claims);
  });

  it('when a token is spelled differently but decodes to the same bytes, then it is refused', async () => {
    let token = await tokens.issueReaderToken(claims, tokens.readerTokenExpiry());
    let other = respell(token);
    while (other === undefined) {
      token = await tokens.issueReaderToken(claims, tokens.readerTokenExpiry());
      other = respell(token);
    }
    expect(Buffer.from(other.split('.')[4]!, 'base64url')).toEqual(Buffer.from(token.split('.')[4]!, 'base64url'));
    await expect(tokens.verifyReaderToken(other)).rejects.toThrow(/invalid/);
  });
});
