// A STAND-IN for catalog in reader's component tests: the real catalog needs
// its own database, index and peers (commerce, identity, reader itself), more
// than these tests are about. A real gRPC server answering the two RPCs reader
// (and commerce's checkout) call, from the demo dataset, the way catalog does:
// GetIssue (NOT_FOUND outside the tenant; the cover URL by catalog's rule, the
// dataset's `cover_url` or its COVER_URL_TEMPLATE) and GetFavorite (the
// `favorites` set below, as `<user>:<issue>`); every other RPC answers
// UNIMPLEMENTED, so a new call from reader shows up as a failing test.
// Commerce and identity are the real services (see stack.ts).
import { DomainError } from '@folio/errors';
import { startGrpcServer, type GrpcServer, type ServiceHandlers } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { catalog } from '@folio/proto';
import { unimplementedHandlers } from '@folio/testing';

/** catalog's COVER_URL_TEMPLATE default (services/catalog/src/config.ts). */
const CATALOG_COVER_URL_TEMPLATE = 'http://127.0.0.1:8080/media/covers/{issue_id}.svg';

export interface Dataset {
  issues: {
    id: number;
    tenant_id: number;
    name: string;
    slug: string;
    type: string;
    lang: string;
    author: string;
    publisher: string;
    bisac: string;
    external_id: string;
    published_at: string;
    number_of_pages: number | null;
    description: string;
    tags: { author: string[]; keyword: string[]; edition: string[] };
    cover_url?: string | null;
  }[];
}

export interface StandIns {
  catalogAddress: string;
  /** `<user_id>:<issue_id>` pairs GetFavorite answers true for. */
  favorites: Set<string>;
  /** How many GetIssue calls reached the stand-in (what reader's issue cache saves). */
  getIssueCalls(): number;
  stop(): Promise<void>;
}

export async function startCatalogStandIn(dataset: Dataset, options: { coverUrlTemplate?: string } = {}): Promise<StandIns> {
  const coverUrlTemplate = options.coverUrlTemplate ?? CATALOG_COVER_URL_TEMPLATE;
  const logger = createLogger({ service: 'stand-in', level: 'silent' });
  const issueIn = (tenantId: number, issueId: number) => dataset.issues.find((issue) => issue.id === issueId && issue.tenant_id === tenantId);
  const favorites = new Set<string>();
  let getIssueCalls = 0;

  type CatalogHandlers = ServiceHandlers<typeof catalog.CatalogServiceService>;
  const getIssue: CatalogHandlers['getIssue'] = async ({ tenantId, issueId }) => {
    getIssueCalls++;
    const issue = issueIn(tenantId, issueId);
    if (!issue) throw new DomainError('NOT_FOUND', 'Issue not found.');
    return {
      issue: {
        id: issue.id,
        tenantId: issue.tenant_id,
        name: issue.name,
        slug: issue.slug,
        coverUrl: issue.cover_url ?? coverUrlTemplate.replace('{issue_id}', String(issue.id)).replace('{tenant_id}', String(issue.tenant_id)),
        publishedAt: issue.published_at,
        publishedAtMs: Date.parse(`${issue.published_at.replace(' ', 'T')}Z`),
        type: issue.type,
        description: issue.description,
        externalId: issue.external_id,
        numberOfPages: issue.number_of_pages ?? undefined,
        lang: issue.lang,
        author: issue.author,
        publisher: issue.publisher,
        bisac: issue.bisac,
        commerce: undefined,
        accessibility: undefined,
      },
      tags: issue.tags,
      collections: [],
    };
  };
  const catalogHandlers: CatalogHandlers = {
    ...unimplementedHandlers(catalog.CatalogServiceService, 'the real catalog service (not in this stand-in)'),
    getIssue,
    getFavorite: async ({ userId, issueId }) => ({ isFavorite: favorites.has(`${userId}:${issueId}`) }),
  };

  const servers: GrpcServer[] = [];
  const start = async (name: string, definition: object, handlers: object) => {
    const server = await startGrpcServer({ logger, port: 0, host: '127.0.0.1', services: [{ name, definition, handlers: handlers as never }] });
    servers.push(server);
    return `127.0.0.1:${server.port}`;
  };
  return {
    catalogAddress: await start('svc.catalog.v1.CatalogService', catalog.CatalogServiceService, catalogHandlers),
    favorites,
    getIssueCalls: () => getIssueCalls,
    stop: async () => {
      await Promise.all(servers.map((server) => server.shutdown(1_000)));
    },
  };
}
