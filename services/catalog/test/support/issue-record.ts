// An IssueRecord of the in-memory view for unit tests: tenant 1, published at
// `id` seconds (so a higher id is newer), every other field empty.
import type { IssueRecord } from '../../src/domain/catalog-view.js';

export function issueRecord(id: number, fields: Partial<IssueRecord> = {}): IssueRecord {
  return {
    id,
    tenantId: 1,
    name: `Issue ${id}`,
    slug: `issue-${id}`,
    type: 'epub',
    description: '',
    externalId: '',
    numberOfPages: null,
    lang: 'en',
    author: '',
    publisher: '',
    bisac: '',
    publishedAtMs: id * 1000,
    tags: { author: [], keyword: [], edition: [] },
    keywords: [],
    collections: [],
    coverUrl: null,
    updatedAtMs: 0,
    ...fields,
  };
}
