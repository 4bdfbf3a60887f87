// The catalog database: one mongoose schema per collection, with the indexes
// its query paths need. The issue and collection documents are the domain's
// stored shapes (domain/repositories.ts) field for field, plus the change bucket.
// Repositories return plain objects; nothing outside data/ sees mongoose.
import { Schema, type Connection, type Model } from 'mongoose';
import { modelOn } from '@folio/mongo';
import type { StoredCollection, StoredIssue } from '../domain/repositories.js';

/** An issue as stored: the domain's StoredIssue plus what only the catch-up queries use. */
export interface IssueDoc extends StoredIssue {
  /** updated_at cut to 10 s: what the catch-up looks up by equality (change-buckets.ts). */
  change_bucket?: number;
}

/** A counter new ids are drawn from with $inc (issue ids: `_id: "issue_id"`). */
export interface CounterDoc {
  _id: string;
  seq: number;
}

/** A collection as stored: the domain's StoredCollection plus its change bucket. */
export interface CollectionDoc extends StoredCollection {
  change_bucket?: number;
}

/**
 * One favorite; `_id` is `<tenant_id>:<user_id>:<issue_id>`, so "is a favorite"
 * is the existence of one document and a toggle is a unique insert or a delete,
 * both atomic on FerretDB and MongoDB alike.
 */
export interface FavoriteDoc {
  _id: string;
  tenant_id: number;
  user_id: number;
  issue_id: number;
  created_at: Date;
}

const issueSchema = new Schema<IssueDoc>(
  {
    _id: { type: Number, required: true },
    tenant_id: { type: Number, required: true },
    name: { type: String, required: true },
    slug: { type: String, required: true },
    type: { type: String, required: true },
    lang: { type: String, default: '' },
    author: { type: String, default: '' },
    publisher: { type: String, default: '' },
    bisac: { type: String, default: '' },
    external_id: { type: String, default: '' },
    published_at: { type: Date, required: true },
    number_of_pages: { type: Number, default: null },
    description: { type: String, default: '' },
    tags: {
      author: { type: [String], default: [] },
      keyword: { type: [String], default: [] },
      edition: { type: [String], default: [] },
    },
    collections: { type: [String], default: [] },
    cover_url: { type: String, default: null },
    // The publisher API's fields; absent on seeded issues (a missing state reads as published).
    state: { type: String },
    authors: { type: [String], default: undefined },
    isbn: { type: String },
    first_published_at: { type: Date },
    created_at: { type: Date },
    accessibility: { type: Schema.Types.Mixed },
    content_hash: { type: String },
    deleted_at: { type: Date, default: null },
    updated_at: { type: Date, required: true },
    change_bucket: { type: Number },
  },
  { collection: 'issues', versionKey: false, minimize: false },
);
issueSchema.index({ updated_at: 1 });
issueSchema.index({ change_bucket: 1, updated_at: 1, _id: 1 });
issueSchema.index({ tenant_id: 1, published_at: -1, _id: -1 });
// The publisher API: a tenant's issues newest first, and the uniqueness checks of slugs and external ids.
issueSchema.index({ tenant_id: 1, _id: -1 });
issueSchema.index({ tenant_id: 1, external_id: 1 });
issueSchema.index({ tenant_id: 1, slug: 1 });

const counterSchema = new Schema<CounterDoc>(
  { _id: { type: String, required: true }, seq: { type: Number, required: true } },
  { collection: 'counters', versionKey: false },
);

const collectionSchema = new Schema<CollectionDoc>(
  {
    _id: { type: String, required: true },
    tenant_id: { type: Number, required: true },
    slug: { type: String, required: true },
    title: { type: Schema.Types.Mixed, default: {} },
    position: { type: Number, default: 0 },
    deleted_at: { type: Date, default: null },
    updated_at: { type: Date, required: true },
    change_bucket: { type: Number },
  },
  { collection: 'collections', versionKey: false, minimize: false },
);
collectionSchema.index({ updated_at: 1 });
collectionSchema.index({ change_bucket: 1, updated_at: 1 });
collectionSchema.index({ tenant_id: 1, position: 1 });

const favoriteSchema = new Schema<FavoriteDoc>(
  {
    _id: { type: String, required: true },
    tenant_id: { type: Number, required: true },
    user_id: { type: Number, required: true },
    issue_id: { type: Number, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: 'favorites', versionKey: false },
);
favoriteSchema.index({ user_id: 1 });

export interface CatalogModels {
  issues: Model<IssueDoc>;
  counters: Model<CounterDoc>;
  collections: Model<CollectionDoc>;
  favorites: Model<FavoriteDoc>;
}

export function catalogModels(connection: Connection): CatalogModels {
  return {
    issues: modelOn(connection, 'Issue', issueSchema),
    counters: modelOn(connection, 'Counter', counterSchema),
    collections: modelOn(connection, 'Collection', collectionSchema),
    favorites: modelOn(connection, 'Favorite', favoriteSchema),
  };
}
