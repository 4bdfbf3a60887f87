import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { issueRecord, plainIssue } from '../../test/support/issue-record.js';
import type { IssueRecord } from '../domain/catalog-view.js';
import { ViewIssue } from '../domain/issue-details.js';
import { IssueDetailsFile } from './issue-details-file.js';

const directory = mkdtempSync(join(tmpdir(), 'details-test-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** An issue with non-ASCII text in its details, tags and a page count on even ids. */
function sample(id: number, description = `About issue ${id}: Crónicas, Straße, 東京`): IssueRecord {
  return issueRecord(id, {
    description,
    tags: { author: ['Ann Ó'], keyword: ['río', `k${id}`], edition: [] },
    keywords: ['río', `k${id}`],
    numberOfPages: id % 2 ? null : id,
  });
}

function store(file: IssueDetailsFile, id: number, description?: string): ViewIssue {
  const issue = sample(id, description);
  return new ViewIssue(issue, file.append(issue));
}

describe('issue details in files', () => {
  it('when details are stored, then every field reads back, buffered or written, and no file is left in the directory', () => {
    const file = new IssueDetailsFile(directory);
    const records = Array.from({ length: 2_000 }, (_, i) => store(file, i + 1));
    // The first ones were flushed when the write buffer filled up, the last ones are still buffered.
    for (const record of [records[0]!, records[999]!, records.at(-1)!]) expect(plainIssue(record)).toEqual(sample(record.id));
    file.flush();
    expect(records.at(-1)!.description).toBe(sample(2_000).description);
    expect(readdirSync(directory)).toEqual([]);
  });

  it('when two stores hold details at the same offsets and each is read again and again, then each record reads its own details', () => {
    const first = new IssueDetailsFile(directory);
    const second = new IssueDetailsFile(directory);
    const ours = [store(first, 1, 'store one'), store(first, 2, 'store one, issue two')];
    const theirs = [store(second, 1, 'store two'), store(second, 2, 'store two, issue two')];
    expect(ours.map((record) => record.location.at)).toEqual(theirs.map((record) => record.location.at));
    for (let round = 0; round < 3; round++) {
      expect([...ours, ...theirs].map((record) => record.description)).toEqual(['store one', 'store one, issue two', 'store two', 'store two, issue two']);
    }
  });

  it('when details are larger than the write buffer, then they are written directly and read back whole', () => {
    const file = new IssueDetailsFile(directory);
    const long = 'ü'.repeat(100_000);
    const before = store(file, 1);
    const big = store(file, 2, long);
    const after = store(file, 3);
    expect(big.description).toBe(long);
    expect(before.name).toBe('Issue 1');
    expect(after.name).toBe('Issue 3');
  });

  it('when released bytes outweigh the live ones, then compaction relocates the live records and a replaced one still reads its own details', () => {
    const file = new IssueDetailsFile(directory);
    const padding = 'x'.repeat(10_000);
    const old = Array.from({ length: 1_000 }, (_, i) => store(file, i + 1, `old ${i + 1} ${padding}`));
    const kept = store(file, 5_000, 'kept');
    expect(file.wantsCompaction).toBe(false);
    for (const record of old) file.released(record.detailsLength);
    expect(file.wantsCompaction).toBe(true);
    file.compact([kept]);
    expect(file.wantsCompaction).toBe(false);
    expect(kept.description).toBe('kept');
    // A request that still holds a replaced record reads what it had.
    expect(old[10]!.description).toBe(`old 11 ${padding}`);
  });

  it('when details are encoded and appended to another store, then they read back the same, in order', () => {
    const source = new IssueDetailsFile(directory);
    const records = [store(source, 1), store(source, 2, 'zwei'), store(source, 3)];
    const encoded = source.encode([records[2]!, records[0]!]);
    const target = new IssueDetailsFile(directory);
    const locations = target.appendEncoded(encoded);
    const copies = [records[2]!, records[0]!].map((record, i) => new ViewIssue(record, locations[i]!));
    expect(copies.map(plainIssue)).toEqual([plainIssue(records[2]!), plainIssue(records[0]!)]);
  });
});
