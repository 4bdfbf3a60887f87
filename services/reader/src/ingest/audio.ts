// Reads audio tracks with music-metadata: the real duration from the stream
// (MPEG frames are counted when the header does not say), the title tag.
import { parseBuffer } from 'music-metadata';
import { InvalidContentError } from './epub.js';

export interface AudioTrackExtract {
  title: string | null;
  album: string | null;
  artist: string | null;
  /** Seconds, fractional. */
  duration: number;
  mimeType: string;
  extension: string;
}

const FORMATS: Record<string, { mimeType: string; extension: string }> = {
  MPEG: { mimeType: 'audio/mpeg', extension: 'mp3' },
  'MPEG-4': { mimeType: 'audio/mp4', extension: 'm4a' },
  Ogg: { mimeType: 'audio/ogg', extension: 'ogg' },
};

export async function readAudioTrack(data: Buffer, fileName: string): Promise<AudioTrackExtract> {
  let metadata;
  try {
    metadata = await parseBuffer(data, { path: fileName }, { duration: true, skipCovers: true });
  } catch (error) {
    throw new InvalidContentError(`${fileName} is not a readable audio file: ${(error as Error).message}`);
  }
  const duration = metadata.format.duration;
  if (!duration || !Number.isFinite(duration) || duration <= 0) throw new InvalidContentError(`${fileName} has no duration`);
  const container = metadata.format.container ?? '';
  const format = FORMATS[container] ?? (container.startsWith('MPEG') ? FORMATS.MPEG : undefined);
  if (!format) throw new InvalidContentError(`${fileName}: unsupported audio container ${container || 'unknown'}`);
  return {
    title: metadata.common.title ?? null,
    album: metadata.common.album ?? null,
    artist: metadata.common.artist ?? null,
    duration,
    ...format,
  };
}
