// Dictionary on the real local engine: WordNet for English, WordNet through
// Apertium for Spanish, Portuguese and Italian.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, newReader, startTestIntegrations, type TestIntegrations, type TestReader } from './support.js';

describe('dictionary on WordNet', () => {
  let app: TestIntegrations;
  let reader: TestReader;

  beforeAll(async () => {
    app = await startTestIntegrations();
    reader = newReader();
  });
  afterAll(() => app.stop());

  const define = (text: string, lang: string) => app.client.define({ caller: reader.caller(), text: reader.encrypt(text), lang });

  it('when an English word is looked up, then its WordNet definitions come back in the documented shape', async () => {
    const result = await define('lighthouse', 'en');
    expect(result).toMatchObject({ word: 'lighthouse', lang: 'en', source: 'wordnet' });
    expect(result.definitions[0]).toMatchObject({ partOfSpeech: 'noun', definition: expect.stringMatching(/tower with a light/) });
    expect(result.definitions[0]!.synonyms).toContain('beacon');
  });

  it('when the selection carries punctuation, then the word itself is looked up', async () => {
    const result = await define('“Lighthouse,”', 'en');
    expect(result.word).toBe('Lighthouse');
    expect(result.definitions[0]!.definition).toMatch(/tower with a light/);
  });

  it('when an English expression of several words is looked up, then WordNet finds the collocation', async () => {
    const result = await define('ice cream', 'en');
    expect(result.definitions[0]!.definition).toMatch(/frozen dessert/);
  });

  it('when an inflected verb is looked up, then the senses of its base form come back with examples', async () => {
    const result = await define('reading', 'en');
    expect(result.definitions.some((entry) => entry.partOfSpeech === 'verb' && entry.examples.length > 0)).toBe(true);
  });

  it('when a Spanish word is looked up, then the definition is WordNet translated into Spanish', async () => {
    const result = await define('faro', 'es');
    expect(result).toMatchObject({ word: 'faro', lang: 'es', source: 'wordnet+apertium' });
    expect(result.definitions[0]!.definition).toMatch(/torre/);
  });

  it('when the word is unknown, then the definitions are empty (200, not 404)', async () => {
    const result = await define('qwxzyv', 'en');
    expect(result.definitions).toEqual([]);
  });

  it('when lang is missing or not an app language, then 422 names lang', async () => {
    await expectRefusal(define('lighthouse', ''), 'INVALID_ARGUMENT', 'lang');
    await expectRefusal(define('lighthouse', 'fr'), 'INVALID_ARGUMENT', 'lang', /en, es, pt, it/);
  });
});
