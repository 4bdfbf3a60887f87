// How a gateway of the release before says whether the text is encrypted:
// by the API version and, on v1, the client's manifest version, instead of
// Caller.text_encoding. This goes with those deprecated fields.
import { integrations } from '@folio/proto';

const ENCRYPTED_FROM = [2, 0, 0];

/**
 * Numeric comparison of dotted versions (`2.10.0` > `2.9.1`); a pre-release
 * or build suffix is ignored. Unparseable or absent means an old client.
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

/** v2, or an unspecified version, is always encrypted, so a caller that does not say cannot turn decryption off. */
export function legacyTextEncrypted(caller: Pick<integrations.Caller, 'apiVersion' | 'manifestVersion'>): boolean {
  return caller.apiVersion !== integrations.ApiVersion.API_VERSION_V1 || manifestEncrypts(caller.manifestVersion);
}
