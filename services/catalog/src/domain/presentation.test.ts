import { describe, expect, it } from 'vitest';
import { fillTemplate, formatDateTime, langOf, libraryFilterKeys, pageMeta, statusLabel, wantsFilterParams } from './presentation.js';

describe('presentation', () => {
  it('when versions are compared, then they compare numerically from 1.28.0 on', () => {
    expect(wantsFilterParams('1.28.0')).toBe(true);
    expect(wantsFilterParams('1.28.1')).toBe(true);
    expect(wantsFilterParams('1.100')).toBe(true);
    expect(wantsFilterParams('2')).toBe(true);
    expect(wantsFilterParams('v1.30.0-beta')).toBe(true);
    expect(wantsFilterParams('1.9.0')).toBe(false);
    expect(wantsFilterParams('1.27.99')).toBe(false);
    expect(wantsFilterParams('')).toBe(false);
    expect(wantsFilterParams('garbage')).toBe(false);
    // One rule with the gateway (@folio/app-version): a pre-release of 1.28.0 is not 1.28.0 or later.
    expect(wantsFilterParams('1.28.0-beta')).toBe(false);
  });

  it('when filter keys are built, then new clients get the query-string form and old ones the pair', () => {
    expect(libraryFilterKeys('section', 'latest_issues', '1.28.0')).toEqual({ filterParams: 'section=latest_issues' });
    expect(libraryFilterKeys('section', 'latest_issues', '1.0.0')).toEqual({ filterName: 'section', filterValue: 'latest_issues' });
  });

  it('when page meta is built for an empty page, then from and to are null and last_page is 1', () => {
    expect(pageMeta(0, 1, 8, 0)).toEqual({ currentPage: 1, from: null, to: null, lastPage: 1, perPage: 8, total: 0 });
    expect(pageMeta(17, 3, 8, 1)).toEqual({ currentPage: 3, from: 17, to: 17, lastPage: 3, perPage: 8, total: 17 });
  });

  it('when status labels are localized, then Listen is for audio with access and Acquire without access', () => {
    expect(statusLabel('free', 'audio', 'pt')).toBe('Ouvir');
    expect(statusLabel('purchased', 'epub', 'it')).toBe('Leggi');
    expect(statusLabel(null, 'audio', 'it')).toBe('Acquista');
    expect(statusLabel('subscription', 'pdf', langOf('ES'))).toBe('Leer');
    expect(langOf('fr')).toBe('en');
  });

  it('when dates and templates are rendered, then they follow the API formats', () => {
    expect(formatDateTime(new Date('2026-03-02T09:00:00Z'))).toBe('2026-03-02 09:00:00');
    expect(fillTemplate('http://{domain}:8080', { domain: 'sur.localhost' })).toBe('http://sur.localhost:8080');
  });
});
