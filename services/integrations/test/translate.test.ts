// Translate on the real local engine (Apertium's Debian language pairs, with
// pivots) and language detection, plus the Google Translate v2 adapter
// against a local stand-in that checks what it receives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, newReader, startStandIn, startTestIntegrations, plaintext, type StandIn, type TestIntegrations, type TestReader } from './support.js';

describe('translate on Apertium', () => {
  let app: TestIntegrations;
  let reader: TestReader;

  beforeAll(async () => {
    app = await startTestIntegrations();
    reader = newReader();
  });
  afterAll(() => app.stop());

  const translate = (text: string, targetLang?: string, caller = reader.caller()) => app.client.translate({ caller, text: reader.encrypt(text), targetLang });

  it('when English is translated into Spanish, then Apertium answers with the Spanish words and detects English', async () => {
    expect(app.service.engines.translate).toBe('apertium');
    const result = await translate('The house is big and the dog is black.', 'es');
    expect(result.translations).toHaveLength(1);
    const [translation] = result.translations;
    expect(translation!.detectedSourceLanguage).toBe('en');
    expect(translation!.translatedText).toMatch(/casa/);
    expect(translation!.translatedText).toMatch(/perro/);
    expect(translation!.translatedText).toMatch(/negro/);
    expect(result.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when Spanish is translated into Portuguese, then the es-pt pair answers', async () => {
    const [translation] = (await translate('El perro come en la casa grande.', 'pt')).translations;
    expect(translation!.detectedSourceLanguage).toBe('es');
    expect(translation!.translatedText).toMatch(/cão/);
    expect(translation!.translatedText).toMatch(/casa grande/);
  });

  it('when English is translated into Portuguese, then it pivots through Spanish', async () => {
    const [translation] = (await translate('The dog eats in the big house.', 'pt')).translations;
    expect(translation!.translatedText).toMatch(/cão/);
    expect(translation!.translatedText).toMatch(/casa/);
  });

  it('when English is translated into Italian, then it pivots through Catalan', async () => {
    const [translation] = (await translate('The house is big.', 'it')).translations;
    expect(translation!.translatedText).toMatch(/casa è grande/i);
  });

  it('when a word is unknown to Apertium, then it comes through without the * mark', async () => {
    const [translation] = (await translate('The xylophonist is here.', 'es')).translations;
    expect(translation!.translatedText).not.toMatch(/[*#@]/);
    expect(translation!.translatedText).toMatch(/xylophonist/);
  });

  it('when the text is already in the target language, then it comes back unchanged', async () => {
    const [translation] = (await translate('La casa es grande y el perro es negro.', 'es')).translations;
    expect(translation).toEqual({ translatedText: 'La casa es grande y el perro es negro.', detectedSourceLanguage: 'es' });
  });

  it('when no target_lang is sent, then the X-App-Lang language is the target, else the tenant language', async () => {
    const toAppLang = await translate('The house is big.', undefined, reader.caller({ appLang: 'es', tenantLang: 'it' }));
    expect(toAppLang.translations[0]!.translatedText).toMatch(/casa es grande/i);
    const toTenantLang = await translate('La casa es grande.', undefined, reader.caller({ tenantLang: 'en' }));
    expect(toTenantLang.translations[0]!.translatedText).toMatch(/house is big/i);
  });

  it('when target_lang carries a region (pt-BR), then its language is used', async () => {
    const [translation] = (await translate('El perro come.', 'pt-BR')).translations;
    expect(translation!.translatedText).toMatch(/cão/);
  });

  it('when target_lang is not a supported language, then 422 names target_lang', async () => {
    await expectRefusal(translate('The house is big.', 'xx'), 'INVALID_ARGUMENT', 'target_lang', /not supported/);
    await expectRefusal(translate('The house is big.', 'not a language'), 'INVALID_ARGUMENT', 'target_lang');
  });

  it('when a v1 app below manifest 2.0.0 sends plaintext, then it is translated the same', async () => {
    const result = await app.client.translate({ caller: reader.caller(plaintext), text: 'The big house.', targetLang: 'es' });
    expect(result.translations[0]!.translatedText).toMatch(/casa grande/);
  });

  it.each([
    ['en', 'The children play in the park with their friends every afternoon.'],
    ['es', 'Los niños juegan en el parque con sus amigos todas las tardes.'],
    ['pt', 'As crianças brincam no parque com os seus amigos todas as tardes.'],
    ['it', 'I bambini giocano nel parco con i loro amici ogni pomeriggio.'],
  ])('when the text is in %s, then that language is detected', async (language, text) => {
    const target = language === 'en' ? 'es' : 'en';
    const [translation] = (await translate(text, target)).translations;
    expect(translation!.detectedSourceLanguage).toBe(language);
  });
});

describe('translate on the hosted Google Translate v2 adapter', () => {
  let app: TestIntegrations;
  let google: StandIn;
  const reader = newReader();

  beforeAll(async () => {
    google = await startStandIn((request, response) => {
      const body = JSON.parse(request.body) as { q: string; target: string };
      if (body.target === 'xx') {
        response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"code":400,"message":"Invalid Value"}}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ data: { translations: [{ translatedText: `[${body.target}] ${body.q}`, detectedSourceLanguage: 'fr' }] } }));
    });
    app = await startTestIntegrations({ TRANSLATE_HOSTED_URL: `${google.url}/language/translate/v2`, TRANSLATE_HOSTED_KEY: 'test-key' });
  });
  afterAll(async () => {
    await app.stop();
    await google.close();
  });

  it('when a text is translated, then the adapter sends the v2 request shape with the key and returns the provider answer', async () => {
    const result = await app.client.translate({ caller: reader.caller(), text: reader.encrypt('Bonjour tout le monde'), targetLang: 'de' });
    expect(result.translations).toEqual([{ translatedText: '[de] Bonjour tout le monde', detectedSourceLanguage: 'fr' }]);
    const request = google.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/language/translate/v2?key=test-key');
    expect(JSON.parse(request.body)).toEqual({ q: 'Bonjour tout le monde', target: 'de', format: 'text' });
  });

  it('when the provider refuses the target language (400), then 422 names target_lang', async () => {
    await expectRefusal(
      app.client.translate({ caller: reader.caller(), text: reader.encrypt('Bonjour'), targetLang: 'xx' }),
      'INVALID_ARGUMENT',
      'target_lang',
    );
  });
});
