// How a client sends the text of the integrations: v2 apps always encrypt it
// with the reader session key; v1 apps from manifest version 2.0.0 on
// (X-Reader-Manifest-Version), older ones send it as typed.
import { integrations } from '@folio/proto';

const ENCRYPTED_FROM = [2, 0, 0];

/**
 * Numeric comparison of dotted versions (`2.10.0` > `2.9.1`); a pre-release
 * or build suffix is ignored (`2.0.0-beta.1` encrypts), which is why this is
 * not @folio/app-version's comparison, where a pre-release comes before its
 * release. Unparseable or absent means an old client.
 */
export function manifestEncrypts(version: string | undefined): boolean {
  const match = version === undefined ? null : /^\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version);
  if (!match) return false;
  const parts = [match[1], match[2], match[3]].map((part) => Number(part ?? 0));
  for (let i = 0; i < ENCRYPTED_FROM.length; i++) {
    if (parts[i]! !== ENCRYPTED_FROM[i]!) return parts[i]! > ENCRYPTED_FROM[i]!;
  }
  return true;
}

export function textEncodingOf(version: 'v1' | 'v2', manifestVersion: string | undefined): integrations.TextEncoding {
  const encrypted = version === 'v2' || manifestEncrypts(manifestVersion);
  return encrypted ? integrations.TextEncoding.TEXT_ENCODING_ENCRYPTED : integrations.TextEncoding.TEXT_ENCODING_PLAINTEXT;
}
