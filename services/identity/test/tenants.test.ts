import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTenantSettings, seedIdentity } from '../src/seed.js';
import { dataset, failureOf, startTestIdentity, type TestIdentity } from './support.js';

/** A user id with no account in any tenant (the gateway only passes authenticated ids; discovery needs no record). */
const NEWCOMER = 9_999;
const ANA = 1; // member of 1 and 2
const CARLA = 3; // member of 3
const DARIO = 5; // member of 6

describe('tenants, users and tenant discovery', () => {
  let t: TestIdentity;
  beforeAll(async () => {
    t = await startTestIdentity();
  });
  afterAll(() => t?.stop());

  const list = async (request: { userId: number; appTenantId?: number; countryCode?: string; query?: string; perPage?: number; cursor?: string }) => {
    const response = await t.client.listDiscoverableTenants({ appTenantId: 1, perPage: 0, ...request });
    return { ids: response.tenants.map((tenant) => tenant.id), meta: response.meta!, tenants: response.tenants };
  };

  // First: the re-seed below brings no overlay, which puts every tenant back to the defaults.
  it('when a tenant is read, then the settings overlay gives its web origins and public catalog, others the defaults', async () => {
    expect((await t.client.getTenant({ tenantId: 4 })).tenant).toMatchObject({
      webOrigins: ['https://reader.aurora.example', 'http://reader.aurora.localhost:*'],
      opdsPublicCatalog: true,
    });
    expect((await t.client.getTenant({ tenantId: 2 })).tenant).toMatchObject({ webOrigins: [], opdsPublicCatalog: false });
    // The union the gateway answers preflights from: only the tenants that allow some origin.
    const { tenants } = await t.client.listWebOrigins({});
    expect(tenants).toContainEqual({ tenantId: 4, webOrigins: ['https://reader.aurora.example', 'http://reader.aurora.localhost:*'] });
    expect(tenants.map((tenant) => tenant.tenantId)).not.toContain(2);
    expect(tenants.every((tenant) => tenant.webOrigins.length > 0)).toBe(true);
  });

  it('when the overlay names an origin that is not scheme://host[:port|:*], then the seed refuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenant-settings-'));
    const path = join(dir, 'tenant-settings.json');
    for (const origin of ['https://Reader.example', 'https://reader.example/', 'reader.example', 'https://reader.example:*:1']) {
      writeFileSync(path, JSON.stringify({ tenants: { 4: { web_origins: [origin] } } }));
      expect(() => loadTenantSettings(path), origin).toThrow(/is not scheme:\/\/host/);
    }
    rmSync(dir, { recursive: true });
  });

  it('when the dataset is seeded again, then nothing is duplicated and ids stay put', async () => {
    await seedIdentity(t.db, dataset);
    expect(await t.db.collection('users').countDocuments()).toBe(7);
    expect(await t.db.collection('memberships').countDocuments()).toBe(9);
    expect(await t.db.collection('tenants').countDocuments()).toBe(6);
    const { user } = await t.client.getUser({ userId: 7 });
    expect(user).toMatchObject({ id: 7, email: 'fabio@example.com', admin: false, picture: 'https://avatars.example.com/fabio.png' });
    expect(user!.tenants.map((tenant) => tenant.id)).toEqual([4, 6]);
  });

  it('when a tenant is read, then every field of the dataset comes back', async () => {
    const { tenant } = await t.client.getTenant({ tenantId: 2 });
    const source = dataset.tenants.find((candidate) => candidate.id === 2)!;
    expect(tenant).toMatchObject({
      id: 2,
      name: 'Editorial Sur',
      domain: 'sur.localhost',
      logo: source.logo,
      countryCode: 'AR',
      countryName: 'Argentina',
      colors: source.colors,
      currency: 'ARS',
      lang: 'es',
      previewPercentage: 20,
      freeAccess: false,
      features: { storefrontSearch: true, tts: true, search: true, concurrencyLimit: true, chineseVoice: false },
      mobileAppScheme: 'editorialsur://',
      planActive: true,
      exitUrl: source.exit_url,
      twitterUser: 'editorialsur',
    });
    expect(tenant!.aggregatorId).toBeUndefined();
    // The reader defaults, typed (they were JSON text on the wire).
    const reader = source.reader as {
      pdf: { layout: string | null };
      tts: boolean;
      theme: string;
      extras: string[];
      customStyles: Record<string, unknown> | null;
    };
    expect(tenant!.reader).toEqual({
      pdfLayout: reader.pdf.layout ?? undefined,
      tts: reader.tts,
      theme: reader.theme,
      extras: reader.extras,
      styles: reader.customStyles ? { values: reader.customStyles } : undefined,
    });
    expect((await t.client.getTenant({ tenantId: 3 })).tenant).toMatchObject({ aggregatorId: 2, mobileAppScheme: 'atlantica://' });
    expect((await t.client.getTenant({ tenantId: 1 })).tenant!.mobileAppScheme).toBeUndefined();
    expect((await failureOf(t.client.getTenant({ tenantId: 404 }))).code).toBe('NOT_FOUND');
  });

  it('when a store host is resolved, then case and port do not matter and unknown hosts are not found', async () => {
    expect((await t.client.resolveTenantByDomain({ domain: 'SUR.localhost:8080' })).tenant!.id).toBe(2);
    expect((await t.client.resolveTenantByDomain({ domain: 'atlantica.localhost' })).tenant!.id).toBe(3);
    expect((await failureOf(t.client.resolveTenantByDomain({ domain: 'nowhere.localhost:8080' }))).code).toBe('NOT_FOUND');
  });

  it('when a user is read, then the tenants of their memberships come ordered by id; a missing user is 401', async () => {
    const { user } = await t.client.getUser({ userId: ANA });
    expect(user).toMatchObject({ id: 1, email: 'ana@example.com', admin: false });
    expect(user!.tenants.map((tenant) => tenant.id)).toEqual([1, 2]);
    expect(user!.tenants[0]).toMatchObject({ name: 'Northwind Reader', countryCode: 'US', colors: { primary: '#1F4E79', secondary: '#F2A900' } });
    expect((await t.client.getUser({ userId: 4 })).user!.admin).toBe(true);

    expect(await failureOf(t.client.getUser({ userId: NEWCOMER }))).toMatchObject({ code: 'UNAUTHENTICATED', message: 'The given data was invalid.' });
  });

  it('when a membership is ensured twice, then it is created once', async () => {
    expect(await t.client.ensureMembership({ userId: ANA, tenantId: 5 })).toEqual({ created: true });
    expect(await t.client.ensureMembership({ userId: ANA, tenantId: 5 })).toEqual({ created: false });
    expect((await t.client.getUser({ userId: ANA })).user!.tenants.map((tenant) => tenant.id)).toEqual([1, 2, 5]);
    expect((await failureOf(t.client.ensureMembership({ userId: ANA, tenantId: 404 }))).code).toBe('NOT_FOUND');
  });

  it('when a newcomer lists tenants, then only active-plan tenants come, most members first, then by id', async () => {
    // Members: 1 -> 3, 6 -> 3, 2/3/4 -> 1; 5 has no active plan.
    const { ids, meta } = await list({ userId: NEWCOMER });
    expect(ids).toEqual([1, 6, 2, 3, 4]);
    expect(meta).toMatchObject({ perPage: 20 });
    expect(meta.nextCursor).toBeUndefined();
    expect(meta.prevCursor).toBeUndefined();
  });

  it('when a user lists tenants, then the tenants they already have an account in are left out', async () => {
    expect((await list({ userId: ANA })).ids).toEqual([6, 3, 4]);
    expect((await list({ userId: DARIO })).ids).toEqual([1, 2, 3, 4]);
  });

  it('when a country is given, then only tenants whose signup country matches (any case) come; it must be 2 characters', async () => {
    expect((await list({ userId: NEWCOMER, countryCode: 'us' })).ids).toEqual([1, 6]);
    expect((await list({ userId: NEWCOMER, countryCode: 'AR' })).ids).toEqual([2]);
    expect((await list({ userId: NEWCOMER, countryCode: 'FR' })).ids).toEqual([]);
    for (const countryCode of ['USA', 'U', '']) {
      const failure = await failureOf(list({ userId: NEWCOMER, countryCode }));
      expect(failure.code).toBe('INVALID_ARGUMENT');
      expect(Object.keys(failure.details.fieldErrors)).toEqual(['country_code']);
    }
  });

  it('when a query is given, then it matches names as a case-insensitive substring after NFC normalization', async () => {
    const composed = await list({ userId: NEWCOMER, query: 'atlântica' });
    const decomposedUpper = await list({ userId: NEWCOMER, query: 'ATLA\u0302NTICA' });
    expect(composed.ids).toEqual([3]);
    expect(decomposedUpper.ids).toEqual([3]);
    // An acute accent is another letter: NFC does not fold accents.
    expect((await list({ userId: NEWCOMER, query: 'atlántica' })).ids).toEqual((await list({ userId: NEWCOMER, query: 'ATLA\u0301NTICA' })).ids);
    expect((await list({ userId: NEWCOMER, query: 're' })).ids).toEqual([1, 6, 2, 3, 4].filter((id) => /re/i.test(dataset.tenants[id - 1]!.name)));
    expect((await list({ userId: NEWCOMER, query: 'a.b*' })).ids).toEqual([]);
    for (const query of ['a', 'x'.repeat(129)]) {
      const failure = await failureOf(list({ userId: NEWCOMER, query }));
      expect(Object.keys(failure.details.fieldErrors)).toEqual(['query']);
    }
  });

  it('when a custom app lists tenants, then only its family (itself and the tenants it aggregates) comes', async () => {
    expect((await list({ userId: NEWCOMER, appTenantId: 2 })).ids).toEqual([2, 3, 4]);
    expect((await list({ userId: ANA, appTenantId: 2 })).ids).toEqual([3, 4]);
    expect((await list({ userId: CARLA, appTenantId: 2 })).ids).toEqual([2, 4]);
    expect((await list({ userId: NEWCOMER, appTenantId: 6 })).ids).toEqual([6]);
    expect((await list({ userId: DARIO, appTenantId: 6 })).ids).toEqual([]);
  });

  it('when paging one tenant at a time, then the cursors walk every page forth and back', async () => {
    const seen: number[] = [];
    const pages = [];
    let cursor: string | undefined;
    do {
      const page = await list({ userId: NEWCOMER, perPage: 1, cursor });
      pages.push(page);
      seen.push(...page.ids);
      cursor = page.meta.nextCursor;
    } while (cursor);
    expect(seen).toEqual([1, 6, 2, 3, 4]);
    expect(pages[0]!.meta.prevCursor).toBeUndefined();
    expect(pages.at(-1)!.meta.nextCursor).toBeUndefined();
    expect(pages.every((page) => page.meta.perPage === 1)).toBe(true);

    const back = await list({ userId: NEWCOMER, perPage: 1, cursor: pages[2]!.meta.prevCursor });
    expect(back.ids).toEqual([6]);
  });

  it('when a cursor is tampered with or made for other filters, then it is refused on cursor', async () => {
    const { meta } = await list({ userId: NEWCOMER, perPage: 1 });
    const cursor = meta.nextCursor!;
    const [body, signature] = cursor.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), o: 3 })).toString('base64url');
    for (const bad of [`${forgedBody}.${signature}`, `${body}.${signature!.slice(0, -2)}xx`, 'garbage', `${body}`]) {
      const failure = await failureOf(list({ userId: NEWCOMER, perPage: 1, cursor: bad }));
      expect(failure.code).toBe('INVALID_ARGUMENT');
      expect(Object.keys(failure.details.fieldErrors)).toEqual(['cursor']);
    }
    const otherFilters = await failureOf(list({ userId: NEWCOMER, perPage: 1, cursor, countryCode: 'US' }));
    expect(Object.keys(otherFilters.details.fieldErrors)).toEqual(['cursor']);
  });

  it('when per_page is out of 1-100, then it is refused on per_page', async () => {
    for (const perPage of [101, -1]) {
      const failure = await failureOf(list({ userId: NEWCOMER, perPage }));
      expect(Object.keys(failure.details.fieldErrors)).toEqual(['per_page']);
    }
    expect((await list({ userId: NEWCOMER, perPage: 100 })).meta.perPage).toBe(100);
  });

  it('when a tenant gains members, then it moves up the listing', async () => {
    for (const userId of [2, 4, 5]) await t.client.ensureMembership({ userId, tenantId: 4 });
    // Members now: 4 -> 4, 1 -> 3, 6 -> 3, 2/3 -> 1.
    expect((await list({ userId: NEWCOMER })).ids).toEqual([4, 1, 6, 2, 3]);
  });
});
