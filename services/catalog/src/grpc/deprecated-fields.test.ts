// The deprecated fields an older gateway reads stay as they were for one release.
import { describe, expect, it } from 'vitest';
import { filterKeys, formatDateTime, langOf, sectionTitle, statusLabel } from './deprecated-fields.js';

describe('deprecated rendered fields', () => {
  it('when an older gateway sends no lang or an unknown one, then the fields are English', () => {
    expect(langOf('')).toBe('en');
    expect(langOf('fr')).toBe('en');
    expect(langOf('ES')).toBe('es');
  });

  it('when a section is titled, then shelves use the table and collections their own title, else English, else the slug', () => {
    const filter = { name: 'section', value: 'fiction' };
    expect(sectionTitle({ kind: 'latest_issues', filter }, 'pt')).toBe('Últimas publicações');
    expect(sectionTitle({ kind: 'collection', filter, collectionTitles: { en: 'Fiction', es: 'Ficción' } }, 'es')).toBe('Ficción');
    expect(sectionTitle({ kind: 'collection', filter, collectionTitles: { en: 'Fiction' } }, 'it')).toBe('Fiction');
    expect(sectionTitle({ kind: 'collection', filter, collectionTitles: {} }, 'it')).toBe('fiction');
  });

  it('when the status is labelled, then Listen is for audio with access and Acquire without access', () => {
    expect(statusLabel('free', 'audio', 'pt')).toBe('Ouvir');
    expect(statusLabel('purchased', 'epub', 'it')).toBe('Leggi');
    expect(statusLabel(null, 'audio', 'it')).toBe('Acquista');
  });

  it('when filter keys and dates are rendered, then they follow the version rule and the API format', () => {
    const filter = { name: 'section', value: 'latest_issues' };
    expect(filterKeys(filter, '1.28.0')).toEqual({ filterParams: 'section=latest_issues' });
    expect(filterKeys(filter, '1.28.0-beta')).toEqual({ filterName: 'section', filterValue: 'latest_issues' });
    expect(filterKeys(filter, undefined)).toEqual({ filterName: 'section', filterValue: 'latest_issues' });
    expect(formatDateTime(new Date('2026-03-02T09:00:00Z'))).toBe('2026-03-02 09:00:00');
  });
});
