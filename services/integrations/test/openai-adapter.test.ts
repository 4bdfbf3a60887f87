// The OpenAI-compatible adapter (AI actions and the AI dictionary) against a
// local HTTP stand-in that checks every request it receives.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { promptFor } from '../src/engines/prompts.js';
import { newReader, startStandIn, startTestIntegrations, type StandIn, type TestIntegrations } from './support.js';

interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string };
}

describe('OpenAI-compatible adapter', () => {
  let app: TestIntegrations;
  let llm: StandIn;
  let nextAnswer = '';
  const reader = newReader();

  beforeAll(async () => {
    llm = await startStandIn((request, response) => {
      if (request.method !== 'POST' || request.path !== '/v1/chat/completions') {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(request.body) as ChatRequest;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: nextAnswer }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
    });
    app = await startTestIntegrations({ AI_BASE_URL: `${llm.url}/v1`, AI_MODEL: 'llama3.2:1b', AI_API_KEY: 'sk-test-key' });
  });
  afterAll(async () => {
    await app.stop();
    await llm.close();
  });
  beforeEach(() => {
    llm.requests.length = 0;
  });

  it('when an AI action runs, then the endpoint gets the model, the action prompt in the answer language and the text, with the bearer key', async () => {
    expect(app.service.engines.ai).toBe('openai-compatible');
    nextAnswer = 'Un resumen breve.';
    const text = 'The lighthouse keeper climbed the stairs every night to light the lamp.';
    const answer = await app.client.runAiAction({ caller: reader.caller(), action: 'summarize', text: reader.encrypt(text), lang: 'es' });

    expect(answer).toMatchObject({ text: 'Un resumen breve.', language: 'es' });
    expect(llm.requests).toHaveLength(1);
    const [request] = llm.requests;
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer sk-test-key');
    expect(request!.headers['content-type']).toBe('application/json');
    const body = JSON.parse(request!.body) as ChatRequest;
    expect(body.model).toBe('llama3.2:1b');
    expect(body.messages).toEqual([
      { role: 'system', content: promptFor('summarize', 'es') },
      { role: 'user', content: text },
    ]);
    expect(body.messages[0]!.content).toMatch(/Resume en español/);
  });

  it.each(['explain', 'expand'] as const)('when %s runs, then its own prompt is sent', async (action) => {
    nextAnswer = `${action} answer`;
    await app.client.runAiAction({ caller: reader.caller(), action, text: reader.encrypt('Some passage of the book.'), lang: 'en' });
    const body = JSON.parse(llm.requests[0]!.body) as ChatRequest;
    expect(body.messages[0]).toEqual({ role: 'system', content: promptFor(action, 'en') });
  });

  it('when the dictionary is asked, then the model is asked for JSON definitions in that language and its answer is returned in the documented shape', async () => {
    expect(app.service.engines.dictionary).toBe('ai');
    nextAnswer =
      '```json\n{"definitions":[{"partOfSpeech":"sostantivo","definition":"torre con una luce","examples":["il faro illumina"],"synonyms":[]}]}\n```';
    const result = await app.client.define({ caller: reader.caller(), text: reader.encrypt('faro'), lang: 'it' });
    expect(result).toEqual({
      word: 'faro',
      lang: 'it',
      source: 'ai',
      definitions: [{ partOfSpeech: 'sostantivo', definition: 'torre con una luce', examples: ['il faro illumina'], synonyms: [] }],
    });
    const body = JSON.parse(llm.requests[0]!.body) as ChatRequest;
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.messages).toEqual([
      { role: 'system', content: promptFor('dictionary', 'it') },
      { role: 'user', content: 'faro' },
    ]);
  });
});
