// An AI answer as the domain keeps it, and what the AI use cases need from
// storage (implemented in data/ai-responses.ts). Every response is stored
// with its tenant, user and issue, so only its user can rate it, once.

export interface AiResponse {
  /** The uuid the client rates it by. */
  id: string;
  tenantId: number;
  userId: number;
  issueId: number;
  action: string;
  language: string;
  text: string;
  /** Which engine answered: local, openai-compatible. */
  engine: string;
  createdAt: Date;
}

export interface AiRating {
  positive: boolean;
  score: number | null;
}

export type RateOutcome = 'rated' | 'already_rated';

export interface AiResponseRepository {
  insert(response: AiResponse): Promise<void>;
  /** A response of one tenant: another tenant's is as unknown as a missing one. */
  findInTenant(tenantId: number, id: string): Promise<AiResponse | null>;
  /** Claims the one rating of a response; `already_rated` when it was rated before (by any caller, concurrently or not). */
  rateOnce(response: Pick<AiResponse, 'id' | 'tenantId' | 'userId'>, rating: AiRating): Promise<RateOutcome>;
  /** Account erasure: every response and rating of the user, in every tenant; how many responses went. */
  eraseUser(userId: number): Promise<number>;
}
