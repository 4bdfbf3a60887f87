// gRPC entry point of catalog: check the ids, call a use case, encode the
// reply. No rules live here.
import { invalidArgument } from '@folio/errors';
import type { ServiceHandlers } from '@folio/grpc';
import { catalog } from '@folio/proto';
import type { ContinueReading } from '../domain/continue-reading.js';
import type { Favorites } from '../domain/favorites.js';
import { MAX_BATCH, type IssueLookup } from '../domain/issues.js';
import type { Library } from '../domain/library.js';
import type { MyContent } from '../domain/my-content.js';
import type { Publishing } from '../domain/publishing.js';
import type { Search } from '../domain/search.js';
import { cursorMetaOf, issueFieldsOf, pageMetaOf, publisherIssueOf, scopeOf, stateFromWire, type Presenter } from './mappers.js';

export interface UseCases {
  issues: IssueLookup;
  library: Library;
  favorites: Favorites;
  search: Search;
  myContent: MyContent;
  continueReading: ContinueReading;
  publishing: Publishing;
  presenter: Presenter;
}

/** Ids come from the gateway (path, headers, verified JWT): a missing one is a caller bug, refused plainly. */
function id(value: number, field: string): number {
  if (!Number.isInteger(value) || value <= 0) throw invalidArgument(`${field} must be a positive integer.`, { [field]: ['Must be a positive integer.'] });
  return value;
}

/** The user of a listing; 0 (a visitor nobody signed in as) is allowed with scope all (anonymous OPDS catalogs). */
function userOf(value: number, scope: catalog.Scope): number {
  return value === 0 && scope === catalog.Scope.SCOPE_ALL ? 0 : id(value, 'user_id');
}

function ids(values: readonly number[], field: string): number[] {
  return values.map((value) => id(value, field));
}

export function catalogHandlers(app: UseCases): ServiceHandlers<typeof catalog.CatalogServiceService> {
  const { presenter } = app;
  return {
    async getIssue(request) {
      const issue = await app.issues.get(id(request.tenantId, 'tenant_id'), id(request.issueId, 'issue_id'));
      return {
        issue: presenter.summary({ issue }),
        tags: { author: [...issue.tags.author], keyword: [...issue.tags.keyword], edition: [...issue.tags.edition] },
        collections: [...issue.collections],
      };
    },

    async batchGetIssues(request) {
      if (request.issueIds.length > MAX_BATCH) throw invalidArgument(`At most ${MAX_BATCH} issues per call.`, { issue_ids: [`At most ${MAX_BATCH}.`] });
      const issues = app.issues.batch(id(request.tenantId, 'tenant_id'), request.issueIds);
      return { issues: issues.map((issue) => presenter.summary({ issue })) };
    },

    async listLibrarySections(request) {
      const result = await app.library.sections({
        tenantId: id(request.tenantId, 'tenant_id'),
        userId: userOf(request.userId, request.scope),
        page: request.page,
        perPage: request.perPage,
        scope: scopeOf(request.scope),
      });
      return {
        sections: result.sections.map((section) => presenter.section(section)),
        meta: pageMetaOf(result.meta),
      };
    },

    async filterLibrary(request) {
      const section = await app.library.filter({
        tenantId: id(request.tenantId, 'tenant_id'),
        userId: userOf(request.userId, request.scope),
        filterName: request.filterName,
        filterValue: request.filterValue,
        page: request.page,
        perPage: request.perPage,
        scope: scopeOf(request.scope),
        filesOnly: request.filesOnly,
      });
      return { section: presenter.section(section) };
    },

    async getFavorite(request) {
      const key = { tenant_id: id(request.tenantId, 'tenant_id'), user_id: id(request.userId, 'user_id'), issue_id: id(request.issueId, 'issue_id') };
      return { isFavorite: await app.favorites.isFavorite(key) };
    },

    async toggleFavorite(request) {
      const key = { tenant_id: id(request.tenantId, 'tenant_id'), user_id: id(request.userId, 'user_id'), issue_id: id(request.issueId, 'issue_id') };
      return { isFavorite: await app.favorites.toggle(key) };
    },

    async searchStore(request) {
      const result = await app.search.store({
        tenantId: id(request.tenantId, 'tenant_id'),
        userId: userOf(request.userId, request.scope),
        query: request.query,
        page: request.page,
        scope: scopeOf(request.scope),
        filesOnly: request.filesOnly,
      });
      return result.disabled ? { searchDisabled: true, section: undefined } : { searchDisabled: false, section: presenter.section(result.section) };
    },

    async searchGlobal(request) {
      const result = await app.search.global({
        tenantIds: ids(request.tenantIds, 'tenant_ids'),
        appTenantId: request.appTenantId,
        userId: id(request.userId, 'user_id'),
        query: request.query,
        page: request.page,
      });
      return result.disabled ? { searchDisabled: true, section: undefined } : { searchDisabled: false, section: presenter.section(result.section) };
    },

    async listMyContent(request) {
      const result = await app.myContent.list({
        tenantIds: ids(request.tenantIds, 'tenant_ids'),
        userId: id(request.userId, 'user_id'),
        perPage: request.perPage,
        cursor: request.cursor,
      });
      return { section: presenter.section(result.section), meta: cursorMetaOf(result.meta) };
    },

    async createIssue(request) {
      return { issue: publisherIssueOf(await app.publishing.create(id(request.tenantId, 'tenant_id'), issueFieldsOf(request.fields))) };
    },

    async getPublisherIssue(request) {
      return { issue: publisherIssueOf(await app.publishing.get(id(request.tenantId, 'tenant_id'), id(request.issueId, 'issue_id'))) };
    },

    async listPublisherIssues(request) {
      const state = stateFromWire(request.state);
      if (state === undefined && request.state !== catalog.IssueState.ISSUE_STATE_UNSPECIFIED) {
        throw invalidArgument('Unknown state.', { state: ['Must be draft, published or withdrawn.'] });
      }
      const listed = await app.publishing.list(id(request.tenantId, 'tenant_id'), { state, page: request.page, perPage: request.perPage });
      return { issues: listed.issues.map(publisherIssueOf), total: listed.total, page: listed.page, perPage: listed.perPage };
    },

    async updateIssue(request) {
      const issue = await app.publishing.update(id(request.tenantId, 'tenant_id'), id(request.issueId, 'issue_id'), issueFieldsOf(request.fields));
      return { issue: publisherIssueOf(issue) };
    },

    async deleteIssue(request) {
      await app.publishing.delete(id(request.tenantId, 'tenant_id'), id(request.issueId, 'issue_id'));
      return {};
    },

    async setIssueState(request) {
      const state = stateFromWire(request.state);
      if (state !== 'published' && state !== 'withdrawn')
        throw invalidArgument('The state must be published or withdrawn.', { state: ['Must be published or withdrawn.'] });
      const { issue, changed } = await app.publishing.setState(id(request.tenantId, 'tenant_id'), id(request.issueId, 'issue_id'), state);
      return { issue: publisherIssueOf(issue), changed };
    },

    async listContinueReading(request) {
      const section = await app.continueReading.list({
        tenantIds: ids(request.tenantIds, 'tenant_ids'),
        userId: id(request.userId, 'user_id'),
        page: request.page,
        perPage: request.perPage,
      });
      return { section: presenter.section(section) };
    },
  };
}
