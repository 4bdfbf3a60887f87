// An IssueRecord of the in-memory view for unit tests: tenant 1, published at
// `id` seconds (so a higher id is newer), every other field empty.
import { tmpdir } from 'node:os';
import { IssueDetailsFile } from '../../src/data/issue-details-file.js';
import type { DetailsStores, IssueRecord } from '../../src/domain/catalog-view.js';

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
    accessibility: null,
    listed: true,
    updatedAtMs: 0,
    ...fields,
  };
}

/** Details stores for a test's views: real files in the OS temporary directory, as the service keeps them. */
export const temporaryDetails: DetailsStores = () => new IssueDetailsFile(tmpdir());

/** Every field of a record, read through its getters: what two views holding the same issue agree on. */
export function plainIssue(issue: IssueRecord): IssueRecord {
  const { id, tenantId, name, slug, type, description, externalId, numberOfPages, lang, author, publisher, bisac } = issue;
  const { publishedAtMs, tags, keywords, collections, coverUrl, accessibility, listed, updatedAtMs } = issue;
  return {
    id,
    tenantId,
    name,
    slug,
    type,
    description,
    externalId,
    numberOfPages,
    lang,
    author,
    publisher,
    bisac,
    publishedAtMs,
    tags: { author: [...tags.author], keyword: [...tags.keyword], edition: [...tags.edition] },
    keywords: [...keywords],
    collections: [...collections],
    coverUrl,
    accessibility,
    listed,
    updatedAtMs,
  };
}
