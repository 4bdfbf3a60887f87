import { describe, expect, it } from 'vitest';
import { issueRecord, temporaryDetails } from '../../test/support/issue-record.js';
import { TenantCatalog, type IssueRecord } from './catalog-view.js';
import type { AccessibleContent, AccessReason } from './ports.js';
import { readableShelf } from './readable-issues.js';

const TENANT = 1;

const issue = (id: number, collections: string[] = []) => issueRecord(id, { collections });

function catalogOf(issues: IssueRecord[]): TenantCatalog {
  const catalog = new TenantCatalog(TENANT, temporaryDetails(TENANT));
  for (const record of issues) catalog.upsertIssue(record);
  return catalog;
}

function content(issueIds: number[], wholeTenants: number[] = [], tenantId = TENANT): AccessibleContent {
  return {
    wholeTenants: new Map(wholeTenants.map((id) => [id, 'free' as AccessReason])),
    issues: new Map(issueIds.map((id) => [id, { tenantId, reason: 'purchased' as AccessReason }])),
  };
}

const ids = (issues: readonly IssueRecord[]) => issues.map((record) => record.id);

describe('readable shelves', () => {
  it('when the user reads the whole tenant, then a shelf is readable as it is', () => {
    const catalog = catalogOf([issue(1, ['a']), issue(2), issue(3, ['a'])]);
    const access = content([], [TENANT]);
    expect(readableShelf(access, catalog, catalog.latest(), undefined)).toBe(catalog.latest());
    expect(readableShelf(access, catalog, catalog.inCollection('a'), 'a')).toBe(catalog.inCollection('a'));
  });

  it('when the user reads issues one by one, then each shelf lists those of them on it, newest first', () => {
    const catalog = catalogOf([issue(1, ['a']), issue(2), issue(3, ['a']), issue(4, ['a']), issue(5)]);
    const access = content([1, 4, 5, 99]);
    expect(ids(readableShelf(access, catalog, catalog.latest(), undefined))).toEqual([5, 4, 1]);
    expect(ids(readableShelf(access, catalog, catalog.inCollection('a'), 'a'))).toEqual([4, 1]);
    expect(ids(readableShelf(access, catalog, catalog.inCollection('none'), 'none'))).toEqual([]);
  });

  it('when the user reads more issues than a collection holds, then the collection is filtered instead, with the same answer', () => {
    const catalog = catalogOf([issue(1, ['a']), issue(2), issue(3), issue(4, ['a']), issue(5)]);
    const access = content([1, 2, 3, 5]);
    expect(ids(readableShelf(access, catalog, catalog.inCollection('a'), 'a'))).toEqual([1]);
  });

  it('when a grant belongs to another tenant, then it is not read here', () => {
    const catalog = catalogOf([issue(1), issue(2)]);
    expect(ids(readableShelf(content([1, 2], [], 2), catalog, catalog.latest(), undefined))).toEqual([]);
  });

  it('when the same access answer is asked again, then the lists are reused; when an issue changes, then they are rebuilt', () => {
    const catalog = catalogOf([issue(1, ['a']), issue(2, ['a'])]);
    const access = content([1, 2]);
    const first = readableShelf(access, catalog, catalog.latest(), undefined);
    const firstA = readableShelf(access, catalog, catalog.inCollection('a'), 'a');
    expect(readableShelf(access, catalog, catalog.latest(), undefined)).toBe(first);
    expect(readableShelf(access, catalog, catalog.inCollection('a'), 'a')).toBe(firstA);

    catalog.upsertIssue(issue(2, [])); // leaves collection a
    expect(ids(readableShelf(access, catalog, catalog.latest(), undefined))).toEqual([2, 1]);
    expect(ids(readableShelf(access, catalog, catalog.inCollection('a'), 'a'))).toEqual([1]);
    catalog.removeIssue(1);
    expect(ids(readableShelf(access, catalog, catalog.latest(), undefined))).toEqual([2]);
  });

  it('when the access answer is a new one (a purchase), then its lists are built from it', () => {
    const catalog = catalogOf([issue(1), issue(2)]);
    expect(ids(readableShelf(content([1]), catalog, catalog.latest(), undefined))).toEqual([1]);
    expect(ids(readableShelf(content([1, 2]), catalog, catalog.latest(), undefined))).toEqual([2, 1]);
  });
});
