// Audio made by another tool (ffmpeg): MP3 with ID3 chapters, MP4 audio under
// the brands real files carry (M4A, M4B, isom, mp42) with chapters, Ogg Vorbis
// and Ogg Opus, told apart by content whatever their names. Each is ingested
// through the real ingest into a scratch database and storage, every stored
// track read back, and its duration held to what ffprobe measures. ffmpeg is
// installed by ./dev; a missing one fails the test.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connectMongo, type Connection } from '@folio/mongo';
import { freshMongoUrl } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReaderRepositories } from '../src/data/index.js';
import type { ReaderRepositories } from '../src/domain/repositories.js';
import { readAudioTrack } from '../src/ingest/audio.js';
import { InvalidContentError } from '../src/ingest/epub.js';
import { ingestIssue, type IngestDeps } from '../src/ingest/ingest.js';
import { TextIndexStore } from '../src/search/index-store.js';
import { LocalDiskStorage } from '../src/storage/local-disk.js';

const exec = promisify(execFile);
let directory: string;
let mongoUrl: string;
let connection: Connection;
let store: ReaderRepositories;
let storage: LocalDiskStorage;
let deps: IngestDeps;

const METADATA = `;FFMETADATA1
title=Relatos del río
artist=Ana Autora
album=Relatos

[CHAPTER]
TIMEBASE=1/1000
START=0
END=1500
title=Primero

[CHAPTER]
TIMEBASE=1/1000
START=1500
END=3000
title=Capítulo dos
`;

/** Three seconds of a tone, with the tags and chapters above, written by ffmpeg with these output options. */
async function ffmpeg(name: string, options: string[]): Promise<string> {
  const file = join(directory, name);
  await exec('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=3',
    '-i',
    join(directory, 'meta.txt'),
    '-map_metadata',
    '1',
    '-map_chapters',
    '1',
    ...options,
    file,
  ]);
  return file;
}

async function ffprobeDuration(file: string): Promise<number> {
  const { stdout } = await exec('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(stdout.trim());
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'reader-foreign-audio-'));
  mongoUrl = freshMongoUrl('reader_foreign_audio').url;
  connection = await connectMongo(mongoUrl);
  store = await openReaderRepositories(connection);
  storage = new LocalDiskStorage(join(directory, 'store'));
  deps = { storage, manifests: store.manifests, indexes: new TextIndexStore(storage, 8) };
  await writeFile(join(directory, 'meta.txt'), METADATA);
});
afterAll(async () => {
  await connection?.dropDatabase().catch(() => {});
  await connection?.close();
  await rm(directory, { recursive: true, force: true });
});

const CHAPTERS = [
  { title: 'Primero', start: 0 },
  { title: 'Capítulo dos', start: 1.5 },
];

