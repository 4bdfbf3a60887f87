// Reader integrations end to end against ./dev up, in both API versions: a
// real reader-token from a reader session, text encrypted with the key derived
// from it, and the local engines (Apertium, espeak-ng + lame, WordNet, the
// extractive AI engine) behind the integrations service.
import { encryptText } from '@folio/crypto';
import { uniqueEmail } from '@folio/testing';
import { parseBuffer } from 'music-metadata';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginByEmail, sharedLogin, type Tokens } from './client.js';
import { api, session, STORE, v2 } from './reader-helpers.js';

const PASSAGE =
  'The keeper climbed the spiral stairs at dusk, counting one hundred and twelve steps. From the gallery she could see the whole bay. ' +
  'The fishing boats were returning and the gulls were circling the breakwater. She lit the great lamp and wrote the hour in the logbook. ' +
  'Then she opened the old atlas that no one else in the village had ever been allowed to read.';

describe('integrations through the gateway (running stack)', () => {
  let ana: Tokens;
  let readerToken: string;
  const v2Headers = () => v2(1, readerToken);
  const v1Headers = (manifest?: string) => ({
    host: STORE[1],
    'reader-token': readerToken,
    ...(manifest && { 'x-reader-manifest-version': manifest }),
  });
  const seal = (plaintext: string) => encryptText(readerToken, plaintext);

  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
    readerToken = (await session(ana.access_token, 1, 1001)).token;
  });

  describe('translate', () => {
    it('when v2 translates English to Spanish, then Apertium answers in the Google v2 shape', async () => {
      const response = await api('POST', '/api/v2/reader/integrations/translate', {
        token: ana.access_token,
        headers: v2Headers(),
        body: { text: seal('The lighthouse is near the sea.'), target_lang: 'es' },
      });
      expect(response.status).toBe(200);
      expect(response.body.uuid).toEqual(expect.any(String));
      expect(response.body.data.translations).toHaveLength(1);
      expect(response.body.data.translations[0].detectedSourceLanguage).toBe('en');
      expect(response.body.data.translations[0].translatedText.toLowerCase()).toContain('mar');
    });

    it('when v1 calls the google-translate alias in plaintext without a manifest version, then it translates', async () => {
      const response = await api('POST', '/api/v1/integrations/google-translate', {
        headers: v1Headers(),
        body: { text: 'El faro está cerca del mar.', target_lang: 'pt' },
      });
      expect(response.status).toBe(200);
      expect(response.body.data.translations[0].detectedSourceLanguage).toBe('es');
    });

    it('when v1 declares manifest 2.0.0, then text must be encrypted: plaintext is refused, ciphertext works', async () => {
      const plain = await api('POST', '/api/v1/integrations/translate', { headers: v1Headers('2.0.0'), body: { text: 'hello world', target_lang: 'es' } });
      expect(plain.status).toBe(422);
      const sealed = await api('POST', '/api/v1/integrations/translate', {
        headers: v1Headers('2.0.0'),
        body: { text: seal('hello world'), target_lang: 'es' },
      });
      expect(sealed.status).toBe(200);
    });

    it('when the decrypted text is over 1000 characters or the payload over 1900, then 422 naming the limit', async () => {
      const layer2 = await api('POST', '/api/v2/reader/integrations/translate', {
        token: ana.access_token,
        headers: v2Headers(),
        body: { text: seal('a'.repeat(1001)) },
      });
      expect(layer2.status).toBe(422);
      expect(layer2.body.errors.text.join(' ')).toMatch(/1000/);
      const layer1 = await api('POST', '/api/v2/reader/integrations/translate', {
        token: ana.access_token,
        headers: v2Headers(),
        body: { text: 'A'.repeat(1901) },
      });
      expect(layer1.status).toBe(422);
      expect(layer1.body.errors.text.join(' ')).toMatch(/1900/);
    });

    it('when the payload does not decrypt with this session, then 422, not 500', async () => {
      const response = await api('POST', '/api/v2/reader/integrations/translate', {
        token: ana.access_token,
        headers: v2Headers(),
        body: { text: encryptText('another-session', 'hello') },
      });
      expect(response.status).toBe(422);
    });
  });

  describe('listen', () => {
    it('when v2 listens, then a real MP3 comes back, and the same text again is served from the cache', async () => {
      const body = { text: seal(`The keeper lit the lamp at ${Date.now()}.`), voiceId: 'Joanna' };
      const first = await api('POST', '/api/v2/reader/integrations/listen', { token: ana.access_token, headers: v2Headers(), body });
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toMatch(/^audio\/mpeg/);
      expect(first.headers.get('x-cache')).toBe('MISS');
      const metadata = await parseBuffer(first.bytes, 'audio/mpeg');
      expect(metadata.format.container).toMatch(/MPEG/);
      expect(metadata.format.duration).toBeGreaterThan(0.5);
      const again = await api('POST', '/api/v2/reader/integrations/listen', { token: ana.access_token, headers: v2Headers(), body });
      expect(again.headers.get('x-cache')).toBe('HIT');
      expect(again.bytes.equals(first.bytes)).toBe(true);
    });

    it('when v1 calls the amazon-polly alias, then it speaks too; an unknown voice or 501 characters is 422', async () => {
      const ok = await api('POST', '/api/v1/integrations/amazon-polly', { headers: v1Headers(), body: { text: 'Hola, buenas noches.' } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toMatch(/^audio\/mpeg/);
      const voice = await api('POST', '/api/v1/integrations/listen', { headers: v1Headers(), body: { text: 'Hello', voiceId: 'Nobody' } });
      expect(voice.status).toBe(422);
      const long = await api('POST', '/api/v1/integrations/listen', { headers: v1Headers(), body: { text: 'a'.repeat(501) } });
      expect(long.status).toBe(422);
    });

    it("when the tenant's tts feature is off, then 403", async () => {
      const carla = await sharedLogin('carla@example.com');
      const carlaToken = (await session(carla.access_token, 3, 3001)).token;
      const response = await api('POST', '/api/v2/reader/integrations/listen', {
        token: carla.access_token,
        headers: v2(3, carlaToken),
        body: { text: encryptText(carlaToken, 'Olá') },
      });
      expect(response.status).toBe(403);
    });
  });

  describe('dictionary', () => {
    it('when a word is looked up, then WordNet definitions come back; more than 5 words is 422', async () => {
      const response = await api('POST', '/api/v2/reader/integrations/dictionary', {
        token: ana.access_token,
        headers: v2Headers(),
        body: { text: seal('lighthouse'), lang: 'en' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ word: 'lighthouse', lang: 'en', source: expect.stringContaining('wordnet') });
      expect(response.body.definitions[0].definition).toMatch(/tower|light/i);
      const tooMany = await api('POST', '/api/v1/integrations/dictionary', { headers: v1Headers(), body: { text: 'one two three four five six', lang: 'en' } });
      expect(tooMany.status).toBe(422);
    });
  });

  describe('AI actions and ratings', () => {
    it('when the actions are listed with X-App-Lang es, then the labels are Spanish, in both versions', async () => {
      const response = await api('GET', '/api/v2/reader/integrations/ai-integrations', {
        token: ana.access_token,
        headers: { ...v2Headers(), 'x-app-lang': 'es' },
      });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['explain', 'expand', 'summarize']);
      const v1 = await api('GET', '/api/v1/integrations/ai-integrations', { headers: v1Headers() });
      expect(v1.status).toBe(200);
      expect(v1.body).not.toEqual(response.body);
    });

    it('when a response is rated, then once only; unknown uuids and other users are refused', async () => {
      const summary = await api('POST', '/api/v2/reader/integrations/ai-integrations', {
        token: ana.access_token,
        headers: v2Headers(),
        body: { action: 'summarize', text: seal(PASSAGE) },
      });
      expect(summary.status).toBe(200);
      expect(summary.body).toMatchObject({ uuid: expect.any(String), text: expect.any(String), language: 'en' });

      const stranger = await loginByEmail(uniqueEmail('rater'));
      const strangerToken = (await session(stranger.access_token, 1, 1003)).token;
      const foreign = await api('PUT', '/api/v2/reader/integrations/ai-integrations', {
        token: stranger.access_token,
        headers: v2(1, strangerToken),
        body: { uuid: summary.body.uuid, score: true },
      });
      expect(foreign.status).toBe(422);

      const rate = () =>
        api('PUT', '/api/v2/reader/integrations/ai-integrations', {
          token: ana.access_token,
          headers: v2Headers(),
          body: { uuid: summary.body.uuid, score: true },
        });
      const first = await rate();
      expect(first.status).toBe(200);
      expect(first.text).toBe('');
      expect((await rate()).status).toBe(422);
      const unknown = await api('PUT', '/api/v2/reader/integrations/ai-integrations', {
        token: ana.access_token,
        headers: v2Headers(),
        body: { uuid: '00000000-0000-4000-8000-000000000000', score: false },
      });
      expect(unknown.status).toBe(422);
    });

    it('when v1 runs and rates an action, then the score is an integer; a boolean score is 422', async () => {
      const explain = await api('POST', '/api/v1/integrations/ai-integrations', {
        headers: v1Headers('2.0.0'),
        body: { action: 'explain', text: seal('The lighthouse keeper read the atlas.') },
      });
      expect(explain.status).toBe(200);
      const wrongType = await api('PUT', '/api/v1/integrations/ai-integrations', { headers: v1Headers(), body: { uuid: explain.body.uuid, score: true } });
      expect(wrongType.status).toBe(422);
      const rated = await api('PUT', '/api/v1/integrations/ai-integrations', { headers: v1Headers(), body: { uuid: explain.body.uuid, score: 1 } });
      expect(rated.status).toBe(200);
    });

    it('when the AI text is under 10 characters, then 422', async () => {
      const response = await api('POST', '/api/v2/reader/integrations/ai-integrations', {
        token: ana.access_token,
        headers: v2Headers(),
        body: { action: 'explain', text: seal('too short') },
      });
      expect(response.status).toBe(422);
    });
  });
});
