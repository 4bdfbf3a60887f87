// AI responses and their ratings. Every response is stored with its tenant,
// user and issue so that only its user can rate it, once. The reader's input
// text is not stored: it is the publication's content, encrypted on the wire,
// and the rating is about the answer.
//
// "Rate once" is a compare-and-set, which the local stack's FerretDB does not
// isolate for conditional updates; so the rating is claimed with a unique
// insert keyed by the response uuid (claimOnce), atomic on MongoDB and
// FerretDB alike, and only the winner writes the rating onto the response.
import { claimOnce, ensureIndexes, modelOn, type Connection } from '@folio/mongo';
import { Schema, type Model } from 'mongoose';
import type { AiRating, AiResponse, AiResponseRepository, RateOutcome } from '../domain/ai-responses.js';

export interface AiResponseDoc {
  _id: string;
  tenant_id: number;
  user_id: number;
  issue_id: number;
  action: string;
  language: string;
  text: string;
  /** Which engine answered: local, openai-compatible. */
  engine: string;
  created_at: Date;
  rating: { positive: boolean; score: number | null; rated_at: Date } | null;
}

const RATING_CLAIMS = 'ai_rating_claims';

const aiResponseSchema = new Schema<AiResponseDoc>(
  {
    _id: { type: String, required: true },
    tenant_id: { type: Number, required: true },
    user_id: { type: Number, required: true },
    issue_id: { type: Number, required: true },
    action: { type: String, required: true },
    language: { type: String, required: true },
    text: { type: String, required: true },
    engine: { type: String, required: true },
    created_at: { type: Date, required: true },
    rating: { type: Schema.Types.Mixed, default: null },
  },
  { collection: 'ai_responses', versionKey: false },
);
aiResponseSchema.index({ tenant_id: 1, user_id: 1, created_at: -1 });
aiResponseSchema.index({ user_id: 1 });

const fromDoc = (doc: AiResponseDoc): AiResponse => ({
  id: doc._id,
  tenantId: doc.tenant_id,
  userId: doc.user_id,
  issueId: doc.issue_id,
  action: doc.action,
  language: doc.language,
  text: doc.text,
  engine: doc.engine,
  createdAt: new Date(doc.created_at),
});

export class MongoAiResponseRepository implements AiResponseRepository {
  constructor(
    private readonly connection: Connection,
    private readonly model: Model<AiResponseDoc>,
  ) {}

  static async open(connection: Connection): Promise<MongoAiResponseRepository> {
    const model = modelOn(connection, 'AiResponse', aiResponseSchema);
    await ensureIndexes(connection);
    return new MongoAiResponseRepository(connection, model);
  }

  async findInTenant(tenantId: number, id: string): Promise<AiResponse | null> {
    const doc = await this.model.findOne({ _id: id, tenant_id: tenantId }).lean<AiResponseDoc>().exec();
    return doc ? fromDoc(doc) : null;
  }

  async insert(response: AiResponse): Promise<void> {
    await this.model.create({
      _id: response.id,
      tenant_id: response.tenantId,
      user_id: response.userId,
      issue_id: response.issueId,
      action: response.action,
      language: response.language,
      text: response.text,
      engine: response.engine,
      created_at: response.createdAt,
      rating: null,
    });
  }

  async rateOnce(response: Pick<AiResponse, 'id' | 'tenantId' | 'userId'>, rating: AiRating): Promise<RateOutcome> {
    const won = await claimOnce(this.connection, RATING_CLAIMS, response.id, {
      tenant_id: response.tenantId,
      user_id: response.userId,
      positive: rating.positive,
      score: rating.score,
    });
    if (!won) return 'already_rated';
    await this.model.updateOne({ _id: response.id, tenant_id: response.tenantId }, { $set: { rating: { ...rating, rated_at: new Date() } } }).exec();
    return 'rated';
  }

  /** Account erasure: every response and rating of the user, in every tenant. */
  async eraseUser(userId: number): Promise<number> {
    // Claims first: once the user's responses are gone, so is everything else of theirs.
    await this.connection.collection(RATING_CLAIMS).deleteMany({ user_id: userId });
    const { deletedCount } = await this.model.deleteMany({ user_id: userId }).exec();
    return deletedCount;
  }
}
