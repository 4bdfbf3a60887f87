// AI actions on the local engine (no OpenAI-compatible endpoint configured):
// labels, the three actions, every answer stored with its user, and the
// rating state machine (spec: AI response unrated -> rated, once).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, newReader, startTestIntegrations, type TestIntegrations, type TestReader } from './support.js';

const ARTICLE = [
  'The lighthouse stood on a rocky island at the mouth of the harbour.',
  'Every night its keeper climbed the spiral stairs to light the great lamp.',
  'Ships approaching the harbour relied on the lighthouse to avoid the rocks.',
  'In winter storms the keeper stayed awake until dawn, watching the lamp.',
  'The village below sold fish and bread to the sailors who came ashore.',
  'When the lamp was finally automated, the keeper left the lighthouse for good.',
].join(' ');

describe('AI actions on the local engine', () => {
  let app: TestIntegrations;
  let reader: TestReader;

  beforeAll(async () => {
    app = await startTestIntegrations();
    reader = newReader();
  });
  afterAll(() => app.stop());

  const run = (action: string, text: string, lang?: string, caller = reader.caller()) =>
    app.client.runAiAction({ caller, action, text: reader.encrypt(text), lang });

  it('when the actions are listed, then explain, expand and summarize come in that order, unlabelled (the gateway labels them)', async () => {
    expect(app.service.engines.ai).toBe('local');
    const { actions } = await app.client.listAiActions({ caller: reader.caller() });
    expect(actions).toEqual([{ key: 'explain' }, { key: 'expand' }, { key: 'summarize' }]);
  });

  describe('actions', () => {
    it('when a passage is summarized, then the answer is its most central sentences, in order, and stored with the user', async () => {
      const answer = await run('summarize', ARTICLE, 'en');
      expect(answer.language).toBe('en');
      expect(answer.uuid).toMatch(/^[0-9a-f-]{36}$/);
      const sentences = answer.text.split(/(?<=\.)\s+/);
      expect(sentences).toHaveLength(2);
      for (const sentence of sentences) expect(ARTICLE).toContain(sentence);
      expect(answer.text).toMatch(/lighthouse|keeper|lamp/);
      expect(answer.text).not.toMatch(/fish and bread/);

      const stored = await app.db.collection('ai_responses').findOne({ _id: answer.uuid as never });
      expect(stored).toMatchObject({
        tenant_id: 1,
        user_id: reader.caller().userId,
        issue_id: 42,
        action: 'summarize',
        language: 'en',
        text: answer.text,
        rating: null,
      });
    });

    it('when a passage is explained, then its key terms come with their WordNet definitions', async () => {
      const answer = await run('explain', 'The lighthouse keeper trimmed the wick of the lamp before the storm.', 'en');
      expect(answer.text).toMatch(/lighthouse: a tower with a light/);
      expect(answer.text.split('\n').length).toBeLessThanOrEqual(3);
    });

    it('when a Spanish passage is explained in Spanish, then the definitions are translated into Spanish', async () => {
      const answer = await run('explain', 'El faro ilumina la costa durante la tormenta.', 'es');
      expect(answer.language).toBe('es');
      expect(answer.text).toMatch(/faro: .*torre/i);
    });

    it('when a passage is expanded and the reader has no passages for it, then the selection comes back with its key terms explained', async () => {
      const text = 'The lighthouse keeper climbed the stairs.';
      const answer = await run('expand', text, 'en');
      expect(answer.text.startsWith(text)).toBe(true);
      expect(answer.text).toMatch(/lighthouse: a tower/);
    });

    it('when no lang is sent, then the answer is in the tenant language', async () => {
      const answer = await run('summarize', 'The house is big. The dog is black. The cat sleeps all day.', undefined, reader.caller({ tenantLang: 'es' }));
      expect(answer.language).toBe('es');
      expect(answer.text).toMatch(/casa|perro|gato/);
    });

    it('when the action is not one of the three, then 422 names action', async () => {
      await expectRefusal(run('translate', ARTICLE), 'INVALID_ARGUMENT', 'action', /explain, expand, summarize/);
    });

    it('when lang is not an app language, then 422 names lang', async () => {
      await expectRefusal(run('summarize', ARTICLE, 'de'), 'INVALID_ARGUMENT', 'lang');
    });
  });

  describe('rating', () => {
    const rate = (uuid: string, rating: { positive?: boolean; score?: number }, caller = reader.caller()) =>
      app.client.rateAiResponse({ caller, uuid, ...rating });

    it('when the user rates their response, then 200 (empty) and the rating is stored; a second rating is 422', async () => {
      const { uuid } = await run('summarize', ARTICLE, 'en');
      expect(await rate(uuid, { positive: true })).toEqual({});
      const stored = await app.db.collection('ai_responses').findOne({ _id: uuid as never });
      expect(stored!.rating).toMatchObject({ positive: true, score: null });

      await expectRefusal(rate(uuid, { positive: false }), 'INVALID_ARGUMENT', 'uuid', /already rated/);
      expect((await app.db.collection('ai_responses').findOne({ _id: uuid as never }))!.rating.positive).toBe(true);
    });

    it('when the uuid is unknown, then 422 (not found)', async () => {
      await expectRefusal(rate('00000000-0000-4000-8000-000000000000', { positive: true }), 'INVALID_ARGUMENT', 'uuid', /not found/);
    });

    it('when another user rates the response, then 422 (not theirs) and it stays unrated for its user', async () => {
      const { uuid } = await run('summarize', ARTICLE, 'en');
      const stranger = newReader();
      await expectRefusal(rate(uuid, { positive: false }, stranger.caller()), 'INVALID_ARGUMENT', 'uuid', /does not belong/);
      expect(await rate(uuid, { positive: true })).toEqual({});
    });

    it('when a user of another tenant names the uuid, then it is as unknown as a missing one', async () => {
      const { uuid } = await run('summarize', ARTICLE, 'en');
      await expectRefusal(rate(uuid, { positive: true }, reader.caller({ tenantId: 2 })), 'INVALID_ARGUMENT', 'uuid', /not found/);
    });

    it.each([
      [5, true],
      [1, true],
      [0, false],
      [-1, false],
    ])('when a v1 app rates with the integer score %i, then it is stored as positive=%s with the score', async (score, positive) => {
      const { uuid } = await run('summarize', ARTICLE, 'en', reader.caller());
      expect(await rate(uuid, { score }, reader.caller())).toEqual({});
      const stored = await app.db.collection('ai_responses').findOne({ _id: uuid as never });
      expect(stored!.rating).toMatchObject({ positive, score });
    });

    it('when the score is missing, then 422 names score', async () => {
      const { uuid } = await run('summarize', ARTICLE, 'en');
      await expectRefusal(rate(uuid, {}), 'INVALID_ARGUMENT', 'score');
    });

    it('when the same response is rated 10 times at once, then exactly one rating wins', async () => {
      const { uuid } = await run('summarize', ARTICLE, 'en');
      const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => rate(uuid, { positive: i % 2 === 0 })));
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      for (const result of results) {
        if (result.status === 'rejected') expect((result.reason as Error).message).toBe('The given data was invalid.');
      }
    });
  });
});
