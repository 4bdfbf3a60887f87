// Writes issues and collections (the seed, the publisher API and reader's
// content.ingested): to MongoDB first, then straight into this process's
// in-memory view, so the writer reads its own writes at once; other replicas
// catch up by updated_at, at once when they hear the announcement (see
// `announce`), else at their next periodic catch-up.
import type { CatalogSync } from './catalog-sync.js';
import type { CollectionInput, CollectionRepository, IssueInput, IssueRepository, PublisherIssueRepository, StoredIssue } from './repositories.js';

/** Tells the other replicas (and the gateway's response cache) that issues of a tenant changed. */
export type AnnounceIssues = (tenantId: number, issueIds: number[]) => void;

export const CONTENT_TYPES = ['epub', 'pdf', 'audio', 'physical'] as const;

export interface IngestSummary {
  issues: { inserted: number; updated: number; unchanged: number };
  collections: { inserted: number; updated: number; unchanged: number };
}

export class CatalogIngest {
  constructor(
    private readonly store: { issues: IssueRepository & Partial<PublisherIssueRepository>; collections: CollectionRepository },
    private readonly sync?: CatalogSync,
    private readonly announce: AnnounceIssues = () => {},
  ) {}

  /** A new issue (publisher API); null when its id is taken. */
  async insertIssue(input: IssueInput): Promise<StoredIssue | null> {
    return this.applied(await this.publisherStore().insert(input));
  }

  /** Replaces an issue as read (`expected`: its updated_at then); null when it changed meanwhile. */
  async replaceIssue(input: IssueInput, expected: Date): Promise<StoredIssue | null> {
    return this.applied(await this.publisherStore().replace(input, expected));
  }

  /** Removes an issue as read; null when it changed meanwhile. */
  async removeIssue(issue: StoredIssue): Promise<StoredIssue | null> {
    return this.applied(await this.publisherStore().tombstone(issue));
  }

  private applied(doc: StoredIssue | null): StoredIssue | null {
    if (!doc) return null;
    this.sync?.applyIssues([doc]);
    this.sync?.prepare();
    this.announce(doc.tenant_id, [doc._id]);
    return doc;
  }

  private publisherStore(): PublisherIssueRepository {
    const { insert, replace, tombstone } = this.store.issues;
    if (!insert || !replace || !tombstone) throw new Error('CatalogIngest: the issue store takes no publisher writes');
    return this.store.issues as IssueRepository & PublisherIssueRepository;
  }

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
    for (const [tenantId, issueIds] of byTenant(issues.written)) this.announce(tenantId, issueIds);
    const counts = ({ inserted, updated, unchanged }: typeof issues | typeof collections) => ({ inserted, updated, unchanged });
    return { issues: counts(issues), collections: counts(collections) };
  }
}

function byTenant(docs: readonly StoredIssue[]): Map<number, number[]> {
  const tenants = new Map<number, number[]>();
  for (const doc of docs) {
    const ids = tenants.get(doc.tenant_id);
    if (ids) ids.push(doc._id);
    else tenants.set(doc.tenant_id, [doc._id]);
  }
  return tenants;
}
