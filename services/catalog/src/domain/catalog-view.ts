// The in-memory read model every listing is answered from: per tenant, the
// issues (with a search index and lazily sorted shelf orders) and the
// collections. MongoDB is the source of truth; this view is loaded from it at
// start (or from a snapshot of itself, see snapshot.ts) and follows it (see
// catalog-sync.ts).
//
// Why in memory: FerretDB (the local MongoDB) has no usable text search and
// is slow at sorted, filtered queries, while the listings need ranking,
// access filtering by sets that come from commerce, and paging with exact
// totals. What is in memory is what those need: each issue's key fields
// (id, tenant, type, dates, shelves) and the index; the rest of an issue is
// read from its tenant's details store when a page presents it
// (issue-details.ts). At 100,000 issues that is about 30 MB of heap and 12 MB
// of packed postings (a restored snapshot of the scale dataset, after a full
// GC; 160 MB with every field in the heap, see docs/architecture.md).
import { ViewIssue, type EncodedDetails, type IssueDetailsStore, type IssueKeyFields } from './issue-details.js';
import { SearchIndex, type IndexSnapshot, type RecencyOrder, type Searchable } from './search-index.js';
import type { StoredAccessibility } from './repositories.js';

/** Never changed in place. */
export interface IssueTags {
  readonly author: readonly string[];
  readonly keyword: readonly string[];
  readonly edition: readonly string[];
}

export interface IssueRecord extends Searchable {
  id: number;
  tenantId: number;
  name: string;
  slug: string;
  /** epub | pdf | audio | physical */
  type: string;
  description: string;
  externalId: string;
  numberOfPages: number | null;
  lang: string;
  author: string;
  publisher: string;
  bisac: string;
  /** published_at in ms since the epoch (no Date per record: 100 bytes each at 100,000 issues). */
  publishedAtMs: number;
  tags: IssueTags;
  /** The search index's keyword field: tags.keyword. */
  keywords: readonly string[];
  /** Shared between records (see value-pool.ts): never changed in place. */
  collections: readonly string[];
  coverUrl: string | null;
  /** What the file declares of its accessibility; null when nothing is known. */
  accessibility: StoredAccessibility | null;
  /**
   * Published: in every listing. False for a withdrawn issue, which the view
   * keeps (by id, for GetIssue, my-content and continue reading) but lists
   * nowhere and indexes for no search. Drafts are not in the view at all.
   */
  listed: boolean;
  /** The stored document's updated_at: a catch-up skips documents the view already has. */
  updatedAtMs: number;
}

export interface CollectionRecord {
  tenantId: number;
  slug: string;
  title: Readonly<Record<string, string>>;
  position: number;
}

/** Newest first, then the higher id: the order of every shelf and of my-content. */
export function byRecency(a: IssueRecord, b: IssueRecord): number {
  return b.publishedAtMs - a.publishedAtMs || b.id - a.id;
}

/**
 * One tenant's issues (in index slot order: their key fields, and their
 * details encoded in the same order) and their index, as snapshot() exports
 * and restore() adopts them.
 */
export interface TenantSnapshot {
  tenantId: number;
  issues: IssueKeyFields[];
  details: EncodedDetails;
  index: IndexSnapshot;
}

/** What an unlisted issue gives the search index: no terms, so no search finds it. */
const UNSEARCHABLE = { name: '', author: '', publisher: '', keywords: [] as string[], description: '' };

/**
 * What the index reads of a listed issue: the record itself, or, when it has
 * creators besides its `author` (tags.author: every creator the publisher or
 * the file named), all of them in the author field, so a co-author finds it.
 */
function searchableOf(issue: IssueRecord): Searchable {
  const others = issue.tags.author.filter((name) => name && name !== issue.author);
  if (others.length === 0) return issue;
  const { id, publishedAtMs, name, publisher, keywords, description } = issue;
  return { id, publishedAtMs, name, publisher, keywords, description, author: [issue.author, ...others].join(' ') };
}

/** Gives each tenant of a view the store of its issues' details. */
export type DetailsStores = (tenantId: number) => IssueDetailsStore;

export class TenantCatalog {
  /** Also the tenant's issues by id (one map for both: it is 5 MB at 100,000 issues). */
  readonly index: SearchIndex<ViewIssue>;
  private readonly collections = new Map<string, CollectionRecord>();
  private recency: ViewIssue[] | undefined;
  private held: ViewIssue[] | undefined;
  private readonly collectionOrders = new Map<string, ViewIssue[]>();

  constructor(
    readonly tenantId: number,
    private readonly details: IssueDetailsStore,
    restored?: Pick<TenantSnapshot, 'issues' | 'details' | 'index'>,
  ) {
    if (restored) {
      const locations = details.appendEncoded(restored.details);
      if (locations.length !== restored.issues.length) throw new Error('tenant snapshot: details do not match issues');
      details.flush();
      this.index = SearchIndex.restore(
        restored.issues.map((key, i) => new ViewIssue(key, locations[i]!)),
        restored.index,
      );
    } else {
      this.index = new SearchIndex<ViewIssue>();
    }
  }

  issue(issueId: number): ViewIssue | undefined {
    return this.index.get(issueId);
  }

  get issueCount(): number {
    return this.index.size;
  }

  /** Adds or replaces an issue: its details go to the tenant's store, its key fields stay here. */
  upsertIssue(issue: IssueRecord): void {
    const previous = this.index.get(issue.id);
    const record = new ViewIssue(issue, this.details.append(issue));
    // Terms come from the incoming record: no need to read back what was just stored.
    this.index.upsert(record, issue.listed ? searchableOf(issue) : { ...UNSEARCHABLE, id: issue.id, publishedAtMs: issue.publishedAtMs });
    if (previous) this.release(previous);
    this.invalidateOrders();
  }

