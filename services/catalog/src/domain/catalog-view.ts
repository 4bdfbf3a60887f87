// The in-memory read model every listing is answered from: per tenant, the
// issues (with a search index and lazily sorted shelf orders) and the
// collections. MongoDB is the source of truth; this view is loaded from it at
// start (or from a snapshot of itself, see snapshot.ts) and follows it (see
// catalog-sync.ts).
//
// Why in memory: FerretDB (the local MongoDB) has no usable text search and
// is slow at sorted, filtered queries, while the listings need ranking,
// access filtering by sets that come from commerce, and paging with exact
// totals. At 100,000 issues the whole view takes about 100 MB of heap (a
// restored snapshot of the scale dataset's issues over six tenants, after a
// full GC; 160 MB before records shared their lists and dropped a Date each,
// see shared-values.ts), which a catalog replica can afford.
import { SearchIndex, type IndexSnapshot, type Searchable } from './search-index.js';

/** Shared between records (see shared-values.ts): never changed in place. */
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
  /** Shared between records (see shared-values.ts): never changed in place. */
  collections: readonly string[];
  coverUrl: string | null;
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

/** One tenant's issues (in index slot order) and their index, as snapshot() exports and restore() adopts them. */
export interface TenantSnapshot {
  tenantId: number;
  issues: IssueRecord[];
  index: IndexSnapshot;
}

export class TenantCatalog {
  readonly issues = new Map<number, IssueRecord>();
  private readonly collections = new Map<string, CollectionRecord>();
  private recency: IssueRecord[] | undefined;
  private readonly collectionOrders = new Map<string, IssueRecord[]>();

  constructor(
    readonly tenantId: number,
    readonly index = new SearchIndex<IssueRecord>(),
  ) {
    for (const issue of index.documents()) this.issues.set(issue.id, issue);
  }

  upsertIssue(issue: IssueRecord): void {
    this.issues.set(issue.id, issue);
    this.index.upsert(issue);
    this.invalidateOrders();
  }

  removeIssue(issueId: number): void {
    if (!this.issues.delete(issueId)) return;
    this.index.remove(issueId);
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

  /** Every issue, newest first (the latest-issues shelf). */
  latest(): readonly IssueRecord[] {
    this.recency ??= [...this.issues.values()].sort(byRecency);
    return this.recency;
  }

  /** The issues of a collection, newest first. */
  inCollection(slug: string): readonly IssueRecord[] {
    let order = this.collectionOrders.get(slug);
    if (!order) {
      order = this.latest().filter((issue) => issue.collections.includes(slug));
      this.collectionOrders.set(slug, order);
    }
    return order;
  }

  /** Sorts what the next listing or search would sort, so that no request pays for it. */
  prepare(): void {
    this.index.prepare();
    this.latest();
  }

  snapshot(): TenantSnapshot {
    const { docs, index } = this.index.snapshot();
    return { tenantId: this.tenantId, issues: docs, index };
  }

  private invalidateOrders(): void {
    this.recency = undefined;
    this.collectionOrders.clear();
  }
}

export class CatalogView {
  private readonly tenants = new Map<number, TenantCatalog>();
  /** Issue id -> tenant, so that an issue moved to another tenant leaves the old one. */
  private readonly tenantOfIssue = new Map<number, number>();

  tenant(tenantId: number): TenantCatalog | undefined {
    return this.tenants.get(tenantId);
  }

  issue(tenantId: number, issueId: number): IssueRecord | undefined {
    return this.tenants.get(tenantId)?.issues.get(issueId);
  }

  /** An issue by id alone: for the sync, which must find it whatever its tenant. */
  issueById(issueId: number): IssueRecord | undefined {
    const tenantId = this.tenantOfIssue.get(issueId);
    return tenantId === undefined ? undefined : this.issue(tenantId, issueId);
  }

  get issueCount(): number {
    return this.tenantOfIssue.size;
  }

  upsertIssue(issue: IssueRecord): void {
    const previousTenant = this.tenantOfIssue.get(issue.id);
    if (previousTenant !== undefined && previousTenant !== issue.tenantId) this.tenants.get(previousTenant)?.removeIssue(issue.id);
    this.tenantOfIssue.set(issue.id, issue.tenantId);
    this.tenantCatalog(issue.tenantId).upsertIssue(issue);
  }

  removeIssue(issueId: number): void {
    const tenantId = this.tenantOfIssue.get(issueId);
    if (tenantId === undefined) return;
    this.tenantOfIssue.delete(issueId);
    this.tenants.get(tenantId)?.removeIssue(issueId);
  }

  /** Every tenant's issues and index, and every collection: the content of a snapshot. */
  snapshot(): { tenants: TenantSnapshot[]; collections: CollectionRecord[] } {
    const tenants = [...this.tenants.values()];
    return { tenants: tenants.map((catalog) => catalog.snapshot()), collections: tenants.flatMap((catalog) => catalog.collectionList()) };
  }

  /** Replaces the whole content with a snapshot's (before the service takes calls). */
  restore(snapshot: { tenants: readonly TenantSnapshot[]; collections: readonly CollectionRecord[] }): void {
    this.tenants.clear();
    this.tenantOfIssue.clear();
    for (const tenant of snapshot.tenants) {
      this.tenants.set(tenant.tenantId, new TenantCatalog(tenant.tenantId, SearchIndex.restore(tenant.issues, tenant.index)));
      for (const issue of tenant.issues) this.tenantOfIssue.set(issue.id, tenant.tenantId);
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
      catalog = new TenantCatalog(tenantId);
      this.tenants.set(tenantId, catalog);
    }
    return catalog;
  }
}
