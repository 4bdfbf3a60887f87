import { describe, expect, it } from 'vitest';
import { langOf } from './lang.js';

describe('langOf', () => {
  it('when X-App-Lang names a language with a region or in capitals, then its primary language is used', () => {
    expect(langOf('ES')).toBe('es');
    expect(langOf('pt-BR')).toBe('pt');
    expect(langOf(' it_IT ')).toBe('it');
    expect(langOf('es,en;q=0.8')).toBe('es');
  });

  it('when X-App-Lang is absent or another language, then it is English', () => {
    expect(langOf(undefined)).toBe('en');
    expect(langOf('')).toBe('en');
    expect(langOf('fr')).toBe('en');
    expect(langOf('esp')).toBe('en');
  });
});
