// Language detection for the local engines with franc (trigram model, the
// smallest data set franc-min), restricted to the languages the caller can
// use: on short texts an open guess among 80 languages is mostly noise.
import { franc } from 'franc-min';
import type { LanguageDetector } from '../domain/ports.js';

/** ISO 639-3 (franc) to ISO 639-1 (the API), for the languages franc-min knows that matter here. */
const ISO1_OF: Record<string, string> = {
  eng: 'en',
  spa: 'es',
  por: 'pt',
  ita: 'it',
  fra: 'fr',
  deu: 'de',
  nld: 'nl',
  cat: 'ca',
};
const ISO3_OF = Object.fromEntries(Object.entries(ISO1_OF).map(([iso3, iso1]) => [iso1, iso3]));

export class FrancDetector implements LanguageDetector {
  detect(text: string, candidates: readonly string[] = Object.values(ISO1_OF)): string | undefined {
    const only = candidates.map((code) => ISO3_OF[code]).filter((code): code is string => code !== undefined);
    if (only.length === 0) return undefined;
    if (only.length === 1) return ISO1_OF[only[0]!];
    const guess = franc(text, { only, minLength: 1 });
    return ISO1_OF[guess];
  }
}
