// An audiobook whose files mark chapters (ffmpeg writes them from an
// ffmetadata file) lists them in its Readium manifest: each track's entry in
// the table of contents has its chapters as children, media fragments of the
// track (`#t=<seconds>`). The issue is ingested again through the real ingest
// into the stack's database and storage before anything reads it; ffmpeg is
// installed by ./dev.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReaderRepositories } from '../src/data/index.js';
import { ingestIssue } from '../src/ingest/ingest.js';
import { TextIndexStore } from '../src/search/index-store.js';
import { LocalDiskStorage } from '../src/storage/local-disk.js';
import { startReaderStack, USERS, type ReaderStack } from './support/stack.js';

const exec = promisify(execFile);
let stack: ReaderStack;
let directory: string;

const METADATA = `;FFMETADATA1
[CHAPTER]
TIMEBASE=1/1000
START=0
END=1500
title=Primero

[CHAPTER]
TIMEBASE=1/1000
START=1500
END=3000
title=Segundo
`;

beforeAll(async () => {
  stack = await startReaderStack({ only: [1003] });
  directory = await mkdtemp(join(tmpdir(), 'reader-audio-chapters-'));
  await writeFile(join(directory, 'meta.txt'), METADATA);
  const files = [join(directory, 'one.m4b'), join(directory, 'two.opus')];
  for (const [file, codec] of [
    [files[0]!, ['-map_chapters', '1', '-c:a', 'aac', '-f', 'ipod']],
    [files[1]!, ['-map_chapters', '-1', '-c:a', 'libopus']],
  ] as const) {
    await exec('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-i', join(directory, 'meta.txt'), ...codec, file]);
  }
  const storage = new LocalDiskStorage(stack.storageDir);
  const store = await openReaderRepositories(stack.db);
  await ingestIssue(
    { storage, manifests: store.manifests, indexes: new TextIndexStore(storage, 8) },
    { tenantId: 1, issueId: 1003, type: 'audio', files, trackTitles: ['Uno', 'Dos'] },
  );
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  await rm(directory, { recursive: true, force: true });
});

describe('audiobook chapters in the Readium manifest', () => {
  it('when a track marks chapters, then its table-of-contents entry has them as media fragments; a track without has none', async () => {
    const { publication } = await stack.client.getPublicationManifest({ tenantId: 1, userId: USERS.bruno, issueId: 1003, preview: false });
    const [one, two] = publication!.toc;
    expect(one!.title).toBe('Uno');
    expect(one!.children.map((child) => child.title)).toEqual(['Primero', 'Segundo']);
    expect(one!.children.map((child) => child.href)).toEqual([`${one!.href}#t=0`, `${one!.href}#t=1.5`]);
    expect(one!.children[0]!.type).toBe('audio/mp4');
    expect(two!.children).toEqual([]);
    expect(publication!.readingOrder.map((link) => link.type)).toEqual(['audio/mp4', 'audio/ogg']);
  });
});
