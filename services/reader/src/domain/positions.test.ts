import { describe, expect, it } from 'vitest';
import { isNewerPosition, positionVersion } from './positions.js';

describe('isNewerPosition (the rule every position write follows: API and KOReader sync)', () => {
  const at = (iso: string) => ({ readAt: new Date(iso) });

  it('when nothing is stored, then the write wins', () => {
    expect(isNewerPosition(at('2026-11-25T10:00:00Z'), null)).toBe(true);
  });

  it('when the write is later or as late as the stored position, then it wins; when earlier, then the stored one stays', () => {
    expect(isNewerPosition(at('2026-11-25T10:00:01Z'), at('2026-11-25T10:00:00Z'))).toBe(true);
    expect(isNewerPosition(at('2026-11-25T10:00:00Z'), at('2026-11-25T10:00:00Z'))).toBe(true);
    expect(isNewerPosition(at('2026-11-25T09:59:59Z'), at('2026-11-25T10:00:00Z'))).toBe(false);
  });
});

describe('positionVersion', () => {
  it('when the time or the place changes, then the version changes; the same position has the same version', () => {
    const position = { location: { page: 2 }, read_at: new Date('2026-11-25T10:00:00Z') };
    expect(positionVersion(position)).toBe(positionVersion({ ...position }));
    expect(positionVersion(position)).not.toBe(positionVersion({ ...position, location: { page: 3 } }));
    expect(positionVersion(position)).not.toBe(positionVersion({ ...position, read_at: new Date('2026-11-25T10:00:00.001Z') }));
    expect(positionVersion(position)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
