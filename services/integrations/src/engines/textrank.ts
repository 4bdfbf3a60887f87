// Extractive summary by TextRank (Mihalcea and Tarau, 2004): sentences are the
// nodes of a graph whose edges weigh the words two sentences share, normalized
// by their lengths; PageRank over that graph ranks the sentences, and the
// best ones are returned in their original order.
import { contentWords, sentencesOf } from './text.js';

/** Crude stem so that "lights" and "light" count as one word: the shared prefix of up to 6 letters. */
const stem = (word: string) => word.slice(0, 6);

function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  // log(n + 1) keeps one-word sentences from dividing by zero.
  return shared / (Math.log(a.size + 1) + Math.log(b.size + 1));
}

/** PageRank scores of a weighted, undirected graph. */
export function pageRank(weights: number[][], damping = 0.85, iterations = 50, tolerance = 1e-6): number[] {
  const n = weights.length;
  const outSum = weights.map((row) => row.reduce((sum, w) => sum + w, 0));
  let scores = new Array<number>(n).fill(1 / n);
  for (let iteration = 0; iteration < iterations; iteration++) {
    const next = new Array<number>(n).fill((1 - damping) / n);
    for (let j = 0; j < n; j++) {
      if (outSum[j] === 0) {
        // A sentence sharing no word with the others spreads its score evenly.
        for (let i = 0; i < n; i++) next[i]! += (damping * scores[j]!) / n;
        continue;
      }
      for (let i = 0; i < n; i++) if (weights[j]![i]! > 0) next[i]! += (damping * scores[j]! * weights[j]![i]!) / outSum[j]!;
    }
    const delta = next.reduce((sum, value, i) => sum + Math.abs(value - scores[i]!), 0);
    scores = next;
    if (delta < tolerance) break;
  }
  return scores;
}

export interface Summary {
  sentences: string[];
  /** Of all sentences, in order: the rank scores (for tests and tuning). */
  scores: number[];
}

/** About a third of the sentences (1 to `maxSentences`), the highest ranked, in text order. */
export function summarize(text: string, lang: string, maxSentences = 5): Summary {
  const sentences = sentencesOf(text, lang);
  if (sentences.length <= 1) return { sentences, scores: sentences.map(() => 1) };
  const vocab = sentences.map((sentence) => new Set(contentWords(sentence, lang).map(stem)));
  const weights = vocab.map((a, i) => vocab.map((b, j) => (i === j ? 0 : similarity(a, b))));
  const scores = pageRank(weights);
  const keep = Math.max(1, Math.min(maxSentences, Math.round(sentences.length / 3)));
  const chosen = scores
    .map((score, index) => ({ score, index }))
    // Ties go to the earlier sentence: openings tend to carry the topic.
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, keep)
    .map(({ index }) => index)
    .sort((a, b) => a - b);
  return { sentences: chosen.map((index) => sentences[index]!), scores };
}
