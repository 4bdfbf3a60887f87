// The synthetic corpus of the search benchmark: multilingual issues with
// accents (en, es, pt, it), Zipf-distributed description words, a long tail
// of made-up names, and mixed queries taken from the issues' own words.
// Deterministic: the same seed gives the same corpus and queries.

export const TENANT = 1;

/** Deterministic PRNG (mulberry32): the same corpus and queries on every run. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
let random = rng(20260301);
const pick = (list) => list[Math.floor(random() * list.length)];
/** Zipf-like pick: early words are much more frequent, as in real text. */
const zipf = (list) => list[Math.min(list.length - 1, Math.floor(list.length * Math.pow(random(), 2.2)))];

const W = {
  en: {
    nouns: ['lighthouse', 'harbor', 'river', 'garden', 'atlas', 'island', 'winter', 'letters', 'kingdom', 'forest', 'orchard', 'tide', 'ferry', 'mountain', 'library', 'archive', 'lantern', 'compass', 'meadow', 'city', 'secret', 'journey', 'storm', 'voyage', 'daughter', 'keeper', 'map', 'shadow', 'silence', 'harvest'],
    adjectives: ['silent', 'northern', 'hidden', 'golden', 'last', 'forgotten', 'distant', 'small', 'broken', 'quiet', 'long', 'bright', 'wild', 'lost', 'painted'],
    filler: ['the', 'of', 'and', 'a', 'in', 'to', 'with', 'her', 'his', 'their', 'an', 'old', 'new', 'story', 'family', 'years', 'town', 'sea', 'night', 'morning', 'book', 'life', 'love', 'war', 'home', 'friends', 'past', 'future', 'world', 'guide', 'history', 'recipes', 'walks', 'birds', 'stars'],
  },
  es: {
    nouns: ['crónicas', 'río', 'café', 'canción', 'corazón', 'montaña', 'jardín', 'pueblo', 'camino', 'invierno', 'mañana', 'niña', 'señor', 'brújula', 'árbol', 'isla', 'música', 'días', 'ciudad', 'memoria', 'pájaro', 'estación', 'farolero', 'océano', 'tormenta'],
    adjectives: ['últimos', 'pequeño', 'olvidada', 'lejana', 'dorado', 'silenciosa', 'nueva', 'antigua', 'triste', 'secreta', 'perdida'],
    filler: ['el', 'la', 'de', 'del', 'los', 'las', 'y', 'en', 'un', 'una', 'con', 'para', 'sobre', 'historia', 'familia', 'años', 'vida', 'amor', 'guerra', 'casa', 'amigos', 'noche', 'libro', 'mar', 'tierra', 'viaje', 'recetas', 'aventuras', 'cuentos', 'poesía'],
  },
  pt: {
    nouns: ['livraria', 'mar', 'coração', 'saudade', 'ilha', 'estação', 'cidade', 'jardim', 'memórias', 'viagem', 'canção', 'irmã', 'caminho', 'noite', 'lição', 'tempestade', 'baía', 'farol', 'sertão', 'amanhã'],
    adjectives: ['atlântica', 'pequena', 'última', 'esquecida', 'distante', 'dourado', 'silenciosa', 'antiga', 'perdido', 'nova'],
    filler: ['o', 'a', 'de', 'do', 'da', 'dos', 'e', 'em', 'um', 'uma', 'com', 'para', 'sobre', 'história', 'família', 'anos', 'vida', 'amor', 'casa', 'amigos', 'livro', 'terra', 'receitas', 'contos', 'poesia', 'são', 'não', 'também'],
  },
  it: {
    nouns: ['custode', 'lago', 'città', 'giardino', 'biblioteca', 'isola', 'inverno', 'lettere', 'perché', 'caffè', 'viaggio', 'notte', 'cuore', 'strada', 'libertà', 'stazione', 'faro', 'tempesta', 'memoria', 'felicità'],
    adjectives: ['ultima', 'piccola', 'dimenticata', 'lontana', 'dorato', 'silenziosa', 'antica', 'perduto', 'nuova', 'segreta'],
    filler: ['il', 'la', 'di', 'del', 'della', 'e', 'in', 'un', 'una', 'con', 'per', 'sul', 'storia', 'famiglia', 'anni', 'vita', 'amore', 'casa', 'amici', 'libro', 'terra', 'ricette', 'racconti', 'poesia', 'già', 'più', 'così'],
  },
};
const LANGS = Object.keys(W);
const FIRST = ['Mara', 'Lucía', 'Tomás', 'Beatriz', 'Giulia', 'Inês', 'João', 'Zoë', 'François', 'Søren', 'Renée', 'José', 'María', 'Núria', 'Chloé', 'Théo', 'Ana', 'André', 'Björn', 'Émile', 'Gonçalo', 'Ilaria', 'Niccolò', 'Ramón', 'Jürgen', 'Agnès', 'Héctor', 'Lúcia', 'Ángel', 'Hélène'];
const LAST = ['Ellison', 'Ferreyra', 'Quiroga', 'Moura', 'Ferri', 'Brandt', 'Okafor', 'Núñez', 'Gómez', 'Conceição', 'Sánchez', 'Müller', 'Dvořák', 'Lefèvre', 'Castaño', 'Peña', 'Araújo', 'Bianchi', 'Esposito', 'Ibáñez', 'Lindqvist', 'Morales', 'Rossi', 'Barbosa', 'Fontaine', 'García', 'Ribeiro', 'Vázquez', 'Ortega', 'Romano'];
const PUBLISHERS = ['Northwind Editions', 'Editorial Sur', 'Livraria Atlântica', 'Edizioni Aurora', 'Ediciones Río de la Plata', 'Companhia das Letras Imaginárias', 'Harbor Comics', 'Éditions du Phare', 'Casa Editrice Città', 'Penguin Lakes', 'Ediciones Café', 'Norte & Sul'];
// Made-up surnames and place names grow the vocabulary the way real catalogs do.
const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ven', 'tor', 'sa', 'bel', 'ñu', 'ço', 'lé', 'dri', 'ma', 'no', 'vi', 'quì', 'stra', 'gon', 'lü', 'pe'];
const rareWord = () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(SYLLABLES)).join('');
const RARE = Array.from({ length: 20_000 }, rareWord);
const cap = (word) => word.charAt(0).toUpperCase() + word.slice(1);

