import { describe, expect, it } from 'vitest';
import { normalizeAddress, resolveClientIp, trustedProxies } from './client-ip.js';

describe('client IP resolution', () => {
  const loopback = trustedProxies(['loopback']);
  const nobody = trustedProxies([]);

  it('when the peer is not a trusted proxy, then X-Forwarded-For is ignored', () => {
    expect(resolveClientIp('198.51.100.7', '203.0.113.1', loopback)).toBe('198.51.100.7');
    expect(resolveClientIp('127.0.0.1', '203.0.113.1', nobody)).toBe('127.0.0.1');
  });

  it('when the peer is trusted, then the right-most untrusted hop is the client', () => {
    expect(resolveClientIp('127.0.0.1', '203.0.113.1', loopback)).toBe('203.0.113.1');
    // The client forged the left entry; our proxy appended the real one.
    expect(resolveClientIp('127.0.0.1', '1.2.3.4, 203.0.113.9', loopback)).toBe('203.0.113.9');
  });

  it('when several trusted proxies chain, then they are all skipped', () => {
    const trusted = trustedProxies(['10.0.0.0/8', '127.0.0.1']);
    expect(resolveClientIp('127.0.0.1', '203.0.113.5, 10.1.2.3, 10.9.9.9', trusted)).toBe('203.0.113.5');
  });

  it('when every hop is trusted, then the left-most hop is the client', () => {
    expect(resolveClientIp('127.0.0.1', '127.0.0.2, 127.0.0.3', loopback)).toBe('127.0.0.2');
  });

  it('when a hop is garbage, then the walk stops at the last trusted address', () => {
    expect(resolveClientIp('127.0.0.1', '203.0.113.1, not-an-ip', loopback)).toBe('127.0.0.1');
    expect(resolveClientIp('127.0.0.1', 'not-an-ip, 127.0.0.5', loopback)).toBe('127.0.0.5');
  });

  it('when there is no X-Forwarded-For or it is empty, then the peer is the client', () => {
    expect(resolveClientIp('127.0.0.1', undefined, loopback)).toBe('127.0.0.1');
    expect(resolveClientIp('127.0.0.1', ' , ', loopback)).toBe('127.0.0.1');
  });

  it('when the header is repeated, then the entries are read in order', () => {
    expect(resolveClientIp('127.0.0.1', ['198.51.100.1', '203.0.113.2'], loopback)).toBe('203.0.113.2');
  });

  it('when addresses are IPv4-mapped IPv6 or IPv6, then they are normalized and matched', () => {
    expect(resolveClientIp('::ffff:127.0.0.1', '203.0.113.3', loopback)).toBe('203.0.113.3');
    expect(resolveClientIp('::1', '2001:DB8::1', loopback)).toBe('2001:db8::1');
    expect(normalizeAddress('[::1]')).toBe('::1');
    expect(normalizeAddress('999.1.1.1')).toBeUndefined();
  });

  it('when a CIDR is configured, then addresses inside it are trusted and outside are not', () => {
    const trusted = trustedProxies(['192.168.0.0/16', '2001:db8::/32']);
    expect(trusted('192.168.44.1')).toBe(true);
    expect(trusted('192.169.0.1')).toBe(false);
    expect(trusted('2001:db8:ffff::1')).toBe(true);
    expect(trusted('2001:db9::1')).toBe(false);
  });

  it('when IPv4 entries are single addresses, /0, /32 or odd prefixes, then exactly their ranges are trusted', () => {
    const single = trustedProxies(['203.0.113.7']);
    expect(single('203.0.113.7')).toBe(true);
    expect(single('203.0.113.8')).toBe(false);
    expect(trustedProxies(['0.0.0.0/0'])('255.255.255.255')).toBe(true);
    const odd = trustedProxies(['172.16.0.0/12', '198.51.100.128/25']);
    expect(odd('172.31.255.255')).toBe(true);
    expect(odd('172.32.0.0')).toBe(false);
    expect(odd('172.15.255.255')).toBe(false);
    expect(odd('198.51.100.128')).toBe(true);
    expect(odd('198.51.100.127')).toBe(false);
    expect(odd('::ffff:172.20.1.1')).toBe(true);
    expect(odd('2001:db8::1')).toBe(false);
  });

  it('when an entry is not an IP, CIDR or range name, then compiling it throws', () => {
    expect(() => trustedProxies(['10.0.0.0/33'])).toThrow(/prefix/);
    expect(() => trustedProxies(['proxy.internal'])).toThrow(/not an IP/);
  });
});
