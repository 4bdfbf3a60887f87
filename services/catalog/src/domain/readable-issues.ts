// What one user can read in one tenant, as shelves list it: newest first,
// for the whole tenant and for each collection. Built once per access answer
// (the AccessibleContent object CachedAccess keeps for the user) and per
// state of the tenant's view, then reused by every request until either
// changes, so that a listing pays for its page and not for the user's whole
// readable set (at scale a member of a store with 1,700 free issues sorted
// them on every request).
//
// Keyed weakly by the access answer: when the cache drops or replaces it, the
// lists go with it. The view's state is the identity of its latest-issues
// order, which TenantCatalog rebuilds whenever an issue changes.
import { byRecency, type IssueRecord, type TenantCatalog } from './catalog-view.js';
import { canRead, type AccessibleContent } from './ports.js';

interface TenantLists {
  /** The view's order these lists were built from. */
  order: readonly IssueRecord[];
  /** Every issue the user can read, withdrawn ones included: their shelf (my-content). */
  held: readonly IssueRecord[];
  /** Of those, the listed (published) ones: what listings show. */
  own: readonly IssueRecord[];
  byCollection: Map<string, readonly IssueRecord[]>;
}

const built = new WeakMap<AccessibleContent, Map<number, TenantLists>>();

function listsOf(content: AccessibleContent, catalog: TenantCatalog): TenantLists {
  let perTenant = built.get(content);
  if (!perTenant) {
    perTenant = new Map();
    built.set(content, perTenant);
  }
  const order = catalog.latest();
  const known = perTenant.get(catalog.tenantId);
  if (known && known.order === order) return known;
  const held: IssueRecord[] = [];
  for (const [issueId, grant] of content.issues) {
    const issue = grant.tenantId === catalog.tenantId ? catalog.issue(issueId) : undefined;
    if (issue) held.push(issue);
  }
  held.sort(byRecency);
  const own = held.every((issue) => issue.listed) ? held : held.filter((issue) => issue.listed);
  const lists: TenantLists = { order, held, own, byCollection: new Map() };
  perTenant.set(catalog.tenantId, lists);
  return lists;
}

/**
 * Every issue of the tenant the user can read, newest first, withdrawn ones
 * included: a withdrawn issue leaves the listings, not the shelves of those
 * who have it.
 */
export function readableHeld(content: AccessibleContent, catalog: TenantCatalog): readonly IssueRecord[] {
  if (content.wholeTenants.has(catalog.tenantId)) return catalog.heldNewestFirst();
  return listsOf(content, catalog).held;
}

/**
 * The readable listed issues of a shelf, newest first. `shelf` is the shelf's own
 * list (the tenant's latest issues, or a collection's); `collection` names
 * it when it is a collection, undefined for the latest-issues shelf.
 */
export function readableShelf(
  content: AccessibleContent,
  catalog: TenantCatalog,
  shelf: readonly IssueRecord[],
  collection: string | undefined,
): readonly IssueRecord[] {
  // Every issue of the tenant is readable (free access, a plan covering everything).
  if (content.wholeTenants.has(catalog.tenantId)) return shelf;
  const lists = listsOf(content, catalog);
  if (collection === undefined) return lists.own;
  let readable = lists.byCollection.get(collection);
  if (!readable) {
    // From the smaller side: the user's issues filtered by membership, or the shelf filtered by access.
    readable =
      lists.own.length <= shelf.length ? lists.own.filter((issue) => issue.collections.includes(collection)) : shelf.filter((issue) => canRead(content, issue));
    lists.byCollection.set(collection, readable);
  }
  return readable;
}