describe('audio from ffmpeg', () => {
  it.each([
    ['MP3 with ID3 chapters', 'book.mp3', ['-c:a', 'libmp3lame', '-id3v2_version', '3'], 'audio/mpeg', 'mp3', CHAPTERS],
    ['M4B (brand M4A, Nero chapters)', 'book.m4b', ['-c:a', 'aac', '-f', 'ipod'], 'audio/mp4', 'm4a', CHAPTERS],
    ['M4A (brand isom)', 'book.m4a', ['-c:a', 'aac', '-f', 'mp4'], 'audio/mp4', 'm4a', CHAPTERS],
    ['MP4 (brand mp42, movie header first)', 'book.mp4', ['-c:a', 'aac', '-brand', 'mp42', '-movflags', '+faststart'], 'audio/mp4', 'm4a', CHAPTERS],
    ['Ogg Vorbis', 'book.ogg', ['-c:a', 'libvorbis'], 'audio/ogg', 'ogg', []],
    ['Ogg Opus', 'book.opus', ['-c:a', 'libopus'], 'audio/ogg', 'ogg', []],
  ])('when ffmpeg writes %s, then it is read by content with its duration and chapters', async (_, name, options, mimeType, extension, chapters) => {
    const file = await ffmpeg(name, options);
    // The name says nothing: the container is told from the bytes.
    const track = await readAudioTrack(await readFile(file), 'track.bin');
    expect(track).toMatchObject({ mimeType, extension, title: 'Relatos del río', album: 'Relatos', artist: 'Ana Autora' });
    expect(Math.abs(track.duration - (await ffprobeDuration(file)))).toBeLessThan(0.1);
    expect(track.chapters.map((chapter) => chapter.title)).toEqual(chapters.map((chapter) => chapter.title));
    track.chapters.forEach((chapter, index) => expect(chapter.start).toBeCloseTo(chapters[index]!.start, 1));
  });

  it.each([
    ['movie header last', ['-c:a', 'aac', '-f', 'ipod']],
    ['movie header first', ['-c:a', 'aac', '-f', 'ipod', '-movflags', '+faststart']],
  ])('when an M4B has only a QuickTime chapter track (%s), as Apple tools write it, then its chapters are read', async (shape, options) => {
    const file = await ffmpeg(`qt-${shape.replaceAll(' ', '-')}.m4b`, options);
    // ffmpeg writes both kinds; its Nero chapter box made a free box leaves the chapter track alone.
    const data = await readFile(file);
    const nero = data.indexOf('chpl', 0, 'latin1');
    expect(nero).toBeGreaterThan(0);
    data.write('free', nero, 'latin1');
    const track = await readAudioTrack(data, 'book.m4b');
    expect(track.chapters.map((chapter) => chapter.title)).toEqual(['Primero', 'Capítulo dos']);
    expect(track.chapters[1]!.start).toBeCloseTo(1.5, 2);
  });

  it('when an audiobook of M4B, Opus and MP3 tracks is ingested, then every track is stored as read, with its chapters in the manifest', async () => {
    const files = [
      await ffmpeg('part-1.m4b', ['-c:a', 'aac', '-f', 'ipod']),
      await ffmpeg('part-2.opus', ['-c:a', 'libopus']),
      await ffmpeg('part-3.mp3', ['-c:a', 'libmp3lame']),
    ];
    const { manifest } = await ingestIssue(deps, { tenantId: 9, issueId: 9101, type: 'audio', files, trackTitles: ['Uno', 'Dos', 'Tres'] });
    expect(manifest.title).toBe('Relatos');
    expect(manifest.audio!.tracks.map((track) => track.key)).toEqual(['9/9101/tracks/01.m4a', '9/9101/tracks/02.ogg', '9/9101/tracks/03.mp3']);
    for (const [index, track] of manifest.audio!.tracks.entries()) {
      const stored = await storage.get(track.key);
      expect(stored?.equals(await readFile(files[index]!))).toBe(true);
      expect(Math.abs(track.duration - (await ffprobeDuration(files[index]!)))).toBeLessThan(0.1);
    }
    expect(manifest.audio!.tracks[0]!.chapters).toEqual([
      { title: 'Primero', start: 0 },
      { title: 'Capítulo dos', start: 1.5 },
    ]);
    expect(manifest.audio!.tracks[1]).not.toHaveProperty('chapters');
    expect((await store.manifests.find({ tenantId: 9, issueId: 9101 }))?.audio?.tracks[0]?.chapters).toHaveLength(2);
  });

  it('when a file is not audio (a WAV, a text), then ingest says which formats it reads', async () => {
    const wav = await ffmpeg('tone.wav', []);
    await expect(readAudioTrack(await readFile(wav), 'tone.wav')).rejects.toThrow(/tone\.wav is not MP3, MP4 \(M4A, M4B\) or Ogg/);
    await expect(readAudioTrack(Buffer.from('hello'), 'notes.mp3')).rejects.toBeInstanceOf(InvalidContentError);
  });

  it('when the CLI gets an M4B and an Opus file under a name that does not tell, then it needs no --type', async () => {
    const m4b = await ffmpeg('cli.m4b', ['-c:a', 'aac', '-f', 'ipod']);
    const opus = await ffmpeg('cli.opus', ['-c:a', 'libopus']);
    const unnamed = join(directory, 'download');
    await writeFile(unnamed, await readFile(opus));
    const cli = fileURLToPath(new URL('../dist/ingest.js', import.meta.url));
    const env = { ...process.env, MONGO_URL: mongoUrl, READER_STORAGE_DIR: join(directory, 'store'), LOG_LEVEL: 'silent' };
    const { stdout } = await exec(process.execPath, [cli, m4b, unnamed, '--tenant', '9', '--issue', '9102'], { env });
    expect(stdout).toContain('ingested audio "Relatos" as tenant 9 issue 9102: 2 tracks, 6 s');
    const alone = await exec(process.execPath, [cli, unnamed, '--tenant', '9', '--issue', '9103'], { env });
    expect(alone.stdout).toContain('ingested audio');
  });
});
