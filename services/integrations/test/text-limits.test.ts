// The two-layer text limits of every integration endpoint (spec, Limits), the
// decryption of the reader's text, and v1's plaintext for old reader apps.
// The engines are recording stand-ins: what is tested is what reaches them.
import { encryptText } from '@folio/crypto';
import { integrations } from '@folio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AiEngine, AiRequest, Dictionary, SpeechSynthesizer, Translator } from '../src/domain/ports.js';
import { expectRefusal, newReader, plaintext, startTestIntegrations, type TestIntegrations, type TestReader } from './support.js';

const seen: string[] = [];
const translator: Translator = {
  name: 'recording-translator',
  supportsTarget: () => true,
  translate: async (text) => {
    seen.push(text);
    return { text: `translated(${text.length})`, detectedSourceLanguage: 'en' };
  },
};
const synthesizer: SpeechSynthesizer = {
  name: 'recording-speech',
  synthesize: async (text) => {
    seen.push(text);
    return Buffer.from('not really mp3');
  },
};
const dictionary: Dictionary = {
  name: 'recording-dictionary',
  define: async (text) => {
    seen.push(text);
    return { definitions: [{ partOfSpeech: 'noun', definition: 'a thing', examples: [], synonyms: [] }], source: 'test' };
  },
};
const ai: AiEngine = {
  name: 'recording-ai',
  run: async (request: AiRequest) => {
    seen.push(request.text);
    return `${request.action} of ${request.text.length} characters`;
  },
};

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe('integration text limits and encryption', () => {
  let app: TestIntegrations;
  let reader: TestReader;

  beforeAll(async () => {
    app = await startTestIntegrations({}, { translator, synthesizer, dictionary, ai });
    reader = newReader();
  });
  afterAll(() => app.stop());

  // One row per endpoint: how to call it with a text, the layer-1 (payload) and layer-2 (text) limits.
  const endpoints = [
    {
      name: 'translate',
      call: (text: string, caller = reader.caller()) => app.client.translate({ caller, text, targetLang: 'es' }),
      payloadMax: 1900,
      tooLong: 'x'.repeat(1001),
      longest: 'x'.repeat(1000),
      limit: /1000 characters/,
    },
    {
      name: 'listen',
      call: (text: string, caller = reader.caller()) => app.client.listen({ caller, text, voiceId: 'Joanna' }),
      payloadMax: 750,
      tooLong: 'x'.repeat(501),
      longest: 'x'.repeat(500),
      limit: /500 characters/,
    },
    {
      name: 'dictionary',
      call: (text: string, caller = reader.caller()) => app.client.define({ caller, text, lang: 'en' }),
      payloadMax: 150,
      tooLong: words(6),
      longest: words(5),
      limit: /5 words/,
    },
    {
      name: 'ai action',
      call: (text: string, caller = reader.caller()) => app.client.runAiAction({ caller, action: 'summarize', text, lang: 'en' }),
      payloadMax: 7500,
      tooLong: 'x'.repeat(4001),
      longest: 'x'.repeat(4000),
      limit: /4000 characters/,
    },
  ];

  describe.each(endpoints)('$name', (endpoint) => {
    it('when the encrypted payload is over the encrypted limit, then 422 names that limit (layer 1, before decrypting)', async () => {
      const error = await expectRefusal(
        endpoint.call('A'.repeat(endpoint.payloadMax + 1)),
        'INVALID_ARGUMENT',
        'text',
        new RegExp(`${endpoint.payloadMax} characters \\(encrypted limit\\)`),
      );
      expect(error.message).toBe('The given data was invalid.');
    });

    it('when the decrypted text is over the text limit, then 422 names that limit (layer 2)', async () => {
      const payload = reader.encrypt(endpoint.tooLong);
      expect(payload.length).toBeLessThanOrEqual(endpoint.payloadMax);
      await expectRefusal(endpoint.call(payload), 'INVALID_ARGUMENT', 'text', endpoint.limit);
    });

    it('when the text is exactly at both limits, then it reaches the engine decrypted', async () => {
      const payload = reader.encrypt(endpoint.longest);
      expect(payload.length).toBeLessThanOrEqual(endpoint.payloadMax);
      await endpoint.call(payload);
      expect(seen.at(-1)).toBe(endpoint.longest);
    });

    it('when the payload was encrypted with another reader session, then 422 (not 500)', async () => {
      await expectRefusal(endpoint.call(newReader().encrypt('lighthouse')), 'INVALID_ARGUMENT', 'text', /could not be decrypted/);
    });

    it('when the payload is not even base64, then 422 (not 500)', async () => {
      await expectRefusal(endpoint.call('this is plaintext, not a payload'), 'INVALID_ARGUMENT', 'text', /could not be decrypted/);
    });

    it('when the text is missing, then 422 says it is required', async () => {
      await expectRefusal(endpoint.call(''), 'INVALID_ARGUMENT', 'text', /required/);
    });

    it('when a v1 app below manifest 2.0.0 sends plaintext over the text limit, then 422 names the text limit', async () => {
      await expectRefusal(endpoint.call(endpoint.tooLong, reader.caller(plaintext)), 'INVALID_ARGUMENT', 'text', endpoint.limit);
    });
  });

  it('when the AI text is shorter than 10 characters, then 422 names the minimum', async () => {
    await expectRefusal(
      app.client.runAiAction({ caller: reader.caller(), action: 'explain', text: reader.encrypt('too short') }),
      'INVALID_ARGUMENT',
      'text',
      /at least 10 characters/,
    );
    await app.client.runAiAction({ caller: reader.caller(), action: 'explain', text: reader.encrypt('ten chars!') });
    expect(seen.at(-1)).toBe('ten chars!');
  });

  it('when a v1 plaintext dictionary text is within 5 words but over the 150-character payload limit, then 422 names the payload limit', async () => {
    const fiveLongWords = Array.from({ length: 5 }, () => 'x'.repeat(40)).join(' ');
    await expectRefusal(app.client.define({ caller: reader.caller(plaintext), text: fiveLongWords, lang: 'en' }), 'INVALID_ARGUMENT', 'text', /150 characters/);
  });

  describe('the text encoding the gateway says', () => {
    it('when the text is said to be plaintext, then it is used as is (a payload is not decrypted)', async () => {
      await app.client.translate({ caller: reader.caller(plaintext), text: 'Plain words' });
      expect(seen.at(-1)).toBe('Plain words');
      const payload = reader.encrypt('Secret words');
      await app.client.translate({ caller: reader.caller(plaintext), text: payload });
      expect(seen.at(-1)).toBe(payload);
    });

    it('when the text is said to be encrypted, then it is decrypted, and plaintext is 422', async () => {
      const v1Encrypted = reader.caller({ textEncoding: integrations.TextEncoding.TEXT_ENCODING_ENCRYPTED });
      await app.client.translate({ caller: v1Encrypted, text: reader.encrypt('Secret words') });
      expect(seen.at(-1)).toBe('Secret words');
      await expectRefusal(app.client.translate({ caller: v1Encrypted, text: 'Plain words' }), 'INVALID_ARGUMENT', 'text', /could not be decrypted/);
    });
  });

  it('when the caller context lacks the reader-token, then the call is refused without touching the text', async () => {
    const caller = { ...reader.caller(), readerToken: '' };
    await expectRefusal(app.client.translate({ caller, text: encryptText('x', 'hello') }), 'FAILED_PRECONDITION');
    await expectRefusal(app.client.translate({ caller: undefined, text: 'hello' }), 'FAILED_PRECONDITION');
  });

  it('when the text encoding is not said, then the text is treated as encrypted (fails closed)', async () => {
    const caller = reader.caller({ textEncoding: integrations.TextEncoding.TEXT_ENCODING_UNSPECIFIED });
    await app.client.translate({ caller, text: reader.encrypt('Hidden') });
    expect(seen.at(-1)).toBe('Hidden');
  });
});
