// Reads audio tracks with music-metadata: the real duration from the stream
// (MPEG frames are counted when the header does not say), the title tag, and
// the chapters (MP3 ID3 CHAP frames through music-metadata; MP4 Nero `chpl`
// chapters and QuickTime chapter tracks read here, since music-metadata finds
// MP4 chapter tracks only when the movie header comes before the media data). The container is told by
// content, never by the file name: an MP4 by its `ftyp` box whatever its brand
// (`M4A `, `M4B `, `isom`, `mp42`), an Ogg stream (Vorbis, Opus) by `OggS`.
import { parseBuffer } from 'music-metadata';
import { InvalidContentError } from './epub.js';

export interface AudioChapter {
  title: string;
  /** Seconds from the track's start. */
  start: number;
}

export interface AudioTrackExtract {
  title: string | null;
  album: string | null;
  artist: string | null;
  /** Seconds, fractional. */
  duration: number;
  mimeType: string;
  /** The stored file's extension: one per container (M4B is stored as m4a, Opus as ogg), as media types are served. */
  extension: string;
  chapters: AudioChapter[];
  /** Chapters the file marks at or past its end (or at no valid time), left out. */
  droppedChapters: number;
  /** Every artist the tags name (album artist first), in order. */
  artists: string[];
  /** The label or publisher tag. */
  publisher: string | null;
  lang: string | null;
  description: string | null;
}

type Container = 'mp4' | 'ogg' | 'mpeg';

const FORMATS: Record<Container, { mimeType: string; extension: string }> = {
  mpeg: { mimeType: 'audio/mpeg', extension: 'mp3' },
  mp4: { mimeType: 'audio/mp4', extension: 'm4a' },
  ogg: { mimeType: 'audio/ogg', extension: 'ogg' },
};

/** The audio container from the file's first bytes, null when it is none of MP4, Ogg or MPEG audio. */
export function audioContainerOf(head: Buffer): Container | null {
  if (head.length >= 8 && head.toString('latin1', 4, 8) === 'ftyp') return 'mp4';
  if (head.toString('latin1', 0, 4) === 'OggS') return 'ogg';
  if (head.toString('latin1', 0, 3) === 'ID3') return 'mpeg';
  // An MPEG audio frame header: 11 sync bits, a layer other than the reserved 00.
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0 && (head[1]! & 0x06) !== 0) return 'mpeg';
  return null;
}

export async function readAudioTrack(data: Buffer, fileName: string): Promise<AudioTrackExtract> {
  const container = audioContainerOf(data.subarray(0, 16));
  if (!container) throw new InvalidContentError(`${fileName} is not MP3, MP4 (M4A, M4B) or Ogg (Vorbis, Opus) audio`);
  const parse = (includeChapters: boolean) =>
    parseBuffer(data, { mimeType: FORMATS[container].mimeType, size: data.length }, { duration: true, skipCovers: true, includeChapters });
  let metadata;
  try {
    // music-metadata's MP4 chapter-track reader fails on some valid files (the movie header first):
    // the file is read again without it, and its Nero chapters are read here.
    metadata = await parse(true).catch(() => parse(false));
  } catch (error) {
    throw new InvalidContentError(`${fileName} is not a readable audio file: ${(error as Error).message}`);
  }
  const duration = metadata.format.duration;
  if (!duration || !Number.isFinite(duration) || duration <= 0) throw new InvalidContentError(`${fileName} has no duration`);
  if (!metadata.format.codec && !metadata.format.numberOfChannels) throw new InvalidContentError(`${fileName} has no audio stream`);
  const fromParser = (metadata.format.chapters ?? []).map((chapter) => ({
    title: chapter.title,
    start: chapter.timeScale ? chapter.start / chapter.timeScale : chapter.start,
  }));
  const mp4Chapters = () => {
    try {
      const nero = mp4NeroChapters(data);
      return nero.length > 0 ? nero : mp4ChapterTrack(data);
    } catch (error) {
      // A box that claims more than the file holds: the track plays, its chapters are not read.
      if (error instanceof RangeError) return [];
      throw error;
    }
  };
  const marked = container === 'mp4' && fromParser.length === 0 ? mp4Chapters() : fromParser;
  const chapters = marked
    .filter((chapter) => Number.isFinite(chapter.start) && chapter.start >= 0 && chapter.start < duration)
    .sort((a, b) => a.start - b.start);
  const { common } = metadata;
  const artists = [
    ...new Set(
      [common.albumartist, ...(common.artists ?? []), common.artist].filter((name): name is string => Boolean(name?.trim())).map((name) => name.trim()),
    ),
  ];
  const description =
    common.description?.find((text) => text.trim()) ?? common.comment?.map((comment) => comment.text ?? '').find((text) => text.trim()) ?? null;
  return {
    title: common.title ?? null,
    album: common.album ?? null,
    artist: common.artist ?? null,
    duration,
    ...FORMATS[container],
    chapters,
    droppedChapters: marked.length - chapters.length,
    artists,
    publisher: common.label?.find((label) => label.trim()) ?? null,
    lang: common.language?.trim() || null,
    description: description?.trim() || null,
  };
}

/** The boxes directly inside `data[start, end)`: type and payload range; stops at a box that does not fit. */
function boxes(data: Buffer, start: number, end: number): { type: string; start: number; end: number }[] {
  const found: { type: string; start: number; end: number }[] = [];
  let offset = start;
  while (offset + 8 <= end) {
    let size = data.readUInt32BE(offset);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > end) break;
      size = Number(data.readBigUInt64BE(offset + 8));
      header = 16;
    } else if (size === 0) size = end - offset;
    if (size < header || offset + size > end) break;
    found.push({ type: data.toString('latin1', offset + 4, offset + 8), start: offset + header, end: offset + size });
    offset += size;
  }
  return found;
}

