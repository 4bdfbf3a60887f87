import { describe, expect, it } from 'vitest';
import { audioPositions, epubPositions, pagePositions } from './position-list.js';

describe('epubPositions (Readium EpubPositionsService: one position per 1024 bytes of each document, at least one)', () => {
  it('when documents weigh 3000, 1024 and 0 bytes, then they get 3, 1 and 1 positions numbered over the publication', () => {
    const positions = epubPositions([
      { href: 'a.xhtml', type: 'application/xhtml+xml', title: 'A', bytes: 3000 },
      { href: 'b.xhtml', type: 'application/xhtml+xml', bytes: 1024 },
      { href: 'c.xhtml', type: 'application/xhtml+xml', bytes: 0 },
    ]);
    expect(positions.map((p) => [p.href, p.locations.position, p.locations.progression, p.locations.totalProgression])).toEqual([
      ['a.xhtml', 1, 0, 0],
      ['a.xhtml', 2, 1 / 3, 1 / 5],
      ['a.xhtml', 3, 2 / 3, 2 / 5],
      ['b.xhtml', 4, 0, 3 / 5],
      ['c.xhtml', 5, 0, 4 / 5],
    ]);
    expect(positions[0]).toEqual({
      href: 'a.xhtml',
      type: 'application/xhtml+xml',
      title: 'A',
      locations: { position: 1, progression: 0, totalProgression: 0 },
    });
    expect(positions[3]).not.toHaveProperty('title');
  });

  it('when a document has no recorded length (ingested before it was kept), then it is one position', () => {
    expect(epubPositions([{ href: 'a.xhtml', type: 'application/xhtml+xml' }]).map((p) => p.locations.position)).toEqual([1]);
  });
});

describe('pagePositions and audioPositions (one position per resource)', () => {
  it('when a PDF has 4 pages, then each page is a position a quarter further on', () => {
    const pages = pagePositions([1, 2, 3, 4].map((n) => ({ href: `p${n}.png`, type: 'image/png', title: `Page ${n}` })));
    expect(pages.map((p) => [p.locations.position, p.locations.totalProgression])).toEqual([
      [1, 0],
      [2, 0.25],
      [3, 0.5],
      [4, 0.75],
    ]);
  });

  it('when tracks last 10, 30 and 60 seconds, then their total progressions are where they start in time', () => {
    const tracks = audioPositions([10, 30, 60].map((duration, i) => ({ href: `t${i}.mp3`, type: 'audio/mpeg', duration })));
    expect(tracks.map((p) => [p.locations.position, p.locations.totalProgression, p.locations.fragments])).toEqual([
      [1, 0, ['t=0']],
      [2, 0.1, ['t=0']],
      [3, 0.4, ['t=0']],
    ]);
  });

  it('when no track has a duration, then the tracks share the publication evenly', () => {
    expect(
      audioPositions([
        { href: 'a', type: 'audio/mpeg' },
        { href: 'b', type: 'audio/mpeg' },
      ]).map((p) => p.locations.totalProgression),
    ).toEqual([0, 0.5]);
  });
});
