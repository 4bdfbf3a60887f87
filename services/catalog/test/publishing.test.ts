// The publisher API's issue lifecycle against the real catalog (fresh
// FerretDB database, real identity and commerce, real RabbitMQ): create,
// update and delete rules, ids unique across tenants, what each state lists,
// reader's content.ingested, and a second replica that hears issues.changed.
//
// Listings are asked as Ana, whose plan covers every issue of tenant 2 (Sur):
// commerce lets her read whatever catalog lists there, so what a listing shows
// is catalog's visibility alone.
import { createLogger } from '@folio/logger';
import { Broker, CONTENT_INGESTED, createEvent, ISSUES_CHANGED } from '@folio/messaging';
import { createPromiseClient } from '@folio/grpc';
import { catalog } from '@folio/proto';
import { observeEvents, waitFor, testInfra, type EventObserver } from '@folio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCatalog } from '../src/app.js';
import { ANA } from './support/dataset.js';
import { idsOf, startTestCatalog, type TestCatalog } from './support/harness.js';

const SUR = 2;
const { ISSUE_STATE_DRAFT: DRAFT, ISSUE_STATE_PUBLISHED: PUBLISHED, ISSUE_STATE_WITHDRAWN: WITHDRAWN } = catalog.IssueState;

describe('publishing', () => {
  let t: TestCatalog;
  let broker: Broker;
  let announced: EventObserver;

  beforeAll(async () => {
    t = await startTestCatalog();
    broker = await Broker.connect(testInfra().amqpUrl, { logger: createLogger({ service: 'test', level: 'silent' }), name: 'catalog-publishing-test' });
    announced = await observeEvents(t.config.EVENTS_EXCHANGE, [ISSUES_CHANGED]);
  });
  afterAll(async () => {
    await announced?.close();
    await broker?.close();
    await t?.stop();
  });

  /** IssueFields with the lists left unset unless given. */
  const f = (fields: Partial<catalog.IssueFields>): catalog.IssueFields => ({ authors: undefined, collections: undefined, ...fields });
  const create = (fields: Partial<catalog.IssueFields>, tenantId = SUR) =>
    t.client.createIssue({ tenantId, fields: f(fields) }).then((response) => response.issue!);
  const errorOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: { code: string; details?: { fieldErrors?: Record<string, string[]> } }) => error,
    );
  const latest = async () =>
    idsOf(
      (
        await t.client.filterLibrary({
          tenantId: SUR,
          userId: ANA,
          filterName: 'section',
          filterValue: 'latest_issues',
          page: 1,
          perPage: 100,
          scope: catalog.Scope.SCOPE_OWNED,
          filesOnly: false,
        })
      ).section,
    );
  const inCollection = async (slug: string) =>
    idsOf(
      (
        await t.client.filterLibrary({
          tenantId: SUR,
          userId: ANA,
          filterName: 'section',
          filterValue: slug,
          page: 1,
          perPage: 100,
          scope: catalog.Scope.SCOPE_OWNED,
          filesOnly: false,
        })
      ).section,
    );
  const searched = async (query: string) =>
    idsOf((await t.client.searchStore({ tenantId: SUR, userId: ANA, query, page: 1, scope: catalog.Scope.SCOPE_OWNED, filesOnly: false })).section);
  const searchedGlobally = async (query: string) =>
    idsOf((await t.client.searchGlobal({ tenantIds: [1, SUR], appTenantId: 1, userId: ANA, query, page: 1 })).section);
  const myContent = async () => idsOf((await t.client.listMyContent({ tenantIds: [1, SUR], userId: ANA, perPage: 100, cursor: '' })).section);

  it('when an issue is created, then it is a draft with a new id, a slug from its name and the ISBN as 13 digits', async () => {
    const issue = await create({
      name: 'Café Éclair: A Story',
      type: 'epub',
      authors: { values: ['Marta Lindqvist', 'Ines Varga'] },
      isbn: '0-306-40615-2',
      lang: 'pt-br',
    });
    expect(issue).toMatchObject({
      tenantId: SUR,
      name: 'Café Éclair: A Story',
      slug: 'cafe-eclair-a-story',
      type: 'epub',
      authors: ['Marta Lindqvist', 'Ines Varga'],
      isbn: '9780306406157',
      lang: 'pt-BR',
      state: DRAFT,
      firstPublishedAt: undefined,
      numberOfPages: undefined,
    });
    // Above every seeded id (6001 is the dataset's highest).
    expect(issue.id).toBeGreaterThan(6001);
    expect(new Date(issue.publishedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await t.client.getPublisherIssue({ tenantId: SUR, issueId: issue.id })).toEqual({ issue });
  });

  it('when issues are created in several tenants at once, then every id is unique and the same name gets another slug', async () => {
    const created = await Promise.all(
      [1, SUR, 1, SUR, 1, SUR].map((tenantId, i) => create({ name: `Concurrent ${Math.floor(i / 2)}`, type: 'pdf' }, tenantId)),
    );
    expect(new Set(created.map((issue) => issue.id)).size).toBe(created.length);
    const twin = await create({ name: 'Concurrent 0', type: 'pdf' });
    expect(twin.slug).toMatch(/^concurrent-0-\d+$/);
  });

  it('when the metadata is bad, then each bad field is named and nothing is created', async () => {
    const { total: before } = await t.client.listPublisherIssues({ tenantId: SUR, state: DRAFT, page: 1, perPage: 100 });
    const error = await errorOf(
      create({ name: '  ', type: 'mobi', isbn: '978-3-16-148410-9', lang: 'pt_BR', collections: { values: ['novelas', 'nope'] }, publishedAt: 'yesterday' }),
    );
    expect(error?.code).toBe('INVALID_ARGUMENT');
    expect(Object.keys(error?.details?.fieldErrors ?? {}).sort()).toEqual(['collections', 'isbn', 'lang', 'name', 'published_at', 'type']);
    expect(error?.details?.fieldErrors?.collections?.[0]).toContain('nope');
    expect((await t.client.listPublisherIssues({ tenantId: SUR, state: DRAFT, page: 1, perPage: 100 })).total).toBe(before);
  });

  it('when an external_id is taken in the tenant, then create and update are ALREADY_EXISTS; another tenant may use it', async () => {
    expect((await errorOf(create({ name: 'Copy', type: 'epub', externalId: 'SUR-EPUB-2001' })))?.code).toBe('ALREADY_EXISTS');
    const other = await create({ name: 'Copy', type: 'epub', externalId: 'SUR-EPUB-2001' }, 3);
    expect(other.externalId).toBe('SUR-EPUB-2001');
    const mine = await create({ name: 'Mine', type: 'epub', externalId: 'MINE-1' });
    expect((await errorOf(t.client.updateIssue({ tenantId: SUR, issueId: mine.id, fields: f({ externalId: 'SUR-EPUB-2001' }) })))?.code).toBe('ALREADY_EXISTS');
  });

  it('when an issue is updated, then only the fields sent change and its type cannot', async () => {
    const issue = await create({ name: 'Tide Tables', type: 'pdf', publisher: 'Harbour Office', description: 'Tides.', collections: { values: ['revistas'] } });
    const { issue: updated } = await t.client.updateIssue({
      tenantId: SUR,
      issueId: issue.id,
      fields: f({ name: 'Tide Tables 2027', authors: { values: ['Port Authority'] } }),
    });
    expect(updated).toMatchObject({
      name: 'Tide Tables 2027',
      slug: 'tide-tables-2027',
      authors: ['Port Authority'],
      publisher: 'Harbour Office',
      description: 'Tides.',
      collections: ['revistas'],
    });
    expect(new Date(updated!.updatedAt).getTime()).toBeGreaterThan(new Date(issue.updatedAt).getTime());
    const error = await errorOf(t.client.updateIssue({ tenantId: SUR, issueId: issue.id, fields: f({ type: 'epub' }) }));
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { fieldErrors: { type: [expect.stringContaining('cannot change')] } } });
    // Emptied collections are a change too.
    const { issue: emptied } = await t.client.updateIssue({ tenantId: SUR, issueId: issue.id, fields: f({ collections: { values: [] } }) });
    expect(emptied?.collections).toEqual([]);
  });

  it('when a draft is deleted, then it is gone; a published or withdrawn issue cannot be deleted', async () => {
    const draft = await create({ name: 'Short-lived', type: 'epub' });
    await t.client.deleteIssue({ tenantId: SUR, issueId: draft.id });
    expect((await errorOf(t.client.getPublisherIssue({ tenantId: SUR, issueId: draft.id })))?.code).toBe('NOT_FOUND');

    const published = await create({ name: 'Long-lived', type: 'epub' });
    await t.client.setIssueState({ tenantId: SUR, issueId: published.id, state: PUBLISHED });
    expect((await errorOf(t.client.deleteIssue({ tenantId: SUR, issueId: published.id })))?.code).toBe('FAILED_PRECONDITION');
    await t.client.setIssueState({ tenantId: SUR, issueId: published.id, state: WITHDRAWN });
    expect((await errorOf(t.client.deleteIssue({ tenantId: SUR, issueId: published.id })))?.code).toBe('FAILED_PRECONDITION');
    expect((await errorOf(t.client.deleteIssue({ tenantId: 1, issueId: published.id })))?.code).toBe('NOT_FOUND');
    expect((await errorOf(t.client.deleteIssue({ tenantId: 1, issueId: 1001 })))?.code).toBe('FAILED_PRECONDITION');
  });

  it('when an issue is a draft, then no listing, search, lookup or favorite sees it', async () => {
    const draft = await create({ name: 'Zanzibar Lanterns', type: 'epub', collections: { values: ['novelas'] } });
    expect(await latest()).not.toContain(draft.id);
    expect(await inCollection('novelas')).not.toContain(draft.id);
    expect(await searched('Zanzibar')).not.toContain(draft.id);
    expect(await searchedGlobally('Zanzibar')).not.toContain(draft.id);
    expect(await myContent()).not.toContain(draft.id);
    expect((await errorOf(t.client.getIssue({ tenantId: SUR, issueId: draft.id })))?.code).toBe('NOT_FOUND');
    expect((await t.client.batchGetIssues({ tenantId: SUR, issueIds: [draft.id, 2001] })).issues.map((issue) => issue.id)).toEqual([2001]);
    expect((await errorOf(t.client.getFavorite({ tenantId: SUR, userId: ANA, issueId: draft.id })))?.code).toBe('NOT_FOUND');
  });

  it('when published, then it is in every listing at once; withdrawn, it leaves them while BatchGet and my-content keep it', async () => {
    const issue = await create({
      name: 'Quokka Harbour',
      type: 'epub',
      authors: { values: ['Lene Brandt', 'Ada Okonkwo'] },
      collections: { values: ['novelas'] },
    });
    // An issue is published only once it is sold (the gateway checks): Ana's plan then covers it.
    await t.commerce.seed(
      {
        issues: [
          {
            id: issue.id,
            tenant_id: SUR,
            name: issue.name,
            type: 'epub',
            free: false,
            sale: 'individual',
            licensing: 'standard',
            prices: [{ currency: 'ARS', amount: 3000 }],
          },
        ],
        access: [],
        subscriptions: [],
      },
      { announce: true },
    );
    const published = await t.client.setIssueState({ tenantId: SUR, issueId: issue.id, state: PUBLISHED });
    expect(published).toMatchObject({ changed: true, issue: { state: PUBLISHED, firstPublishedAt: expect.any(String) } });
    expect(await latest()).toContain(issue.id);
    expect(await inCollection('novelas')).toContain(issue.id);
    expect(await searched('Quokka')).toEqual([issue.id]);
    expect(await searched('Brandt')).toEqual([issue.id]);
    expect(await searched('Okonkwo')).toEqual([issue.id]);
    expect(await searchedGlobally('Quokka')).toEqual([issue.id]);
    expect(await myContent()).toContain(issue.id);
    // Idempotent: the first publish is kept.
    const again = await t.client.setIssueState({ tenantId: SUR, issueId: issue.id, state: PUBLISHED });
    expect(again).toMatchObject({ changed: false, issue: { firstPublishedAt: published.issue!.firstPublishedAt } });

    const withdrawn = await t.client.setIssueState({ tenantId: SUR, issueId: issue.id, state: WITHDRAWN });
    expect(withdrawn).toMatchObject({ changed: true, issue: { state: WITHDRAWN, firstPublishedAt: published.issue!.firstPublishedAt } });
    expect(await latest()).not.toContain(issue.id);
    expect(await inCollection('novelas')).not.toContain(issue.id);
    expect(await searched('Quokka')).toEqual([]);
    expect(await searchedGlobally('Quokka')).toEqual([]);
    expect(await myContent()).toContain(issue.id);
    expect((await t.client.batchGetIssues({ tenantId: SUR, issueIds: [issue.id] })).issues.map((found) => found.name)).toEqual(['Quokka Harbour']);
    expect((await t.client.getIssue({ tenantId: SUR, issueId: issue.id })).issue?.name).toBe('Quokka Harbour');
    expect((await t.client.setIssueState({ tenantId: SUR, issueId: issue.id, state: WITHDRAWN })).changed).toBe(false);

    // Published again: listed again, first publish unchanged.
    await t.client.setIssueState({ tenantId: SUR, issueId: issue.id, state: PUBLISHED });
    expect(await searched('Quokka')).toEqual([issue.id]);
    expect((await t.client.getPublisherIssue({ tenantId: SUR, issueId: issue.id })).issue?.firstPublishedAt).toBe(published.issue!.firstPublishedAt);
  });

  it('when a draft is withdrawn or set to draft, then it is refused', async () => {
    const draft = await create({ name: 'Never out', type: 'audio' });
    expect((await errorOf(t.client.setIssueState({ tenantId: SUR, issueId: draft.id, state: WITHDRAWN })))?.code).toBe('FAILED_PRECONDITION');
    expect((await errorOf(t.client.setIssueState({ tenantId: SUR, issueId: draft.id, state: DRAFT })))?.code).toBe('INVALID_ARGUMENT');
  });

  it("when the tenant's issues are listed, then newest first, by state, paged with the total", async () => {
    const a = await create({ name: 'Paged A', type: 'epub' });
    const b = await create({ name: 'Paged B', type: 'epub' });
    await t.client.setIssueState({ tenantId: SUR, issueId: a.id, state: PUBLISHED });
    const drafts = await t.client.listPublisherIssues({ tenantId: SUR, state: DRAFT, page: 1, perPage: 2 });
    expect(drafts.issues[0]!.id).toBe(b.id);
    expect(drafts).toMatchObject({ page: 1, perPage: 2 });
    expect(drafts.issues.every((issue) => issue.state === DRAFT)).toBe(true);
    const published = await t.client.listPublisherIssues({ tenantId: SUR, state: PUBLISHED, page: 1, perPage: 100 });
    // Seeded issues have no state: they are published.
    expect(published.issues.map((issue) => issue.id)).toEqual(expect.arrayContaining([a.id, 2001, 2005]));
    expect(published.issues.map((issue) => issue.id)).not.toContain(b.id);
    const all = await t.client.listPublisherIssues({ tenantId: SUR, state: catalog.IssueState.ISSUE_STATE_UNSPECIFIED, page: 0, perPage: 0 });
    expect(all).toMatchObject({ page: 1, perPage: 20 });
    expect(all.total).toBeGreaterThan(published.total);
    expect((await errorOf(t.client.listPublisherIssues({ tenantId: SUR, state: DRAFT, page: 1, perPage: 101 })))?.details?.fieldErrors).toHaveProperty(
      'per_page',
    );
  });

  it('when reader announces the ingested file, then pages and accessibility come from it and only empty metadata is filled, once', async () => {
    const issue = await create({ name: 'Ingested', type: 'pdf', authors: { values: ['Given Author'] } });
    const accessibility = {
      conforms_to: ['http://www.idpf.org/epub/a11y/accessibility-20170105.html#wcag-aa'],
      access_modes: ['textual', 'visual'],
      access_modes_sufficient: ['textual', 'textual,visual'],
      features: ['tableOfContents'],
      hazards: ['none'],
      summary: 'Tagged PDF.',
      certified_by: null,
    };
    const event = createEvent(CONTENT_INGESTED, {
      tenant_id: SUR,
      issue_id: issue.id,
      content_hash: 'a'.repeat(64),
      type: 'pdf',
      number_of_pages: 3,
      metadata: {
        title: 'Title in the file',
        authors: ['File Author'],
        publisher: 'File Press',
        lang: 'es',
        description: 'From the file.',
        identifiers: ['urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427', 'urn:isbn:978-3-16-148410-0'],
        accessibility,
      },
    });
    // Published again until the consumer's queue is bound; the consumer runs one event id once.
    const recorded = await waitFor(
      async () => {
        await broker.publish(t.config.READER_EVENTS_EXCHANGE, event);
        const { issue: now } = await t.client.getPublisherIssue({ tenantId: SUR, issueId: issue.id });
        return now?.numberOfPages === 3 ? now : undefined;
      },
      { what: 'content.ingested recorded', timeoutMs: 15_000 },
    );
    expect(recorded).toMatchObject({
      name: 'Ingested',
      authors: ['Given Author'],
      publisher: 'File Press',
      lang: 'es',
      description: 'From the file.',
      isbn: '9783161484100',
      accessibility: {
        conformsTo: accessibility.conforms_to,
        accessModes: ['textual', 'visual'],
        accessModesSufficient: ['textual', 'textual,visual'],
        features: ['tableOfContents'],
        hazards: ['none'],
        summary: 'Tagged PDF.',
        certifiedBy: undefined,
      },
    });

    // The same file again (a new event id, as a re-run ingest sends) after the publisher cleared a field: nothing is refilled.
    await t.client.updateIssue({ tenantId: SUR, issueId: issue.id, fields: f({ publisher: '' }) });
    await broker.publish(t.config.READER_EVENTS_EXCHANGE, createEvent(CONTENT_INGESTED, event.payload));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await t.client.getPublisherIssue({ tenantId: SUR, issueId: issue.id })).issue?.publisher).toBe('');

    // Published, its summary carries the accessibility (OPDS renders it).
    await t.client.setIssueState({ tenantId: SUR, issueId: issue.id, state: PUBLISHED });
    const { issues } = await t.client.batchGetIssues({ tenantId: SUR, issueIds: [issue.id, 2001] });
    expect(issues[0]!.accessibility?.accessModes).toEqual(['textual', 'visual']);
    expect(issues[1]!.accessibility).toBeUndefined();
  });

  it('when the content.ingested payload is malformed, then it is dead-lettered and the consumer goes on', async () => {
    const issue = await create({ name: 'After poison', type: 'epub' });
    await broker.publish(t.config.READER_EVENTS_EXCHANGE, createEvent(CONTENT_INGESTED, { tenant_id: 'two', issue_id: issue.id, type: 'epub' }));
    const good = createEvent(CONTENT_INGESTED, {
      tenant_id: SUR,
      issue_id: issue.id,
      content_hash: 'b'.repeat(64),
      type: 'epub',
      number_of_pages: null,
      metadata: { authors: ['Poison Survivor'] },
    });
    await waitFor(
      async () => {
        await broker.publish(t.config.READER_EVENTS_EXCHANGE, good);
        const { issue: now } = await t.client.getPublisherIssue({ tenantId: SUR, issueId: issue.id });
        return now?.authors[0] === 'Poison Survivor' || undefined;
      },
      { what: 'the good event after the poison one', timeoutMs: 15_000 },
    );
  });

  it('when an issue is published, then issues.changed is announced and another replica lists it without a periodic catch-up', async () => {
    // The second replica shares the database and the exchange; its periodic catch-up is off (the harness's 0).
    const replica = await startCatalog(
      { ...t.config, GRPC_PORT: 0, GRPC_UNIX_SOCKET: undefined },
      createLogger({ service: 'catalog-replica', level: 'silent' }),
    );
    const client = createPromiseClient(catalog.CatalogServiceClient, `127.0.0.1:${replica.grpcPort}`, { defaultDeadlineMs: 10_000 });
    try {
      await waitFor(() => replica.invalidationsLive() || undefined, { what: "the replica's subscriptions" });
      const issue = await create({ name: 'Xylophone Bay', type: 'epub' });
      await t.client.setIssueState({ tenantId: SUR, issueId: issue.id, state: PUBLISHED });
      const heard = await announced.waitFor<{ issue_ids: number[] }>(ISSUES_CHANGED, (event) => event.payload.issue_ids.includes(issue.id));
      expect(heard.payload).toMatchObject({ tenant_id: SUR });
      const started = Date.now();
      await waitFor(
        async () => {
          const found = await client.searchStore({
            tenantId: SUR,
            userId: ANA,
            query: 'Xylophone',
            page: 1,
            scope: catalog.Scope.SCOPE_OWNED,
            filesOnly: false,
          });
          return idsOf(found.section).includes(issue.id) || undefined;
        },
        { what: 'the replica listing the published issue', timeoutMs: 10_000 },
      );
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      client.close();
      await replica.stop();
    }
  });
});
