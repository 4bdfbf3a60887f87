import { describe, expect, it } from 'vitest';
import { isNewerPosition, positionVersion, SerialPerKey, validateLocation } from './positions.js';
import type { ContentManifest } from './repositories.js';

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

describe('SerialPerKey (one position saved at a time per replica)', () => {
  const later = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

  it('when tasks of one key arrive together, then they run one after another in order of arrival; another key does not wait', async () => {
    const serial = new SerialPerKey();
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`${name} start`);
      await later();
      events.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([serial.run('a', task('a1')), serial.run('a', task('a2')), serial.run('b', task('b1'))]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(events.indexOf('a1 end')).toBeLessThan(events.indexOf('a2 start'));
    expect(events.indexOf('b1 start')).toBeLessThan(events.indexOf('a1 end'));
  });

  it('when a task fails, then its caller gets the error and the next task of the key still runs', async () => {
    const serial = new SerialPerKey();
    const failing = serial.run('a', async () => {
      await later();
      throw new Error('store down');
    });
    const next = serial.run('a', async () => 'next');
    await expect(failing).rejects.toThrow('store down');
    await expect(next).resolves.toBe('next');
  });
});

describe('validateLocation', () => {
  const epub = { epub: { spine: [{ href: 'text/chapter-1.xhtml' }] } } as unknown as ContentManifest;

  it('when an EPUB position has a NUL character (storage refuses it), then it is refused on that field', () => {
    expect(() => validateLocation(epub, { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2!/4\u0000)' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', details: { fieldErrors: { 'lastLocation.cfi': ['must not contain NUL characters'] } } }),
    );
    expect(validateLocation(epub, { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2!/4)' })).toEqual({
      chapterHref: 'text/chapter-1.xhtml',
      cfi: 'epubcfi(/6/2!/4)',
    });
  });
});