/** Nero chapters (`moov/udta/chpl`, what ffmpeg and most M4B tools write): start in 100 ns units, a UTF-8 title each. */
function mp4NeroChapters(data: Buffer): AudioChapter[] {
  const moov = boxes(data, 0, data.length).find((box) => box.type === 'moov');
  const udta = moov && boxes(data, moov.start, moov.end).find((box) => box.type === 'udta');
  const chpl = udta && boxes(data, udta.start, udta.end).find((box) => box.type === 'chpl');
  if (!chpl) return [];
  const version = data[chpl.start]!;
  let offset = chpl.start + 4 + (version === 1 ? 4 : 0);
  if (offset >= chpl.end) return [];
  const count = data[offset]!;
  offset += 1;
  const chapters: AudioChapter[] = [];
  for (let i = 0; i < count && offset + 9 <= chpl.end; i++) {
    const start = Number(data.readBigUInt64BE(offset)) / 10_000_000;
    const length = data[offset + 8]!;
    if (offset + 9 + length > chpl.end) break;
    chapters.push({ title: data.toString('utf8', offset + 9, offset + 9 + length), start });
    offset += 9 + length;
  }
  return chapters;
}

const child = (data: Buffer, parent: { start: number; end: number } | undefined, type: string) =>
  parent && boxes(data, parent.start, parent.end).find((box) => box.type === type);

/**
 * A QuickTime chapter track (what Apple's tools write, alone): the audio track's `tref/chap` names a text
 * track whose samples are the titles (a 16-bit length, then UTF-8), timed by its `stts` in its `mdhd` timescale.
 */
function mp4ChapterTrack(data: Buffer): AudioChapter[] {
  const moov = boxes(data, 0, data.length).find((box) => box.type === 'moov');
  if (!moov) return [];
  const traks = boxes(data, moov.start, moov.end).filter((box) => box.type === 'trak');
  const trackId = (trak: { start: number; end: number }) => {
    const tkhd = child(data, trak, 'tkhd');
    if (!tkhd || tkhd.end - tkhd.start < 24) return -1;
    // version 1 has 64-bit times before the id
    return data.readUInt32BE(tkhd.start + (data[tkhd.start] === 1 ? 20 : 12));
  };
  const chap = traks.map((trak) => child(data, child(data, trak, 'tref'), 'chap')).find(Boolean);
  if (!chap || chap.end - chap.start < 4) return [];
  const chapterTrak = traks.find((trak) => trackId(trak) === data.readUInt32BE(chap.start));
  const mdia = child(data, chapterTrak, 'mdia');
  const mdhd = child(data, mdia, 'mdhd');
  const stbl = child(data, child(data, mdia, 'minf'), 'stbl');
  if (!mdhd || !stbl) return [];
  const timescale = data.readUInt32BE(mdhd.start + (data[mdhd.start] === 1 ? 20 : 12));
  const table = (type: string) => {
    const box = child(data, stbl, type);
    return box && box.end - box.start >= 8 ? box : undefined;
  };
  const stts = table('stts');
  const stsz = table('stsz');
  const stsc = table('stsc');
  const stco = table('stco');
  const co64 = table('co64');
  if (!timescale || !stts || !stsz || !stsc || !(stco ?? co64)) return [];
  const count = (box: { start: number }) => data.readUInt32BE(box.start + 4);
  const fits = (box: { start: number; end: number }, entry: number, header = 8) => box.start + header + count(box) * entry <= box.end;
  const sampleSize = data.readUInt32BE(stsz.start + 4);
  const samples = data.readUInt32BE(stsz.start + 8);
  if (samples > 1000 || (sampleSize === 0 && stsz.start + 12 + samples * 4 > stsz.end) || !fits(stts, 8) || !fits(stsc, 12)) return [];
  const offsets = stco ?? co64!;
  if (!fits(offsets, stco ? 4 : 8)) return [];
  const chunkOffset = (index: number) => (stco ? data.readUInt32BE(stco.start + 8 + index * 4) : Number(data.readBigUInt64BE(co64!.start + 8 + index * 8)));
  // Each sample's start time, its size and its byte offset (samples laid out chunk by chunk).
  const starts: number[] = [];
  let time = 0;
  for (let entry = 0; entry < count(stts) && starts.length < samples; entry++) {
    const runLength = data.readUInt32BE(stts.start + 8 + entry * 8);
    const delta = data.readUInt32BE(stts.start + 12 + entry * 8);
    for (let i = 0; i < runLength && starts.length < samples; i++, time += delta) starts.push(time / timescale);
  }
  const chapters: AudioChapter[] = [];
  let sample = 0;
  for (let chunk = 0; chunk < count(offsets) && sample < samples; chunk++) {
    // The stsc entry in force for this chunk (first_chunk is 1-based).
    let perChunk = 0;
    for (let entry = 0; entry < count(stsc); entry++) {
      if (data.readUInt32BE(stsc.start + 8 + entry * 12) - 1 <= chunk) perChunk = data.readUInt32BE(stsc.start + 12 + entry * 12);
    }
    let offset = chunkOffset(chunk);
    for (let i = 0; i < perChunk && sample < samples; i++, sample++) {
      const size = sampleSize || data.readUInt32BE(stsz.start + 12 + sample * 4);
      if (offset + size > data.length || size < 2) return chapters;
      const length = Math.min(data.readUInt16BE(offset), size - 2);
      const start = starts[sample];
      if (start !== undefined) chapters.push({ title: data.toString('utf8', offset + 2, offset + 2 + length), start });
      offset += size;
    }
  }
  return chapters;
}