  removeIssue(issueId: number): void {
    const previous = this.index.get(issueId);
    if (!previous) return;
    this.index.remove(issueId);
    this.release(previous);
    this.invalidateOrders();
  }

  upsertCollection(collection: CollectionRecord): void {
    this.collections.set(collection.slug, collection);
  }

  removeCollection(slug: string): void {
    this.collections.delete(slug);
    this.collectionOrders.delete(slug);
  }

  collection(slug: string): CollectionRecord | undefined {
    return this.collections.get(slug);
  }

  /** The tenant's collections in library order. */
  collectionList(): CollectionRecord[] {
    return [...this.collections.values()].sort((a, b) => a.position - b.position || a.slug.localeCompare(b.slug));
  }

  /** Every listed (published) issue, newest first: the latest-issues shelf, and what every listing starts from. */
  latest(): readonly ViewIssue[] {
    if (!this.recency) {
      const order = this.heldNewestFirst().filter((issue) => issue.listed);
      for (let i = 0; i < order.length; i++) order[i]!.recencyRank = i;
      this.recency = order;
    }
    return this.recency;
  }

  /**
   * Every issue the view holds, withdrawn ones included, newest first: what
   * those who have access keep on their shelves (my-content), never a listing.
   */
  heldNewestFirst(): readonly ViewIssue[] {
    this.held ??= this.index.documents().sort(byRecency);
    return this.held;
  }

  /** The issues newest first as they are now, and each one's place there: what a search sorts its hits by. */
  recencyOrder(): RecencyOrder<IssueRecord> {
    return { docs: this.latest(), rankOf: (doc) => (doc as ViewIssue).recencyRank };
  }

  /** The issues of a collection, newest first. */
  inCollection(slug: string): readonly ViewIssue[] {
    let order = this.collectionOrders.get(slug);
    if (!order) {
      order = this.latest().filter((issue) => issue.collections.includes(slug));
      this.collectionOrders.set(slug, order);
    }
    return order;
  }

  /** Sorts what the next listing or search would sort, so that no request pays for it. */
  prepare(): void {
    this.details.flush();
    this.index.prepare();
    this.latest();
  }

  snapshot(): TenantSnapshot {
    const { docs, index } = this.index.snapshot();
    return { tenantId: this.tenantId, issues: docs, details: this.details.encode(docs), index };
  }

  private release(record: ViewIssue): void {
    this.details.released(record.detailsLength);
    if (this.details.wantsCompaction) this.details.compact(this.index.documents());
  }

  private invalidateOrders(): void {
    this.recency = undefined;
    this.held = undefined;
    this.collectionOrders.clear();
  }
}

export class CatalogView {
  private readonly tenants = new Map<number, TenantCatalog>();

  constructor(private readonly detailsStores: DetailsStores) {}

  tenant(tenantId: number): TenantCatalog | undefined {
    return this.tenants.get(tenantId);
  }

  issue(tenantId: number, issueId: number): ViewIssue | undefined {
    return this.tenants.get(tenantId)?.issue(issueId);
  }

  /**
   * An issue by id alone: for the sync, which must find it whatever its tenant.
   * Asks each tenant (publishers are few) rather than keeping a map of every
   * issue's tenant, which was 3.7 MB at 100,000 issues.
   */
  issueById(issueId: number): ViewIssue | undefined {
    for (const catalog of this.tenants.values()) {
      const issue = catalog.issue(issueId);
      if (issue) return issue;
    }
    return undefined;
  }

  get issueCount(): number {
    let count = 0;
    for (const catalog of this.tenants.values()) count += catalog.issueCount;
    return count;
  }

  upsertIssue(issue: IssueRecord): void {
    // An issue moved to another tenant leaves the old one.
    const previous = this.issueById(issue.id);
    if (previous && previous.tenantId !== issue.tenantId) this.tenants.get(previous.tenantId)?.removeIssue(issue.id);
    this.tenantCatalog(issue.tenantId).upsertIssue(issue);
  }

  removeIssue(issueId: number): void {
    const previous = this.issueById(issueId);
    if (previous) this.tenants.get(previous.tenantId)?.removeIssue(issueId);
  }

  /** Every tenant's issues and index, and every collection: the content of a snapshot. */
  snapshot(): { tenants: TenantSnapshot[]; collections: CollectionRecord[] } {
    const tenants = [...this.tenants.values()];
    return { tenants: tenants.map((catalog) => catalog.snapshot()), collections: tenants.flatMap((catalog) => catalog.collectionList()) };
  }

  /** Replaces the whole content with a snapshot's (before the service takes calls). */
  restore(snapshot: { tenants: readonly TenantSnapshot[]; collections: readonly CollectionRecord[] }): void {
    this.tenants.clear();
    for (const tenant of snapshot.tenants) {
      this.tenants.set(tenant.tenantId, new TenantCatalog(tenant.tenantId, this.detailsStores(tenant.tenantId), tenant));
    }
    for (const collection of snapshot.collections) this.upsertCollection(collection);
  }

  /** Prepares every tenant (after a load or a catch-up). */
  prepare(): void {
    for (const catalog of this.tenants.values()) catalog.prepare();
  }

  upsertCollection(collection: CollectionRecord): void {
    this.tenantCatalog(collection.tenantId).upsertCollection(collection);
  }

  removeCollection(tenantId: number, slug: string): void {
    this.tenants.get(tenantId)?.removeCollection(slug);
  }

  private tenantCatalog(tenantId: number): TenantCatalog {
    let catalog = this.tenants.get(tenantId);
    if (!catalog) {
      catalog = new TenantCatalog(tenantId, this.detailsStores(tenantId));
      this.tenants.set(tenantId, catalog);
    }
    return catalog;
  }
}
