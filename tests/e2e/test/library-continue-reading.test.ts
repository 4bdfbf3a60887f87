// Continue reading end to end against ./dev up: positions saved through the
// reader route (PUT /api/v2/reader/{issue_id}/last-location) in two tenants
// feed GET /api/v2/user/continue-reading (across tenants, most recently read
// first) and the continue-reading shelf of each tenant's library.
import { uniqueEmail } from '@folio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, clientIp, loginByEmail, type Tokens } from './client.js';

const AURORA = 4; // Biblioteca Aurora: free access for every member.

describe('continue reading across two tenants (running stack)', () => {
  // A new reader, member of Northwind (app tenant 1) and of Aurora (a second login from Aurora's app).
  let reader: Tokens;
  const ip = clientIp();
  const headers = (tenantId?: number) => ({ ...ip, ...(tenantId && { 'x-svc-tenant-id': String(tenantId) }) });
  const save = async (tenantId: number, issueId: number, lastLocation: unknown) => {
    const response = await api('PUT', `/api/v2/reader/${issueId}/last-location`, {
      token: reader.access_token,
      headers: headers(tenantId),
      body: { lastLocation },
    });
    if (response.status !== 200) throw new Error(`saving ${issueId} answered ${response.status}: ${response.text}`);
  };
  const continueReading = (query = '') => api('GET', `/api/v2/user/continue-reading${query}`, { token: reader.access_token, headers: headers() });
  const ids = (items: { id: number; tenant_id: number }[]) => items.map((item) => [item.tenant_id, item.id]);

  beforeAll(async () => {
    const email = uniqueEmail('continue');
    await loginByEmail(email);
    reader = await loginByEmail(email, { appTenantId: AURORA });
    const user = await api('GET', '/api/v2/user', { token: reader.access_token, headers: headers() });
    expect(user.body.tenants.map((tenant: { id: number }) => tenant.id).sort()).toEqual([1, AURORA]);
  });

  it('when nothing was read yet, then an empty continue_reading section with page meta', async () => {
    const response = await continueReading();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      filter_name: 'section',
      filter_value: 'continue_reading',
      title: 'Continue reading',
      data: [],
      meta: { current_page: 1, from: null, to: null, last_page: 1, per_page: 6, total: 0 },
    });
  });

  it('when positions are saved in two tenants, then the most recently read comes first, across both', async () => {
    await save(1, 1003, { currentSeek: 2.5, currentTrack: 0 });
    await save(AURORA, 4001, { chapterHref: 'text/chapter-1.xhtml', cfi: 'epubcfi(/6/2[chapter-1]!/4/2)' });
    const response = await continueReading();
    expect(response.status).toBe(200);
    expect(ids(response.body.data)).toEqual([
      [AURORA, 4001],
      [1, 1003],
    ]);
    expect(response.body.meta).toEqual({ current_page: 1, from: 1, to: 2, last_page: 1, per_page: 6, total: 2 });
    // Items are plain issue summaries: no commerce fields on a multi-tenant listing.
    expect(response.body.data[0]).not.toHaveProperty('can_be_read');
    expect(response.body.data[1]).toMatchObject({ name: 'Tides and Stories', type: 'audio', number_of_pages: null });
  });

  it('when an issue is read again, then it moves to the front', async () => {
    await save(1, 1003, { currentSeek: 5, currentTrack: 1 });
    const response = await continueReading();
    expect(ids(response.body.data)).toEqual([
      [1, 1003],
      [AURORA, 4001],
    ]);
  });

  it('when per_page is 1, then the positions are paged with page meta', async () => {
    const first = await continueReading('?per_page=1');
    expect(ids(first.body.data)).toEqual([[1, 1003]]);
    expect(first.body.meta).toEqual({ current_page: 1, from: 1, to: 1, last_page: 2, per_page: 1, total: 2 });
    const second = await continueReading('?per_page=1&page=2');
    expect(ids(second.body.data)).toEqual([[AURORA, 4001]]);
    expect(second.body.meta).toEqual({ current_page: 2, from: 2, to: 2, last_page: 2, per_page: 1, total: 2 });
  });

  it('when the title is asked in Spanish, then it is localized', async () => {
    const response = await api('GET', '/api/v2/user/continue-reading', { token: reader.access_token, headers: { ...headers(), 'x-app-lang': 'es' } });
    expect(response.body.title).toBe('Continuar leyendo');
  });

  it('when per_page is out of range or X-Svc-Tenant-Id is sent, then 422 and 412', async () => {
    expect((await continueReading('?per_page=0')).status).toBe(422);
    expect((await continueReading('?per_page=101')).status).toBe(422);
    const single = await api('GET', '/api/v2/user/continue-reading', { token: reader.access_token, headers: headers(1) });
    expect(single.status).toBe(412);
  });

  it("when each tenant's library is opened, then its continue-reading shelf holds that tenant's position only", async () => {
    const northwind = await api('GET', '/api/v2/library', { token: reader.access_token, headers: headers(1) });
    const shelf = northwind.body.data.find((section: { filter_value: string }) => section.filter_value === 'continue_reading');
    expect(shelf.data.map((issue: { id: number }) => issue.id)).toEqual([1003]);
    const aurora = await api('GET', '/api/v2/library/filter?section=continue_reading', { token: reader.access_token, headers: headers(AURORA) });
    expect(aurora.status).toBe(200);
    expect(aurora.body.data.map((issue: { id: number }) => issue.id)).toEqual([4001]);
    expect(aurora.body.meta).toMatchObject({ total: 1 });
  });
});
