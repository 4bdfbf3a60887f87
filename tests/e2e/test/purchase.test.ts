// The purchase redirect and the web checkout, end to end against ./dev up:
// every status of the redirect through the API, then a real browser clicking
// from the redirect through the checkout page to the app's deeplink.
import { uniqueEmail } from '@folio/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.js';
import { api, clientIp, loginByEmail, ownClientIp, sharedLogin, type Tokens } from './client.js';

const NORTHWIND = 'northwind.localhost:8080';

function purchase(
  issueId: number,
  token: string | undefined,
  { host = NORTHWIND, appTenantId, ip = clientIp() } = {} as {
    host?: string;
    appTenantId?: number;
    ip?: Record<string, string>;
  },
) {
  const query = new URLSearchParams();
  if (token) query.set('token', token);
  if (appTenantId) query.set('app_tenant_id', String(appTenantId));
  return api('GET', `/app/purchase/${issueId}?${query}`, { headers: { host, ...ip } });
}

describe('purchase redirect (running stack)', () => {
  let ana: Tokens;
  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
  });

  it('when the JWT is missing or bad, then 401', async () => {
    expect((await purchase(1002, undefined)).status).toBe(401);
    expect((await purchase(1002, 'not-a-jwt')).status).toBe(401);
  });

  it('when the issue is not in the store of the Host, then 404', async () => {
    expect((await purchase(2001, ana.access_token)).status).toBe(404);
  });

  it.each([
    [1003, 'free'],
    [1008, 'pay-per-use'],
    [1007, 'without prices'],
  ])('when issue %i is %s, then 422', async (issueId) => {
    const response = await purchase(issueId, ana.access_token);
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual(expect.any(String));
  });

  it('when the issue can be bought, then 302 to the checkout with a web session cookie and an empty body', async () => {
    const response = await purchase(1002, ana.access_token, { appTenantId: 1 });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/app/checkout?automatically_open_checkout=true');
    expect(response.headers.get('set-cookie')).toMatch(/^folio_session=[^;]+; Path=\/app; HttpOnly; SameSite=Lax/);
    expect(response.text).toBe('');
  });

  it('when one IP opens more than 60 redirects in a minute, then 429 with Retry-After', async () => {
    const ip = ownClientIp();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await purchase(1003, ana.access_token, { ip })).status);
    expect(statuses.slice(0, 60).every((status) => status === 422)).toBe(true);
    const limited = await purchase(1003, ana.access_token, { ip });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('web checkout in a real browser (running stack)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());
  /** The reader who bought 1006 in the browser. */
  let buyer: Tokens | undefined;

  it('when a new reader buys an issue, then the browser lands on the app deeplink and the grant exists', async () => {
    const reader = await loginByEmail(uniqueEmail('buyer'));
    const page = await browser.newPage();

    await page.goto(`http://${NORTHWIND}/app/purchase/1006?token=${reader.access_token}`);
    expect(new URL(page.url()).pathname).toBe('/app/checkout');
    await expect(page.content()).resolves.toContain('Balcony Gardens');
    await expect(page.content()).resolves.toContain('7.50');

    await page.fill('input[name="cardholder_name"]', 'Test Reader');
    await page.fill('input[name="card_number"]', '4242 4242 4242 4242');
    await page.fill('input[name="card_expiry"]', '12/34');
    await page.fill('input[name="card_cvc"]', '123');
    const [payment] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/app/checkout/pay')),
      page.click('button[type="submit"]'),
    ]);
    expect(payment.status()).toBe(303);
    expect(payment.headers().location).toBe('folio://purchase-complete?issue_id=1006&status=success');
    await page.close();
    buyer = reader;
  });

  it('when the browser purchase of 1006 is complete, then the storefront shows it readable and no longer for sale', async () => {
    expect(buyer, 'the browser purchase above must have succeeded').toBeDefined();
    const storefront = await api('GET', '/api/v2/library?scope=all&per_page=100', {
      token: buyer!.access_token,
      headers: { ...clientIp(), 'x-svc-tenant-id': '1' },
    });
    expect(storefront.status).toBe(200);
    const latest = storefront.body.data.find((shelf: { filter_value: string }) => shelf.filter_value === 'latest_issues');
    expect(latest.data.find((issue: { id: number }) => issue.id === 1006)).toMatchObject({
      can_be_read: true,
      can_be_bought: false,
      access_reason: 'purchased',
      purchase_link: null,
      status: 'Read',
    });
  });

  it('when the card is declined, then the page says so and stays on the checkout', async () => {
    const reader = await loginByEmail(uniqueEmail('declined'));
    const page = await browser.newPage();
    await page.goto(`http://${NORTHWIND}/app/purchase/1009?token=${reader.access_token}`);
    await page.fill('input[name="cardholder_name"]', 'Test Reader');
    await page.fill('input[name="card_number"]', '4000 0000 0000 0002');
    await page.fill('input[name="card_expiry"]', '12/34');
    await page.fill('input[name="card_cvc"]', '123');
    const [payment] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/app/checkout/pay')),
      page.click('button[type="submit"]'),
    ]);
    expect(payment.status()).toBe(402);
    expect(new URL(page.url()).pathname).toBe('/app/checkout/pay');
    await page.close();
  });
});
