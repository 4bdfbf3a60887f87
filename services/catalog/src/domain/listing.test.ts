import { describe, expect, it } from 'vitest';
import { fillTemplate, pageMeta } from './listing.js';

describe('listing', () => {
  it('when page meta is built for an empty page, then from and to are null and last_page is 1', () => {
    expect(pageMeta(0, 1, 8, 0)).toEqual({ currentPage: 1, from: null, to: null, lastPage: 1, perPage: 8, total: 0 });
    expect(pageMeta(17, 3, 8, 1)).toEqual({ currentPage: 3, from: 17, to: 17, lastPage: 3, perPage: 8, total: 17 });
  });

  it('when a URL template is filled, then the values are URL-encoded and unknown placeholders stay', () => {
    expect(fillTemplate('http://{domain}:8080', { domain: 'sur.localhost' })).toBe('http://sur.localhost:8080');
    expect(fillTemplate('/{issue_id}/{other}', { issue_id: 'a b' })).toBe('/a%20b/{other}');
  });
});
