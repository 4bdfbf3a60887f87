import { describe, expect, it } from 'vitest';
import { aiActionLabel, aiActionsToWire, aiLabelLang } from './integrations.js';

const ACTIONS = ['explain', 'expand', 'summarize'];

describe('AI action labels', () => {
  it('when the actions are rendered in English, then explain, expand and summarize keep that order', () => {
    const wire = aiActionsToWire(ACTIONS, 'en');
    expect(wire).toEqual({ explain: 'Explain', expand: 'Expand', summarize: 'Summarize' });
    expect(Object.keys(wire)).toEqual(ACTIONS);
  });

  it.each([
    ['es', 'Explicar', 'Ampliar', 'Resumir'],
    ['pt', 'Explicar', 'Expandir', 'Resumir'],
    ['it', 'Spiega', 'Approfondisci', 'Riassumi'],
  ] as const)('when the language is %s, then the labels are in it', (lang, explain, expand, summarize) => {
    expect(Object.values(aiActionsToWire(ACTIONS, lang))).toEqual([explain, expand, summarize]);
  });

  it('when an action is not in the table, then its key is shown', () => {
    expect(aiActionLabel('translate', 'es')).toBe('translate');
  });
});

describe('aiLabelLang', () => {
  it('when the app sent its language, then it wins over the tenant language', () => {
    expect(aiLabelLang('pt', 'es')).toBe('pt');
    expect(aiLabelLang('en', 'es')).toBe('en');
  });

  it('when the app sent none, then the tenant language is read as a language tag, English when it is none of the four', () => {
    expect(aiLabelLang(undefined, 'es')).toBe('es');
    expect(aiLabelLang(undefined, 'it-IT')).toBe('it');
    expect(aiLabelLang(undefined, 'fr')).toBe('en');
    expect(aiLabelLang(undefined, '')).toBe('en');
  });
});
