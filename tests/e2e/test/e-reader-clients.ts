// What an e-reader or OPDS app sends, written out here so that the tests do
// not trust the services' copies: KOReader's document hash and key digest,
// HTTP Basic with a device key, and the file such an app downloads.
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { api, fetchContent } from './reader-helpers.js';

export const KOREADER_V1 = 'application/vnd.koreader.v1+json';
export const OPDS_PROGRESSION = 'application/opds-progression+json';

export const md5 = (value: string | Buffer) => createHash('md5').update(value).digest('hex');

/** KOReader's util.partialMD5: 1 KiB at 0 and at 1024 * 4^i, for i up to 10. */
export function koreaderHash(data: Buffer): string {
  const hash = createHash('md5');
  for (let i = -1; i <= 10; i++) {
    const offset = i < 0 ? 0 : 1024 * 4 ** i;
    if (offset >= data.length) break;
    hash.update(data.subarray(offset, offset + 1024));
  }
  return hash.digest('hex');
}

export const basicAuth = (email: string, key: string) => ({ authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` });

/** A new device key of the user (the key itself, shown once). */
export async function createDeviceKey(token: string, label: string): Promise<string> {
  const created = await api('POST', '/api/v2/user/device-keys', { token, body: { label } });
  if (created.status !== 201) throw new Error(`device key: ${created.status} ${created.text}`);
  return created.body.key as string;
}

/** The KOReader document of an issue: the hash of the file its OPDS acquisition link downloads on the store `host`. */
export async function koreaderDocumentOf(host: string, token: string, issueId: number): Promise<string> {
  const redirect = await api('GET', `/opds/download/${issueId}`, { headers: { host }, token });
  expect(redirect.status).toBe(302);
  const file = await fetchContent(redirect.headers.get('location')!);
  expect(file.status).toBe(200);
  return koreaderHash(file.bytes);
}
