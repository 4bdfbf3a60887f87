// Speaks text into an MP3 track: espeak-ng (voice by language) writes WAV to
// stdout, lame encodes it with ID3v2 tags (title, artist, album, track).
import { run } from '../ingest/tools.js';

const VOICES: Record<string, string> = { en: 'en-us', es: 'es', pt: 'pt', it: 'it' };

export function voiceFor(lang: string | null | undefined): string {
  const code = (lang ?? 'en').toLowerCase();
  return VOICES[code] ?? VOICES[code.slice(0, 2)] ?? 'en-us';
}

export async function speakToMp3(input: {
  text: string;
  lang: string | null;
  title: string;
  artist?: string | null;
  album?: string | null;
  track?: { number: number; of: number };
}): Promise<Buffer> {
  const wav = await run('espeak-ng', ['-v', voiceFor(input.lang), '-s', '165', '--stdout', input.text]);
  const tags = ['--add-id3v2', '--id3v2-utf16', '--tt', input.title];
  if (input.artist) tags.push('--ta', input.artist);
  if (input.album) tags.push('--tl', input.album);
  if (input.track) tags.push('--tn', `${input.track.number}/${input.track.of}`);
  return run('lame', ['--quiet', '-m', 'm', '-b', '48', ...tags, '-', '-'], { input: wav });
}
