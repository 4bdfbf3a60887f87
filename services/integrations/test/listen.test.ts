// Listen on the real local engine (espeak-ng piped into lame): real MP3s,
// parsed with a real audio parser, a voice per language, the 30-minute Redis
// cache, and the tenant's tts feature.
import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpeechSynthesizer } from '../src/domain/ports.js';
import { EspeakSynthesizer } from '../src/engines/espeak.js';
import { expectRefusal, newReader, plaintext, startTestIntegrations, type TestIntegrations, type TestReader } from './support.js';

/** The real engine, counting its syntheses: the proof that a cache hit does not synthesize. */
class CountingSynthesizer implements SpeechSynthesizer {
  readonly name = 'espeak-ng';
  calls: { text: string; voiceId: string }[] = [];
  constructor(private readonly inner: SpeechSynthesizer) {}
  synthesize(text: string, voiceId: string, options?: { signal?: AbortSignal }): Promise<Buffer> {
    this.calls.push({ text, voiceId });
    return this.inner.synthesize(text, voiceId, options);
  }
}

async function expectMp3(audio: Buffer) {
  const metadata = await parseBuffer(audio, { mimeType: 'audio/mpeg' });
  expect(metadata.format.container).toBe('MPEG');
  expect(metadata.format.codec).toMatch(/MPEG.*Layer 3/);
  expect(metadata.format.duration).toBeGreaterThan(0);
  return metadata;
}

describe('listen', () => {
  let app: TestIntegrations;
  let reader: TestReader;
  let engine: CountingSynthesizer;

  beforeAll(async () => {
    engine = new CountingSynthesizer(new EspeakSynthesizer({ espeakBin: 'espeak-ng', lameBin: 'lame', bitrateKbps: 48 }));
    app = await startTestIntegrations({}, { synthesizer: engine });
    reader = newReader();
  });
  afterAll(() => app.stop());

  it('when a text is spoken, then the answer is a real MP3 (audio/mpeg) whose length fits the text', async () => {
    const result = await app.client.listen({
      caller: reader.caller(),
      text: reader.encrypt('The lighthouse keeper climbed the stairs every evening.'),
      voiceId: 'Joanna',
    });
    expect(result.contentType).toBe('audio/mpeg');
    expect(result.voiceId).toBe('Joanna');
    const metadata = await expectMp3(result.audio);
    expect(metadata.format.duration).toBeGreaterThan(1.5);
    expect(metadata.format.duration).toBeLessThan(10);
  });

  it('when the same text and voice are requested again, then the cached MP3 is returned without a second synthesis', async () => {
    const text = `Cached sentence number ${Date.now()}.`;
    const first = await app.client.listen({ caller: reader.caller(), text: reader.encrypt(text), voiceId: 'Matthew' });
    const callsAfterFirst = engine.calls.length;
    // Another reader session (another key, another payload) asking for the same words shares the cache.
    const other = newReader();
    const second = await app.client.listen({ caller: other.caller(), text: other.encrypt(text), voiceId: 'Matthew' });

    expect(first.cacheHit).toBe(false);
    expect(second.cacheHit).toBe(true);
    expect(engine.calls.length).toBe(callsAfterFirst);
    expect(engine.calls.filter((call) => call.text === text)).toHaveLength(1);
    expect(Buffer.compare(first.audio, second.audio)).toBe(0);
    const keys = await app.redis.keys(`${app.config.LISTEN_CACHE_PREFIX}:*`);
    expect(keys.length).toBeGreaterThan(0);
    const ttl = await app.redis.ttl(keys[0]!);
    expect(ttl).toBeGreaterThan(1700);
    expect(ttl).toBeLessThanOrEqual(1800);
    // The key is a hash: the reader's text never shows in Redis.
    expect(keys.join(' ')).not.toContain('Cached');
  });

  it('when another voice reads the same text, then it is synthesized anew', async () => {
    const text = `Two voices, one text ${Date.now()}.`;
    await app.client.listen({ caller: reader.caller(), text: reader.encrypt(text), voiceId: 'Joanna' });
    await app.client.listen({ caller: reader.caller(), text: reader.encrypt(text), voiceId: 'Amy' });
    expect(engine.calls.filter((call) => call.text === text).map((call) => call.voiceId)).toEqual(['Joanna', 'Amy']);
  });

  it.each([
    ['Lucia', 'El faro ilumina la costa durante toda la noche.'],
    ['Camila', 'O farol ilumina a costa durante toda a noite.'],
    ['Bianca', 'Il faro illumina la costa per tutta la notte.'],
  ])('when voice %s reads its language, then a real MP3 comes back', async (voiceId, text) => {
    const result = await app.client.listen({ caller: reader.caller(), text: reader.encrypt(text), voiceId });
    await expectMp3(result.audio);
  });

  it('when no voice is named, then the default voice of the text language speaks (Spanish text: Lucia)', async () => {
    const result = await app.client.listen({ caller: reader.caller(), text: reader.encrypt('Los niños juegan en el parque con sus amigos.') });
    expect(result.voiceId).toBe('Lucia');
  });

  it('when a v1 app (manifest below 2.0.0) sends plaintext without a voice, then it is spoken (the default voice)', async () => {
    const result = await app.client.listen({ caller: reader.caller(plaintext), text: 'Good night and good luck.' });
    expect(result.voiceId).toBe('Joanna');
    await expectMp3(result.audio);
  });

  it('when the voice is unknown, then 422 lists the voices', async () => {
    await expectRefusal(
      app.client.listen({ caller: reader.caller(), text: reader.encrypt('Hello there'), voiceId: 'Hal9000' }),
      'INVALID_ARGUMENT',
      'voiceId',
      /Joanna/,
    );
  });

  it("when the tenant's tts feature is off, then 403 and nothing is synthesized", async () => {
    const before = engine.calls.length;
    await expectRefusal(app.client.listen({ caller: reader.caller({ ttsEnabled: false }), text: reader.encrypt('Hello there') }), 'PERMISSION_DENIED');
    expect(engine.calls.length).toBe(before);
  });
});
