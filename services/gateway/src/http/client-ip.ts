// Who the client is, for rate limits and identity's login throttles. The
// socket peer is the client unless that peer is a proxy we trust; then we walk
// X-Forwarded-For from the right (the entries our own proxies appended) and
// take the first address that is not one of our proxies. Entries left of it
// were written by the client and prove nothing.
import { BlockList, isIP } from 'node:net';

export type TrustPredicate = (address: string) => boolean;

const NAMED_RANGES: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  uniquelocal: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
};

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is `10.0.0.1`; brackets are dropped. */
export function normalizeAddress(raw: string): string | undefined {
  let address = raw.trim();
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) address = mapped[1]!;
  return isIP(address) ? address.toLowerCase() : undefined;
}

/**
 * Compiles TRUSTED_PROXIES entries (IPs, CIDRs, `loopback`, `linklocal`,
 * `uniquelocal`) into a predicate. Throws on an entry it cannot read, so a
 * typo stops the process instead of trusting nobody (or everybody).
 */
export function trustedProxies(entries: readonly string[]): TrustPredicate {
  // IPv6 goes through node's BlockList; IPv4 (every request's peer and
  // forwarded hops, in practice) through integer masks, because
  // BlockList.check builds a SocketAddress per call and that was ~3 % of the
  // gateway's CPU under load.
  const list = new BlockList();
  const v4: { net: number; mask: number }[] = [];
  const addSubnet = (net: string, prefix: number, type: 'ipv4' | 'ipv6') => {
    if (type === 'ipv4') v4.push({ net: (ipv4ToInt(net)! & maskOf(prefix)) >>> 0, mask: maskOf(prefix) });
    else list.addSubnet(net, prefix, type);
  };
  for (const entry of entries) {
    const named = NAMED_RANGES[entry.toLowerCase()];
    if (named) {
      for (const [net, prefix, type] of named) addSubnet(net, prefix, type);
      continue;
    }
    const [net, prefixText, extra] = entry.split('/');
    const address = net === undefined ? undefined : normalizeAddress(net);
    if (!address || extra !== undefined) throw new Error(`not an IP, CIDR or range name: ${entry}`);
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefixText === undefined) {
      addSubnet(address, type === 'ipv4' ? 32 : 128, type);
      continue;
    }
    const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
    if (!(prefix >= 0 && prefix <= (type === 'ipv4' ? 32 : 128))) throw new Error(`bad prefix length: ${entry}`);
    addSubnet(address, prefix, type);
  }
  return (raw) => {
    const address = normalizeAddress(raw);
    if (!address) return false;
    const n = ipv4ToInt(address);
    if (n === undefined) return list.check(address, 'ipv6');
    for (const { net, mask } of v4) if ((n & mask) >>> 0 === net) return true;
    return false;
  };
}

/** `a.b.c.d` as an unsigned 32-bit integer; undefined for anything else (IPv6). */
function ipv4ToInt(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const part of parts) {
    const octet = Number(part);
    if (!/^\d{1,3}$/.test(part) || octet > 255) return undefined;
    n = n * 256 + octet;
  }
  return n;
}

function maskOf(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/**
 * The client address of a request given its socket peer and X-Forwarded-For.
 * An unreadable entry ends the walk at the last trusted hop: a proxy that
 * forwards garbage is the best we know.
 */
export function resolveClientIp(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, isTrusted: TrustPredicate): string {
  const peer = normalizeAddress(socketAddress ?? '') ?? 'unknown';
  if (!isTrusted(peer) || forwardedFor === undefined) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop.length > 0);
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const address = normalizeAddress(hops[i]!);
    if (!address) return client;
    client = address;
    if (!isTrusted(address)) return address;
  }
  return client;
}
