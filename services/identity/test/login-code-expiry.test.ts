import { loginCodeFrom, uniqueEmail, waitForEmail } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf, startTestIdentity, type TestIdentity } from './support.js';

describe('login code expiry', () => {
  let t: TestIdentity;
  beforeAll(async () => {
    t = await startTestIdentity({ LOGIN_CODE_TTL_SECONDS: '1' });
  });
  afterAll(() => t?.stop());

  it('when a code is sent back after it expired, then it is refused as invalid or expired', async () => {
    const email = uniqueEmail('expired');
    await t.client.startEmailLogin({ email, lang: 'en', appTenantId: 1, clientIp: '' });
    const mail = await waitForEmail(email);
    expect(mail.text).toContain('expires in 1 minute');
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the window is the point

    const failure = await failureOf(t.client.completeEmailLogin({ email, code: loginCodeFrom(mail), clientIp: '' }));
    expect(failure.code).toBe('INVALID_ARGUMENT');
    expect(failure.message).toBe('The given data was invalid.');
    expect(failure.details.fieldErrors).toEqual({ code: ['The code is invalid or has expired.'] });
  });
});
