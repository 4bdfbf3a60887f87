// The local speech engine: espeak-ng speaks the text as WAV on stdout, lame
// encodes it to MP3 on stdout, connected by a pipe (no temporary files). The
// text goes in on stdin, so no text is ever parsed as an option.
import type { CallOptions, SpeechSynthesizer } from '../domain/ports.js';
import { findVoice } from '../domain/voices.js';
import { runPipeline } from './processes.js';

export class EspeakSynthesizer implements SpeechSynthesizer {
  readonly name = 'espeak-ng';

  constructor(private readonly options: { espeakBin: string; lameBin: string; bitrateKbps: number }) {}

  async synthesize(text: string, voiceId: string, options: CallOptions = {}): Promise<Buffer> {
    const voice = findVoice(voiceId);
    if (!voice) throw new Error(`espeak-ng: no voice for ${voiceId}`);
    const audio = await runPipeline(
      [
        // 165 words per minute reads a little slower than espeak's default 175: clearer for long passages.
        { bin: this.options.espeakBin, args: ['-v', voice.espeak, '-s', '165', '--stdin', '--stdout'] },
        { bin: this.options.lameBin, args: ['--quiet', '-m', 'm', '-b', String(this.options.bitrateKbps), '-', '-'] },
      ],
      text,
      { signal: options.signal },
    );
    if (audio.length === 0) throw new Error('espeak-ng/lame produced no audio');
    return audio;
  }
}
