// Reads the session liveness keys identity writes
// (services/identity/src/data/session-liveness.ts, which describes the
// format): `<prefix>:<jti>` holds the user while the session is live and `-`
// once it has ended. An absent or unreadable key means "unknown": the gateway
// then asks identity (CheckSession), which writes the key again.

export type Liveness = { state: 'live'; userId: number; email: string; admin: boolean } | { state: 'ended' } | { state: 'unknown' };

const UNKNOWN: Liveness = { state: 'unknown' };

export function sessionKeyOf(prefix: string, jti: string): string {
  return `${prefix}:${jti}`;
}

/** `value` as read from Redis: a string, null when absent, undefined when not read (Redis down, or not asked). */
export function livenessOf(value: string | null | undefined): Liveness {
  if (value === '-') return { state: 'ended' };
  if (!value) return UNKNOWN;
  try {
    const parsed = JSON.parse(value) as { u?: unknown; e?: unknown; a?: unknown };
    if (typeof parsed.u !== 'number' || !Number.isSafeInteger(parsed.u) || parsed.u <= 0) return UNKNOWN;
    return { state: 'live', userId: parsed.u, email: typeof parsed.e === 'string' ? parsed.e : '', admin: parsed.a === true };
  } catch {
    return UNKNOWN;
  }
}
