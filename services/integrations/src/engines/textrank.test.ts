import { describe, expect, it } from 'vitest';
import { pageRank, summarize } from './textrank.js';

describe('TextRank summary', () => {
  it('when one sentence shares words with every other, then it ranks first', () => {
    const text = [
      'Cats chase mice in the old barn.',
      'The old barn keeps cats, mice and hay dry in winter.',
      'Hay feeds the horses.',
      'Winter in the barn is cold for cats and mice.',
      'Tomorrow the market opens early.',
    ].join(' ');
    const { sentences, scores } = summarize(text, 'en', 1);
    expect(sentences).toEqual(['The old barn keeps cats, mice and hay dry in winter.']);
    expect(scores.indexOf(Math.max(...scores))).toBe(1);
    expect(scores[4]).toBe(Math.min(...scores));
  });

  it('when the text is a single sentence, then it is its own summary', () => {
    expect(summarize('Just one sentence here', 'en').sentences).toEqual(['Just one sentence here']);
  });

  it('when nine sentences are summarized, then three come back in text order', () => {
    const text = Array.from({ length: 9 }, (_, i) => `Sentence ${i} talks about topic${i % 3} and shared words.`).join(' ');
    const { sentences } = summarize(text, 'en');
    expect(sentences).toHaveLength(3);
    const positions = sentences.map((sentence) => text.indexOf(sentence));
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('when the graph is symmetric, then PageRank scores sum to one', () => {
    const scores = pageRank([
      [0, 1, 1],
      [1, 0, 0],
      [1, 0, 0],
    ]);
    expect(scores.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
  });
});
