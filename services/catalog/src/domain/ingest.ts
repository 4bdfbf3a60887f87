// Writes issues and collections (the seed today, an ingest API later): to
// MongoDB first, then straight into this process's in-memory view, so the
// writer reads its own writes at once; other replicas catch up by updated_at.
import type { CatalogSync } from './catalog-sync.js';
import type { CollectionInput, CollectionStore, IssueInput, IssueStore } from './storage.js';

export const CONTENT_TYPES = ['epub', 'pdf', 'audio', 'physical'] as const;

export interface IngestSummary {
  issues: { inserted: number; updated: number; unchanged: number };
  collections: { inserted: number; updated: number; unchanged: number };
}

export class CatalogIngest {
  constructor(
    private readonly store: { issues: IssueStore; collections: CollectionStore },
    private readonly sync?: CatalogSync,
  ) {}

  async write(input: { issues: IssueInput[]; collections: CollectionInput[] }): Promise<IngestSummary> {
    for (const issue of input.issues) {
      if (!(CONTENT_TYPES as readonly string[]).includes(issue.type)) throw new Error(`issue ${issue._id}: unknown type ${issue.type}`);
      if (Number.isNaN(new Date(issue.published_at).getTime())) throw new Error(`issue ${issue._id}: invalid published_at`);
    }
    const collections = await this.store.collections.upsertMany(input.collections);
    const issues = await this.store.issues.upsertMany(input.issues);
    this.sync?.applyCollections(collections.written);
    this.sync?.applyIssues(issues.written);
    this.sync?.prepare();
    const counts = ({ inserted, updated, unchanged }: typeof issues | typeof collections) => ({ inserted, updated, unchanged });
    return { issues: counts(issues), collections: counts(collections) };
  }
}
