// Hosted dictionary: an AI-generated definition (what the spec's dictionary
// endpoint describes) from the configured OpenAI-compatible model, asked for
// JSON in the requested language. Native definitions in every language are
// what it adds over the local WordNet engine.
import type { CallOptions, Dictionary, DictionaryEntry, DictionaryResult } from '../domain/ports.js';
import type { OpenAiChatClient } from './openai-chat.js';
import { promptFor } from './prompts.js';

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

/** Reads the model's JSON leniently: a code fence around it, or prose instead of JSON, still give a definition. */
export function parseDefinitions(content: string): DictionaryEntry[] {
  const json = /\{[\s\S]*\}/.exec(content)?.[0];
  try {
    const parsed = JSON.parse(json ?? '') as { definitions?: unknown };
    if (Array.isArray(parsed.definitions)) {
      return parsed.definitions
        .filter(
          (item): item is Record<string, unknown> =>
            typeof item === 'object' && item !== null && typeof (item as { definition?: unknown }).definition === 'string',
        )
        .map((item) => ({
          partOfSpeech: typeof item.partOfSpeech === 'string' ? item.partOfSpeech : '',
          definition: item.definition as string,
          examples: strings(item.examples),
          synonyms: strings(item.synonyms),
        }));
    }
  } catch {
    // not JSON: the whole answer is the definition
  }
  return [{ partOfSpeech: '', definition: content.trim(), examples: [], synonyms: [] }];
}

export class AiDictionary implements Dictionary {
  readonly name = 'ai';

  constructor(private readonly client: OpenAiChatClient) {}

  async define(expression: string, lang: string, options: CallOptions = {}): Promise<DictionaryResult> {
    const content = await this.client.complete(
      [
        { role: 'system', content: promptFor('dictionary', lang) },
        { role: 'user', content: expression },
      ],
      { ...options, json: true, maxTokens: 600 },
    );
    return { definitions: parseDefinitions(content), source: 'ai' };
  }
}
