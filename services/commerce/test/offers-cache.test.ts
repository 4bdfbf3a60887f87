// The free issues of a tenant and the offer of each issue are served from
// memory (MongoOfferRepository): a my-content listing must not read the whole
// offers collection each time, nor a purchase redirect its offer.
import { freshDatabase } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoOfferRepository } from '../src/data/offers.js';
import { commerceModels, type CommerceModels, type OfferDoc } from '../src/data/schemas.js';

const offer = (id: number, tenantId: number, free: boolean): OfferDoc => ({
  _id: id,
  tenant_id: tenantId,
  type: 'epub',
  name: `Issue ${id}`,
  free,
  sale: 'individual',
  licensing: 'standard',
  prices: [],
  updated_at: new Date(),
});

describe('free issues of a tenant', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let models: CommerceModels;
  beforeAll(async () => {
    db = await freshDatabase('commerce-offers');
    models = commerceModels(db.connection);
    await models.offers.insertMany([offer(1, 1, true), offer(2, 1, false), offer(3, 2, true)]);
  });
  afterAll(() => db.drop());

  it('when asked for several tenants, then each tenant contributes its free issues', async () => {
    const offers = new MongoOfferRepository(models.offers, 60_000);
    expect(await offers.freeIssuesIn([1, 2, 1])).toEqual([
      { tenant_id: 1, issue_id: 1 },
      { tenant_id: 2, issue_id: 3 },
    ]);
  });

  it('when a free offer appears behind its back, then the cached list is served until the TTL, and put() drops it at once', async () => {
    const offers = new MongoOfferRepository(models.offers, 60_000);
    expect(await offers.freeIssuesIn([1])).toEqual([{ tenant_id: 1, issue_id: 1 }]);
    // Another replica (or the scale loader) wrote it: this one still answers from memory.
    await models.offers.create(offer(4, 1, true));
    expect(await offers.freeIssuesIn([1])).toEqual([{ tenant_id: 1, issue_id: 1 }]);
    // Written through this repository: the tenant's entry is dropped.
    await offers.put(offer(5, 1, true));
    expect((await offers.freeIssuesIn([1])).map((free) => free.issue_id).sort()).toEqual([1, 4, 5]);
  });

  it('when the TTL is 0, then every call reads the store', async () => {
    const offers = new MongoOfferRepository(models.offers, 0);
    await offers.freeIssuesIn([2]);
    await models.offers.create(offer(6, 2, true));
    expect((await offers.freeIssuesIn([2])).map((free) => free.issue_id).sort()).toEqual([3, 6]);
  });

  it('when an offer is read again, then it comes from memory until put() replaces it; another tenant never sees it', async () => {
    const offers = new MongoOfferRepository(models.offers, 60_000);
    await offers.put(offer(7, 1, false));
    expect(await offers.findInTenant(1, 7)).toMatchObject({ _id: 7, name: 'Issue 7' });
    expect(await offers.findInTenant(2, 7)).toBeNull();
    // Changed behind its back (another replica): this one still answers from memory.
    await models.offers.updateOne({ _id: 7 }, { name: 'Renamed elsewhere' });
    expect(await offers.findInTenant(1, 7)).toMatchObject({ name: 'Issue 7' });
    // Written through this repository: the entry is dropped.
    await offers.put({ ...offer(7, 1, false), name: 'Renamed here' });
    expect(await offers.findInTenant(1, 7)).toMatchObject({ name: 'Renamed here' });
    expect(await offers.findManyInTenant(1, [7, 404])).toEqual([expect.objectContaining({ _id: 7, name: 'Renamed here' })]);
  });

  it('when an issue has no offer yet, then it is asked again next time', async () => {
    const offers = new MongoOfferRepository(models.offers, 60_000);
    expect(await offers.findInTenant(1, 8)).toBeNull();
    await models.offers.create(offer(8, 1, false));
    expect(await offers.findInTenant(1, 8)).toMatchObject({ _id: 8 });
  });

  it('when an offer goes on or off sale here, or another replica changes the tenant, then the cached offer is dropped', async () => {
    const offers = new MongoOfferRepository(models.offers, 60_000);
    await offers.put(offer(9, 1, false));
    expect(await offers.findInTenant(1, 9)).not.toHaveProperty('on_sale');
    // Another tenant's issue id: nothing changes.
    expect(await offers.setOnSale(2, 9, false, new Date())).toBe(false);
    expect(await offers.findInTenant(1, 9)).not.toHaveProperty('on_sale');
    expect(await offers.setOnSale(1, 9, false, new Date())).toBe(true);
    expect(await offers.findInTenant(1, 9)).toMatchObject({ on_sale: false });
    // Changed behind its back, then the tenant's access.changed arrives (forgetTenant).
    await models.offers.updateOne({ _id: 9 }, { on_sale: true });
    expect(await offers.findInTenant(1, 9)).toMatchObject({ on_sale: false });
    offers.forgetTenant(2);
    expect(await offers.findInTenant(1, 9)).toMatchObject({ on_sale: false });
    offers.forgetTenant(1);
    expect(await offers.findInTenant(1, 9)).toMatchObject({ on_sale: true });
  });

  it('when an offer is put in a tenant under an id another tenant has, then nothing is written', async () => {
    const offers = new MongoOfferRepository(models.offers, 60_000);
    expect(await offers.putInTenant({ ...offer(3, 1, false), name: 'Taken' })).toBe(false);
    expect(await offers.findInTenant(2, 3)).toMatchObject({ tenant_id: 2, name: 'Issue 3' });
    expect(await offers.putInTenant({ ...offer(3, 2, false), name: 'Replaced' })).toBe(true);
    expect(await offers.findInTenant(2, 3)).toMatchObject({ name: 'Replaced' });
  });
});
