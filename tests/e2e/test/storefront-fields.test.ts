// The storefront (scope=all) end to end against ./dev up: the commerce fields
// of every Northwind issue of the demo dataset as ana sees them, localized
// status labels, and what scope=owned (the default) leaves out.
import { uniqueEmail } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, clientIp, loginByEmail, type Tokens } from './client.js';
import { COMMERCE_KEYS, ISSUE_SUMMARY_KEYS } from './issue-summary.js';
import { sharedLogin } from './reader-helpers.js';

const STORE = 'http://northwind.localhost:8080';

type Item = Record<string, any>;

describe('storefront fields of the dataset issues (running stack)', () => {
  let ana: Tokens;
  const ip = clientIp();
  const latest = async (token: string, query: string, lang?: string) => {
    const response = await api('GET', `/api/v2/library/filter?section=latest_issues&per_page=100${query}`, {
      token,
      headers: { ...ip, 'x-svc-tenant-id': '1', ...(lang && { 'x-app-lang': lang }) },
    });
    expect(response.status, response.text).toBe(200);
    return response.body.data as Item[];
  };
  let storefront: Map<number, Item>;

  beforeAll(async () => {
    ana = await sharedLogin('ana@example.com');
    storefront = new Map((await latest(ana.access_token, '&scope=all')).map((item) => [item.id, item]));
  });

  it('when ana opens the storefront, then every item has each issue-summary field, then the commerce fields, in order', () => {
    expect(storefront.size).toBeGreaterThan(0);
    for (const item of storefront.values()) {
      expect(Object.keys(item)).toEqual([...ISSUE_SUMMARY_KEYS, ...COMMERCE_KEYS]);
      expect(item.tenant_id).toBe(1);
      expect(item.published_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(item.prices.length).toBeLessThanOrEqual(1);
    }
  });

  it('when she bought 1001, then it reads and cannot be bought again', () => {
    expect(storefront.get(1001)).toMatchObject({
      name: "The Lighthouse Keeper's Atlas",
      type: 'epub',
      number_of_pages: 212,
      can_be_read: true,
      can_be_bought: false,
      access_reason: 'purchased',
      free: false,
      prices: [{ currency: 'USD', amount: 9.99 }],
      purchase_link: null,
      status: 'Read',
    });
  });

  it('when 1002 is on promotion, then its price carries the discount and a purchase link', () => {
    expect(storefront.get(1002)).toMatchObject({
      can_be_read: false,
      can_be_bought: true,
      access_reason: null,
      free: false,
      prices: [{ currency: 'USD', amount: 4.99, discount: { amount: 2.49, percentage: 50, ends_at: expect.stringMatching(/^2031-01-01T00:00:00/) } }],
      purchase_link: `${STORE}/app/purchase/1002`,
      status: 'Acquire',
    });
  });

  it('when 1003 is a free audiobook, then free access, no prices, no pages, status Listen', () => {
    expect(storefront.get(1003)).toMatchObject({
      type: 'audio',
      number_of_pages: null,
      can_be_read: true,
      can_be_bought: false,
      access_reason: 'free',
      free: true,
      prices: [],
      purchase_link: null,
      status: 'Listen',
    });
  });

  it('when 1004 is sold by subscription only and 1007 has no price, then neither is in the storefront', () => {
    expect(storefront.has(1004)).toBe(false);
    expect(storefront.has(1007)).toBe(false);
  });

  it('when 1005 is her hardcover, then it is listed as purchased (physical items stay in the storefront)', () => {
    expect(storefront.get(1005)).toMatchObject({
      type: 'physical',
      can_be_read: true,
      can_be_bought: false,
      access_reason: 'purchased',
      prices: [{ currency: 'USD', amount: 24 }],
      purchase_link: null,
      status: 'Read',
    });
    expect(storefront.get(1005)!.prices[0]).not.toHaveProperty('discount');
  });

  it('when her purchase of 1006 was revoked, then she has no access and can buy it again', () => {
    expect(storefront.get(1006)).toMatchObject({
      can_be_read: false,
      can_be_bought: true,
      access_reason: null,
      free: false,
      prices: [{ currency: 'USD', amount: 7.5 }],
      purchase_link: `${STORE}/app/purchase/1006`,
      status: 'Acquire',
    });
  });

  it('when 1008 is pay-per-use, then it is listed (individually acquirable) but not buyable and has no purchase link', () => {
    // commerce: individually acquirable = free or individual sale with a price; pay-per-use is refused by the purchase redirect.
    expect(storefront.get(1008)).toMatchObject({
      can_be_read: false,
      can_be_bought: false,
      access_reason: null,
      free: false,
      prices: [{ currency: 'USD', amount: 1.99 }],
      purchase_link: null,
      status: 'Acquire',
    });
  });

  it('when 1009 was a gift with an expiry in the future, then it counts as purchased', () => {
    expect(storefront.get(1009)).toMatchObject({ can_be_read: true, can_be_bought: false, access_reason: 'purchased', purchase_link: null, status: 'Read' });
  });

  it('when the storefront is listed, then it is exactly the individually acquirable issues, newest first', () => {
    expect([...storefront.keys()]).toEqual([1009, 1002, 1005, 1001, 1003, 1006, 1008]);
  });

  it.each([
    ['es', { acquire: 'Adquirir', read: 'Leer', listen: 'Escuchar' }],
    ['pt', { acquire: 'Adquirir', read: 'Ler', listen: 'Ouvir' }],
    ['it', { acquire: 'Acquista', read: 'Leggi', listen: 'Ascolta' }],
    ['en', { acquire: 'Acquire', read: 'Read', listen: 'Listen' }],
  ])('when X-App-Lang is %s, then the status labels are localized', async (lang, labels) => {
    const items = new Map((await latest(ana.access_token, '&scope=all', lang)).map((item) => [item.id, item.status]));
    expect(items.get(1002)).toBe(labels.acquire);
    expect(items.get(1001)).toBe(labels.read);
    expect(items.get(1003)).toBe(labels.listen);
  });

  it('when scope is owned (the default), then only what ana can read, without commerce fields', async () => {
    for (const query of ['', '&scope=owned']) {
      const items = await latest(ana.access_token, query);
      // Her purchases, the gift, the free audiobook and the hardcover; not the revoked, subscription-only or unowned issues.
      expect(items.map((item) => item.id)).toEqual([1009, 1005, 1001, 1003]);
      for (const item of items) expect(Object.keys(item)).toEqual(ISSUE_SUMMARY_KEYS);
    }
  });

  it('when a new reader opens the storefront, then only the free audiobook reads and the rest can be acquired', async () => {
    const reader = await loginByEmail(uniqueEmail('storefront'));
    const items = await latest(reader.access_token, '&scope=all');
    expect(items.map((item) => item.id)).toEqual([1009, 1002, 1005, 1001, 1003, 1006, 1008]);
    const readable = items.filter((item) => item.can_be_read).map((item) => item.id);
    expect(readable).toEqual([1003]);
    expect(items.find((item) => item.id === 1001)).toMatchObject({ can_be_bought: true, purchase_link: `${STORE}/app/purchase/1001`, status: 'Acquire' });
  });

  it('when the storefront of Editorial Sur is opened, then prices are in its main currency and subscription-only issues are left out', async () => {
    const response = await api('GET', '/api/v2/library/filter?section=latest_issues&scope=all&per_page=100', {
      token: ana.access_token,
      headers: { ...ip, 'x-svc-tenant-id': '2' },
    });
    expect(response.status).toBe(200);
    const items = new Map((response.body.data as Item[]).map((item) => [item.id, item]));
    expect(items.has(2005)).toBe(false);
    // Her Sur Ilimitado plan covers everything in the tenant.
    expect(items.get(2002)).toMatchObject({
      can_be_read: true,
      can_be_bought: false,
      access_reason: 'subscription',
      prices: [{ currency: 'ARS', amount: 1200, discount: { amount: 900, percentage: 25, ends_at: null } }],
      purchase_link: null,
      status: 'Read',
    });
    expect(items.get(2003)).toMatchObject({ access_reason: 'subscription', status: 'Listen' });
  });

  it('when scope has an unknown value, then 422 names it', async () => {
    const response = await api('GET', '/api/v2/library?scope=everything', { token: ana.access_token, headers: { ...ip, 'x-svc-tenant-id': '1' } });
    expect(response.status).toBe(422);
    expect(response.body.errors).toHaveProperty('scope');
  });
});
