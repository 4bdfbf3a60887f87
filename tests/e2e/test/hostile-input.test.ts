// Requests that once took a whole service down (issue 10, item 0): a
// validation message with non-ASCII text made the gRPC error mapping throw
// inside the error path, and the process exited. Each case must answer a 4xx
// and leave the service serving the next request.
import { encryptText } from '@folio/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedLogin, type Tokens } from './client.js';
import { api, session, STORE, v2 } from './reader-helpers.js';

describe('hostile input that once crashed a service (running stack)', () => {
  let ana: Tokens;
  let readerToken: string;

  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
    readerToken = (await session(ana.access_token, 1, 1001)).token;
  });

  const libraryStillServes = async () => {
    const after = await api('GET', '/api/v2/library', { token: ana.access_token, headers: v2(1) });
    expect(after.status).toBe(200);
  };

  const integrationsStillServe = async () => {
    const after = await api('POST', '/api/v2/reader/integrations/translate', {
      token: ana.access_token,
      headers: v2(1, readerToken),
      body: { text: encryptText(readerToken, 'hello world'), target_lang: 'es' },
    });
    expect(after.status).toBe(200);
  };

  it('when a library filter is named with a non-ASCII key, then catalog answers 422 and keeps serving', async () => {
    const response = await api('GET', '/api/v2/library/filter?%C3%A9=x', { token: ana.access_token, headers: v2(1) });
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual(expect.any(String));
    await libraryStillServes();
  });

  it('when listen is asked for a non-ASCII voice, then integrations answers 422 and keeps serving', async () => {
    const response = await api('POST', '/api/v2/reader/integrations/listen', {
      token: ana.access_token,
      headers: v2(1, readerToken),
      body: { text: encryptText(readerToken, 'hello'), voiceId: 'é' },
    });
    expect(response.status).toBe(422);
    await integrationsStillServe();
  });

  it('when translate is asked for a non-ASCII target language, then integrations answers 422 and keeps serving', async () => {
    const response = await api('POST', '/api/v2/reader/integrations/translate', {
      token: ana.access_token,
      headers: v2(1, readerToken),
      body: { text: encryptText(readerToken, 'hello world'), target_lang: 'éé' },
    });
    expect(response.status).toBe(422);
    await integrationsStillServe();
  });

  it('when the v1 translate route gets the same input with only a reader-token, then it is a 422 too', async () => {
    const response = await api('POST', '/api/v1/integrations/translate', {
      headers: { host: STORE[1], 'reader-token': readerToken },
      body: { text: 'hello world', target_lang: 'éé' },
    });
    expect(response.status).toBe(422);
    await integrationsStillServe();
  });
});
