import { afterAll, describe, expect, it } from 'vitest';
import { parseGloss, WordNet } from './wordnet.js';

describe('WordNet reader (Debian wordnet-base)', () => {
  const wordnet = new WordNet(process.env.WORDNET_DIR ?? '/usr/share/wordnet');
  afterAll(() => wordnet.close());

  it('when a noun is looked up, then its WordNet definition comes back', async () => {
    const [sense] = await wordnet.lookup('lighthouse');
    expect(sense).toMatchObject({ partOfSpeech: 'noun', lemma: 'lighthouse' });
    expect(sense!.definition).toMatch(/tower with a light/);
    expect(sense!.synonyms).toEqual(expect.arrayContaining(['beacon']));
  });

  it('when an inflected or irregular form is looked up, then the base form is found', async () => {
    expect((await wordnet.lookup('mice'))[0]).toMatchObject({ lemma: 'mouse', partOfSpeech: 'noun' });
    expect((await wordnet.lookup('running')).some((sense) => sense.lemma === 'run' && sense.partOfSpeech === 'verb')).toBe(true);
    expect((await wordnet.lookup('ice cream'))[0]!.definition).toMatch(/frozen dessert/);
  });

  it('when the word is unknown, then there are no senses', async () => {
    expect(await wordnet.lookup('xyzzyq')).toEqual([]);
  });

  it('when a gloss has examples, then they are split from the definition', () => {
    expect(parseGloss('look at, interpret, and say out loud something that is written; "She read the letter"; "read to me"')).toEqual({
      definition: 'look at, interpret, and say out loud something that is written',
      examples: ['She read the letter', 'read to me'],
    });
  });
});
