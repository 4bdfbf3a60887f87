// GET /api/v2/user/my-content: every publication the user can read across
// their tenants (commerce's ListAccessibleIssues: issues one by one and whole
// tenants), including never-opened ones, excluding physical items, without
// commerce fields; newest first (published_at, then id), with cursor pages.
//
// Each tenant contributes a list already in that order (a whole tenant: its
// latest-issues order; otherwise its accessible issues, sorted), and a page is
// a k-way merge of those lists from the cursor's position, found by binary
// search, so a page costs O(tenants x log n + per_page) whatever the size.
import type { CatalogView, IssueRecord } from './catalog-view.js';
import { byRecency } from './catalog-view.js';
import type { CursorCodec, CursorPosition } from './cursor.js';
import { perPageParam } from './paging.js';
import { readableHeld } from './readable-issues.js';
import type { AccessPort } from './ports.js';
import type { SectionView } from './listing.js';

export const MY_CONTENT_DEFAULT_PER_PAGE = 6;

export interface MyContentRequest {
  tenantIds: readonly number[];
  userId: number;
  perPage: number;
  cursor: string;
}

export interface CursorMetaView {
  perPage: number;
  nextCursor: string | null;
  prevCursor: string | null;
}

type Source = readonly IssueRecord[];

const listed = (issue: IssueRecord) => issue.type !== 'physical';

export class MyContent {
  constructor(private readonly deps: { view: CatalogView; access: AccessPort; cursors: CursorCodec }) {}

  async list(request: MyContentRequest): Promise<{ section: SectionView; meta: CursorMetaView }> {
    const perPage = perPageParam(request.perPage, MY_CONTENT_DEFAULT_PER_PAGE);
    const { cursors } = this.deps;
    // A bad cursor is refused before any other work.
    const position = request.cursor ? cursors.decode(request.cursor, request.userId) : undefined;
    const sources = await this.sources(request);

    const items = position?.direction === 'before' ? takeBackward(sources, position, perPage) : takeForward(sources, position, perPage);
    const first = items[0];
    const last = items.at(-1);
    const meta: CursorMetaView = {
      perPage,
      nextCursor: last && hasAfter(sources, last) ? cursors.encode({ direction: 'after', ...keyOf(last) }, request.userId) : null,
      prevCursor: first && hasBefore(sources, first) ? cursors.encode({ direction: 'before', ...keyOf(first) }, request.userId) : null,
    };
    return {
      section: { kind: 'my_content', filter: { name: 'section', value: 'my_content' }, data: items.map((issue) => ({ issue })) },
      meta,
    };
  }

  private async sources(request: MyContentRequest): Promise<Source[]> {
    const { view, access } = this.deps;
    const tenantIds = [...new Set(request.tenantIds.filter((id) => id > 0))];
    if (tenantIds.length === 0) return [];
    const content = await access.accessible(tenantIds, request.userId);
    const sources: Source[] = [];
    for (const tenantId of tenantIds) {
      const catalog = view.tenant(tenantId);
      if (!catalog) continue;
      // Sorted once per access answer (readable-issues.ts), not per page; withdrawn issues stay on the shelf.
      const readable = readableHeld(content, catalog);
      if (readable.length > 0) sources.push(readable);
    }
    return sources;
  }
}

function keyOf(issue: IssueRecord): { publishedAtMs: number; issueId: number } {
  return { publishedAtMs: issue.publishedAtMs, issueId: issue.id };
}

/** Negative when the issue comes before the position in the listing's order. */
function compareToPosition(issue: IssueRecord, position: { publishedAtMs: number; issueId: number }): number {
  return position.publishedAtMs - issue.publishedAtMs || position.issueId - issue.id;
}

/** First index whose issue comes after the position (or is it, when `inclusive`). */
function boundary(source: Source, position: { publishedAtMs: number; issueId: number }, inclusive: boolean): number {
  let lo = 0;
  let hi = source.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareToPosition(source[mid]!, position);
    if (c < 0 || (c === 0 && !inclusive)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function takeForward(sources: Source[], position: CursorPosition | undefined, perPage: number): IssueRecord[] {
  const at = sources.map((source) => (position ? boundary(source, position, false) : 0));
  const taken: IssueRecord[] = [];
  while (taken.length < perPage) {
    let best = -1;
    for (let s = 0; s < sources.length; s++) {
      while (at[s]! < sources[s]!.length && !listed(sources[s]![at[s]!]!)) at[s]! += 1;
      const candidate = sources[s]![at[s]!];
      if (candidate && (best < 0 || byRecency(candidate, sources[best]![at[best]!]!) < 0)) best = s;
    }
    if (best < 0) break;
    taken.push(sources[best]![at[best]!]!);
    at[best]! += 1;
  }
  return taken;
}

function takeBackward(sources: Source[], position: CursorPosition, perPage: number): IssueRecord[] {
  const at = sources.map((source) => boundary(source, position, true) - 1);
  const taken: IssueRecord[] = [];
  while (taken.length < perPage) {
    let best = -1;
    for (let s = 0; s < sources.length; s++) {
      while (at[s]! >= 0 && !listed(sources[s]![at[s]!]!)) at[s]! -= 1;
      const candidate = at[s]! >= 0 ? sources[s]![at[s]!] : undefined;
      if (candidate && (best < 0 || byRecency(candidate, sources[best]![at[best]!]!) > 0)) best = s;
    }
    if (best < 0) break;
    taken.push(sources[best]![at[best]!]!);
    at[best]! -= 1;
  }
  return taken.reverse();
}

function hasAfter(sources: Source[], issue: IssueRecord): boolean {
  return sources.some((source) => {
    for (let i = boundary(source, keyOf(issue), false); i < source.length; i++) if (listed(source[i]!)) return true;
    return false;
  });
}

function hasBefore(sources: Source[], issue: IssueRecord): boolean {
  return sources.some((source) => {
    for (let i = boundary(source, keyOf(issue), true) - 1; i >= 0; i--) if (listed(source[i]!)) return true;
    return false;
  });
}
