// STAND-IN for catalog, which is being built concurrently by another engineer
// (its service still answers UNIMPLEMENTED). A real gRPC server implementing
// only what reader (and commerce's checkout) call, from the demo dataset:
// GetIssue (NOT_FOUND outside the tenant) and GetFavorite (the `favorites` set
// below, as `<user>:<issue>`). Replace it with the real catalog once it
// implements these RPCs. Commerce is the real service (see stack.ts).
import { DomainError } from '@folio/errors';
import { startGrpcServer, unimplementedHandlers, type GrpcServer, type ServiceHandlers } from '@folio/grpc';
import { createLogger } from '@folio/logger';
import { catalog } from '@folio/proto';

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
  }[];
}

export interface StandIns {
  catalogAddress: string;
  /** `<user_id>:<issue_id>` pairs GetFavorite answers true for. */
  favorites: Set<string>;
  stop(): Promise<void>;
}

export async function startCatalogStandIn(dataset: Dataset): Promise<StandIns> {
  const logger = createLogger({ service: 'stand-in', level: 'silent' });
  const issueIn = (tenantId: number, issueId: number) => dataset.issues.find((issue) => issue.id === issueId && issue.tenant_id === tenantId);
  const favorites = new Set<string>();

  type CatalogHandlers = ServiceHandlers<typeof catalog.CatalogServiceService>;
  const getIssue: CatalogHandlers['getIssue'] = async ({ tenantId, issueId }) => {
    const issue = issueIn(tenantId, issueId);
    if (!issue) throw new DomainError('NOT_FOUND', 'Issue not found.');
    return {
      issue: {
        id: issue.id,
        tenantId: issue.tenant_id,
        name: issue.name,
        slug: issue.slug,
        coverUrl: `http://127.0.0.1:8080/media/covers/${issue.id}.svg`,
        publishedAt: issue.published_at,
        type: issue.type,
        description: issue.description,
        externalId: issue.external_id,
        numberOfPages: issue.number_of_pages ?? undefined,
        lang: issue.lang,
        author: issue.author,
        publisher: issue.publisher,
        bisac: issue.bisac,
        commerce: undefined,
      },
      tags: issue.tags,
      collections: [],
    };
  };
  const catalogHandlers: CatalogHandlers = {
    ...unimplementedHandlers(catalog.CatalogServiceService, 'the catalog service'),
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
    stop: async () => {
      await Promise.all(servers.map((server) => server.shutdown(1_000)));
    },
  };
}
