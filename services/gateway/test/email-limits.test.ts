// E-mail addresses a mail server would refuse are bad input (422 with
// errors.email), checked before any upstream is called: identity is not even
// reachable here, so a request that got past validation would answer 503.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../src/app.js';
import { CLOSED_ADDR, gatewayConfig, httpClient, type HttpClient } from './support.js';

const label = (char: string, length: number) => char.repeat(length);

describe('e-mail size limits on login', () => {
  let gateway: Gateway;
  let http: HttpClient;

  beforeAll(async () => {
    gateway = await startGateway(gatewayConfig(CLOSED_ADDR));
    http = httpClient(gateway.url);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  const refused = {
    // 254 characters: over the SMTP path limit.
    'an address of 254 characters': `0@${label('a', 63)}.${label('b', 63)}.${label('c', 63)}.${label('d', 60)}`,
    'a domain over 253 characters': `x@${[label('a', 63), label('b', 63), label('c', 63), label('d', 63), 'com'].join('.')}`,
    'a domain label over 63 characters': `x@${label('a', 64)}.com`,
    'a local part over 64 characters': `${label('x', 65)}@example.com`,
  };

  for (const [what, email] of Object.entries(refused)) {
    it(`when the e-mail has ${what}, then init and validate answer 422 with errors.email`, async () => {
      const init = await http.post('/api/v2/login/token/init', { body: { email } });
      expect(init.status).toBe(422);
      expect(init.body.errors.email?.length).toBeGreaterThan(0);
      const validate = await http.post('/api/v2/login/token/validate', { body: { email, code: '12345678' } });
      expect(validate.status).toBe(422);
      expect(validate.body.errors.email?.length).toBeGreaterThan(0);
    });
  }

  it('when the e-mail is long but within every limit, then it passes validation (and meets the unreachable identity)', async () => {
    const email = `${label('x', 64)}@${label('a', 63)}.${label('b', 63)}.${label('c', 50)}.com`;
    expect(email.length).toBeLessThanOrEqual(253);
    const init = await http.post('/api/v2/login/token/init', { body: { email } });
    expect(init.status).toBe(503);
  });
});
