// Hosted speech adapter: Amazon Polly's SynthesizeSpeech request
// (POST <url>/v1/speech {Engine, OutputFormat: mp3, Text, TextType, VoiceId}
// -> audio/mpeg bytes). Polly itself wants SigV4-signed requests: point
// LISTEN_HOSTED_URL at a signing proxy or a Polly-compatible service; the
// optional key travels as `x-api-key`.
import type { CallOptions, SpeechSynthesizer } from '../domain/ports.js';
import { findVoice } from '../domain/voices.js';
import { postJson } from './http.js';

export class PollyAdapter implements SpeechSynthesizer {
  readonly name = 'polly';

  constructor(private readonly options: { url: string; key?: string | undefined }) {}

  async synthesize(text: string, voiceId: string, options: CallOptions = {}): Promise<Buffer> {
    const voice = findVoice(voiceId);
    const url = new URL('v1/speech', this.options.url.endsWith('/') ? this.options.url : `${this.options.url}/`);
    const response = await postJson(
      this.name,
      url.toString(),
      {
        Engine: 'standard',
        OutputFormat: 'mp3',
        SampleRate: '22050',
        Text: text,
        TextType: 'text',
        VoiceId: voice?.id ?? voiceId,
        ...(voice && { LanguageCode: voice.locale }),
      },
      { headers: { accept: 'audio/mpeg', ...(this.options.key && { 'x-api-key': this.options.key }) }, signal: options.signal },
    );
    const audio = Buffer.from(await response.arrayBuffer());
    if (audio.length === 0) throw new Error('polly: empty audio');
    return audio;
  }
}
