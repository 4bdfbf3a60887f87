// Adapter for any OpenAI-compatible chat-completions API (OpenAI, Azure
// OpenAI-compatible gateways, Ollama, llama.cpp's server, vLLM, LM Studio):
// POST <AI_BASE_URL>/chat/completions {model, messages, temperature} with
// `Authorization: Bearer <AI_API_KEY>` when a key is configured. The base URL
// includes the API version segment, e.g. https://api.openai.com/v1 or
// http://127.0.0.1:11434/v1 for Ollama.
import type { AiEngine, AiRequest, CallOptions } from '../domain/ports.js';
import { postJson } from './http.js';
import { promptFor } from './prompts.js';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export class OpenAiChatClient {
  constructor(private readonly options: { baseUrl: string; model: string; apiKey?: string | undefined }) {}

  get model(): string {
    return this.options.model;
  }

  async complete(messages: ChatMessage[], options: CallOptions & { json?: boolean; maxTokens?: number } = {}): Promise<string> {
    const base = this.options.baseUrl.endsWith('/') ? this.options.baseUrl : `${this.options.baseUrl}/`;
    const response = await postJson(
      'ai',
      new URL('chat/completions', base).toString(),
      {
        model: this.options.model,
        messages,
        temperature: 0.3,
        ...(options.maxTokens && { max_tokens: options.maxTokens }),
        ...(options.json && { response_format: { type: 'json_object' } }),
      },
      { headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}, signal: options.signal },
    );
    const body = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || content.trim().length === 0) throw new Error('ai: completion without content');
    return content.trim();
  }
}

/** The AI actions on a hosted or local LLM: one system prompt per action and language, the reader's text as the user message. */
export class OpenAiActionEngine implements AiEngine {
  readonly name = 'openai-compatible';

  constructor(private readonly client: OpenAiChatClient) {}

  run(request: AiRequest, options: CallOptions = {}): Promise<string> {
    return this.client.complete(
      [
        { role: 'system', content: promptFor(request.action, request.lang) },
        { role: 'user', content: request.text },
      ],
      { ...options, maxTokens: 1024 },
    );
  }
}
