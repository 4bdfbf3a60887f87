// The local translation engine: Apertium's rule-based language pairs
// (Debian apertium-en-es, -es-pt, -en-ca, -ca-it), chained through a pivot
// language where no direct pair exists (en->pt through es, en->it through ca,
// es->it through en and ca, ...). The installed modes are read from
// `apertium -l` at start, so adding a Debian pair package adds its routes.
import type { CallOptions, LanguageDetector, TranslationResult, Translator } from '../domain/ports.js';
import { runCommand, runPipeline, type Command } from './processes.js';

/** Apertium's language codes (ISO 639-3 in newer pairs, 639-1 in older ones) to ISO 639-1. */
const ISO1: Record<string, string> = { eng: 'en', en: 'en', spa: 'es', es: 'es', por: 'pt', pt: 'pt', cat: 'ca', ca: 'ca', ita: 'it', it: 'it' };

/** Languages the app offers as sources; the detector chooses among them. */
const SOURCE_LANGUAGES = ['en', 'es', 'pt', 'it'] as const;

export interface ApertiumOptions {
  bin: string;
  detector: LanguageDetector;
  /** Mode names as `apertium -l` prints them; read from the binary when omitted. */
  modes?: string[];
}

/** A route between two ISO 639-1 languages as the list of Apertium modes to chain. */
export type Route = string[];

/** Builds the translation graph from mode names: `eng-spa`, `es-pt`; variants such as `spa-eng_US` are skipped. */
export function routesFrom(modes: string[]): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const mode of modes) {
    const match = /^([a-z]{2,3})-([a-z]{2,3})$/.exec(mode.trim());
    if (!match) continue;
    const from = ISO1[match[1]!];
    const to = ISO1[match[2]!];
    if (!from || !to || from === to) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    graph.get(from)!.set(to, mode.trim());
  }
  return graph;
}

/** Shortest chain of modes from `source` to `target` (breadth first), or undefined. */
export function findRoute(graph: Map<string, Map<string, string>>, source: string, target: string): Route | undefined {
  if (source === target) return [];
  const previous = new Map<string, { from: string; mode: string }>();
  const queue = [source];
  const seen = new Set([source]);
  while (queue.length > 0) {
    const language = queue.shift()!;
    for (const [next, mode] of graph.get(language) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      previous.set(next, { from: language, mode });
      if (next === target) {
        const route: string[] = [];
        for (let at = target; at !== source; at = previous.get(at)!.from) route.unshift(previous.get(at)!.mode);
        return route;
      }
      queue.push(next);
    }
  }
  return undefined;
}

/**
 * Apertium marks words it could not translate (`*word`), could not generate
 * (`#word`) or could not transfer (`@word`). `-u` drops the first kind; the
 * other two are dropped here: the reader wants the word, not the diagnosis.
 */
export function stripMarks(text: string): string {
  return text.replace(/(^|[\s([{"'¿¡«—-])[*#@](?=[\p{L}\p{N}])/gu, '$1');
}

/**
 * The route as one bash pipeline. The `apertium` script reads its input by
 * opening /dev/stdin, which fails on the socket Node gives a child as stdin;
 * `cat` turns it into a real pipe. Modes and the binary are positional
 * arguments, never spliced into the script, and the text only ever flows
 * through stdin. pipefail makes any stage's failure the pipeline's.
 */
export function apertiumChain(bin: string, route: Route): Command {
  const stages = route.map((_, index) => `"$0" -u -f txt "$${index + 1}"`);
  return { bin: 'bash', args: ['-c', `set -o pipefail; cat | ${stages.join(' | ')}`, bin, ...route] };
}

export class ApertiumTranslator implements Translator {
  readonly name = 'apertium';
  private graph: Map<string, Map<string, string>> | undefined;
  private loading: Promise<Map<string, Map<string, string>>> | undefined;

  constructor(private readonly options: ApertiumOptions) {
    if (options.modes) this.graph = routesFrom(options.modes);
  }

  /** The installed modes (`apertium -l`), read once. */
  async languagePairs(): Promise<Map<string, Map<string, string>>> {
    if (this.graph) return this.graph;
    this.loading ??= runCommand(this.options.bin, ['-l'])
      .then((listing) => (this.graph = routesFrom(listing.split('\n'))))
      .finally(() => (this.loading = undefined));
    return this.loading;
  }

  supportsTarget(target: string): boolean {
    return (SOURCE_LANGUAGES as readonly string[]).includes(target) || target === 'ca';
  }

  async route(source: string, target: string): Promise<Route | undefined> {
    return findRoute(await this.languagePairs(), source, target);
  }

  async translate(text: string, target: string, options: CallOptions & { source?: string } = {}): Promise<TranslationResult> {
    const source = options.source ?? this.options.detector.detect(text, SOURCE_LANGUAGES) ?? 'en';
    if (source === target) return { text, detectedSourceLanguage: source };
    const route = await this.route(source, target);
    if (!route) throw new Error(`apertium: no installed route from ${source} to ${target}`);
    const output = await runPipeline([apertiumChain(this.options.bin, route)], text, { signal: options.signal });
    // Dropped marks and multiword units leave double spaces; line breaks stay (batches rely on them).
    const translated = stripMarks(output.toString('utf8'))
      .replace(/[^\S\n]{2,}/g, ' ')
      .trim();
    return { text: translated, detectedSourceLanguage: source };
  }
}