export function generateIssue(n) {
  const lang = pick(LANGS);
  const w = W[lang];
  const noun = pick(w.nouns);
  const patterns = [
    () => `${cap(pick(w.filler))} ${cap(noun)} ${pick(w.filler)} ${cap(pick(w.nouns))}`,
    () => `${cap(pick(w.adjectives))} ${cap(noun)}`,
    () => `${cap(noun)} ${pick(w.filler)} ${cap(pick(RARE))}`,
    () => `${cap(pick(w.nouns))}, ${pick(w.adjectives)} ${noun} ${n % 50 === 0 ? `Vol. ${1 + (n % 9)}` : ''}`.trim(),
  ];
  const name = pick(patterns)();
  const author = `${pick(FIRST)} ${random() < 0.3 ? pick(RARE).replace(/^./, (c) => c.toUpperCase()) : pick(LAST)}`;
  const words = Array.from({ length: 12 + Math.floor(random() * 18) }, () => (random() < 0.08 ? pick(RARE) : random() < 0.35 ? zipf(w.nouns.concat(w.adjectives)) : zipf(w.filler)));
  const description = `${cap(words.join(' '))}.`;
  const keywords = Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(w.nouns.concat(w.adjectives)));
  const day = Math.floor(random() * 3650);
  const id = 100_000 + n;
  const type = random() < 0.7 ? 'epub' : random() < 0.6 ? 'pdf' : random() < 0.8 ? 'audio' : 'physical';
  return {
    _id: id,
    tenant_id: TENANT,
    name,
    slug: `${name.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}-${id}`,
    type,
    lang,
    author,
    publisher: pick(PUBLISHERS),
    bisac: pick(['FICTION / Literary', 'FICTION / Short Stories', 'TRAVEL / Maritime', 'COOKING / Regional', 'HISTORY / General', 'POETRY / General']),
    external_id: `BENCH-${id}`,
    published_at: new Date(Date.UTC(2016, 0, 1) + day * 86_400_000 + Math.floor(random() * 86_400) * 1000),
    number_of_pages: type === 'audio' ? null : 40 + Math.floor(random() * 500),
    description,
    tags: { author: [author], keyword: keywords, edition: [] },
    collections: [pick(['fiction', 'nonfiction', 'magazines', 'audio'])],
    cover_url: null,
  };
}

/** Mixed queries: 1-3 words taken from real issues, some typed without accents, upper-cased, decomposed (NFD), cut to a prefix, or matching nothing. */
export function generateQueries(sample, count) {
  // Its own random stream: the same queries whether or not the corpus was generated in this run.
  const issuesStream = random;
  random = rng(42);
  const queries = [];
  while (queries.length < count) {
    const issue = pick(sample);
    const source = [issue.name, issue.author, issue.description, issue.publisher][Math.floor(random() * 4)];
    const words = source.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 2);
    if (words.length === 0) continue;
    const wordCount = 1 + Math.floor(random() * Math.min(3, words.length));
    const start = Math.floor(random() * (words.length - wordCount + 1));
    let query = words.slice(start, start + wordCount).join(' ');
    const r = random();
    if (r < 0.2) query = query.normalize('NFD').replace(/\p{M}/gu, ''); // typed without accents
    else if (r < 0.3) query = query.toUpperCase();
    else if (r < 0.4) query = query.normalize('NFD'); // decomposed input
    if (random() < 0.35) {
      const parts = query.split(' ');
      const last = parts.at(-1);
      if (last.length > 4) parts[parts.length - 1] = last.slice(0, 3 + Math.floor(random() * (last.length - 3)));
      query = parts.join(' ');
    }
    if (random() < 0.05) query = `zq${rareWord()}x`; // no match
    if ([...query.normalize('NFC').trim()].length >= 2) queries.push(query);
  }
  random = issuesStream;
  return queries;
}

