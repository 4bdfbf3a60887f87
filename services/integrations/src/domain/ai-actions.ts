// AI actions: explain, expand and summarize a selection, every answer stored
// with its user, and a rating per answer that only its user can give, once
// (spec: States, AI response feedback).
import { randomUUID } from 'node:crypto';
import { invalidArgument } from '@folio/errors';
import type { AiResponseRepository } from './ai-responses.js';
import type { Caller } from './caller.js';
import { appLanguageOr, requireAppLanguage } from './languages.js';
import type { AiActionName, AiEngine } from './ports.js';
import { LIMITS, readText } from './text-input.js';

export const AI_ACTIONS: readonly AiActionName[] = ['explain', 'expand', 'summarize'];

export interface AiAnswer {
  uuid: string;
  text: string;
  language: string;
}

/** A rating as each API generation sends it: v2 a boolean, v1 an integer (> 0 positive). */
export type Rating = { positive: boolean } | { score: number };

const invalid = (field: string, reason: string) => invalidArgument('The given data was invalid.', { [field]: [reason] });

export class AiActions {
  constructor(
    private readonly engine: AiEngine,
    private readonly responses: AiResponseRepository,
  ) {}

  /** The actions offered, in the order clients show them (the gateway labels them). */
  list(): readonly AiActionName[] {
    return AI_ACTIONS;
  }

  async run(caller: Caller, input: { action: string; text: string; lang?: string | undefined }): Promise<AiAnswer> {
    const action = AI_ACTIONS.find((name) => name === input.action);
    if (!action) throw invalid('action', `The action must be one of: ${AI_ACTIONS.join(', ')}.`);
    const language = input.lang?.trim() ? requireAppLanguage('lang', input.lang) : appLanguageOr(caller.tenantLang);
    const text = readText(caller, input.text, LIMITS.ai);

    const answer = await this.engine.run({
      action,
      text,
      lang: language,
      context: { tenantId: caller.tenantId, userId: caller.userId, issueId: caller.issueId, session: caller.session },
    });
    const uuid = randomUUID();
    await this.responses.insert({
      id: uuid,
      tenantId: caller.tenantId,
      userId: caller.userId,
      issueId: caller.issueId,
      action,
      language,
      text: answer,
      engine: this.engine.name,
      createdAt: new Date(),
    });
    return { uuid, text: answer, language };
  }

  async rate(caller: Caller, input: { uuid: string; rating: Rating | undefined }): Promise<void> {
    if (!input.uuid.trim()) throw invalid('uuid', 'The uuid field is required.');
    if (!input.rating) throw invalid('score', 'The score field is required.');
    const rating =
      'positive' in input.rating ? { positive: input.rating.positive, score: null } : { positive: input.rating.score > 0, score: input.rating.score };

    // Scoped to the tenant: another tenant's response is as unknown as a missing one.
    const response = await this.responses.findInTenant(caller.tenantId, input.uuid.trim());
    if (!response) throw invalid('uuid', 'The AI response was not found.');
    if (response.userId !== caller.userId) throw invalid('uuid', 'The AI response does not belong to the user.');
    if ((await this.responses.rateOnce(response, rating)) === 'already_rated') throw invalid('uuid', 'The AI response was already rated.');
  }
}
