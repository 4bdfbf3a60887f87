// Peers over gRPC: identity (tenant settings, cached briefly, and served as
// they last were while identity does not answer: ReferenceCache's lastKnown,
// as in catalog, commerce and the gateway), catalog (issue
// metadata, cached briefly; favorites, asked every time: a flag the user just
// set must show at once) and commerce (the access decision). Every call carries
// the deadline and the caller's request context (createPromiseClient).
import { DomainError } from '@folio/errors';
import { createPromiseClient, type PromiseClient } from '@folio/grpc';
import type { Logger } from '@folio/logger';
import { ReferenceCache } from '@folio/messaging';
import { catalog, commerce, identity } from '@folio/proto';
import type { AccessInfo, IssueInfo, Peers, TenantInfo } from '../domain/ports.js';
import { formatDateTime, parseDateTime } from '../domain/time.js';

export interface PeerAddresses {
  identity: string;
  catalog: string;
  commerce: string;
  deadlineMs: number;
  tenantCacheTtlMs: number;
  /**
   * How long an issue's metadata is reused. Catalog's own replicas see an
   * edit up to one index refresh (10 s) late, so the same bound here adds no
   * new staleness, and the reader settings skip one of their catalog calls.
   */
  issueCacheTtlMs: number;
}

const MAX_CACHED_ISSUES = 10_000;
const MAX_CACHED_TENANTS = 2_000;

const REASONS: Record<number, AccessInfo['reason']> = {
  [commerce.AccessReason.ACCESS_REASON_FREE]: 'free',
  [commerce.AccessReason.ACCESS_REASON_PURCHASED]: 'purchased',
  [commerce.AccessReason.ACCESS_REASON_SUBSCRIPTION]: 'subscription',
};

export class GrpcPeers implements Peers {
  private readonly identity: PromiseClient<identity.IdentityServiceClient>;
  private readonly catalog: PromiseClient<catalog.CatalogServiceClient>;
  private readonly commerce: PromiseClient<commerce.CommerceServiceClient>;
  private readonly tenants: ReferenceCache<number, TenantInfo>;
  private readonly issues: ReferenceCache<string, IssueInfo>;

  constructor(
    addresses: PeerAddresses,
    private readonly logger: Logger,
  ) {
    const options = { defaultDeadlineMs: addresses.deadlineMs };
    this.identity = createPromiseClient(identity.IdentityServiceClient, addresses.identity, options);
    this.catalog = createPromiseClient(catalog.CatalogServiceClient, addresses.catalog, options);
    this.commerce = createPromiseClient(commerce.CommerceServiceClient, addresses.commerce, options);
    this.tenants = new ReferenceCache({
      name: 'reader-tenants',
      maxEntries: MAX_CACHED_TENANTS,
      ttlMs: addresses.tenantCacheTtlMs,
      lastKnown: {
        isOutage: (error) => !(error instanceof DomainError && error.code === 'NOT_FOUND'),
        onFallback: (error, tenantId) => logger.warn({ err: error, tenant_id: tenantId }, 'identity did not answer; using the tenant as it last was'),
      },
    });
    this.issues = new ReferenceCache({ name: 'reader-issues', maxEntries: MAX_CACHED_ISSUES, ttlMs: addresses.issueCacheTtlMs });
  }

  tenant(tenantId: number): Promise<TenantInfo> {
    // Concurrent misses share one call; a failure is not kept.
    return this.tenants.get(tenantId, () => this.fetchTenant(tenantId));
  }

  private async fetchTenant(tenantId: number): Promise<TenantInfo> {
    const { tenant } = await this.identity.getTenant({ tenantId });
    if (!tenant) throw new DomainError('NOT_FOUND', 'Tenant not found.');
    return tenantInfoOf(tenant);
  }

  issue(tenantId: number, issueId: number): Promise<IssueInfo> {
    // A failure (not found, catalog away) is not kept: get() stores only values.
    return this.issues.get(`${tenantId}:${issueId}`, () => this.fetchIssue(tenantId, issueId));
  }

  private async fetchIssue(tenantId: number, issueId: number): Promise<IssueInfo> {
    const { issue, tags } = await this.catalog.getIssue({ tenantId, issueId });
    if (!issue) throw new DomainError('NOT_FOUND', 'Issue not found.');
    return {
      id: issue.id,
      tenantId: issue.tenantId,
      name: issue.name,
      slug: issue.slug,
      coverUrl: issue.coverUrl,
      publishedAt: formatDateTime(new Date(issue.publishedAtMs)),
      type: issue.type,
      description: issue.description,
      externalId: issue.externalId,
      numberOfPages: issue.numberOfPages ?? null,
      lang: issue.lang,
      author: issue.author,
      publisher: issue.publisher,
      tags: { author: tags?.author ?? [], keyword: tags?.keyword ?? [], edition: tags?.edition ?? [] },
    };
  }

  async isFavorite(tenantId: number, userId: number, issueId: number): Promise<boolean> {
    try {
      return (await this.catalog.getFavorite({ tenantId, userId, issueId })).isFavorite;
    } catch (error) {
      this.logger.warn({ err: error, issueId }, 'favorite state unavailable');
      return false;
    }
  }

  async access(tenantId: number, userId: number, issueId: number): Promise<AccessInfo> {
    const { access } = await this.commerce.getAccess({ tenantId, userId, issueId });
    const reason = access ? (REASONS[access.reason] ?? null) : null;
    return {
      canRead: reason !== null,
      reason,
      expiresAt: parseDateTime(access?.expiresAt),
      free: access?.free ?? false,
      prices: (access?.prices ?? []).map((price) => ({
        currency: price.currency,
        amount: price.amount,
        discount: price.discount ? { amount: price.discount.amount } : null,
      })),
    };
  }

  close(): void {
    this.identity.close();
    this.catalog.close();
    this.commerce.close();
  }
}

function tenantInfoOf(tenant: identity.Tenant): TenantInfo {
  const reader = tenant.reader;
  return {
    id: tenant.id,
    name: tenant.name,
    domain: tenant.domain,
    lang: tenant.lang,
    previewPercentage: tenant.previewPercentage,
    features: {
      tts: tenant.features?.tts ?? false,
      search: tenant.features?.search ?? false,
      concurrency_limit: tenant.features?.concurrencyLimit ?? false,
      chinese_voice: tenant.features?.chineseVoice ?? false,
    },
    reader: {
      pdfLayout: reader?.pdfLayout ?? null,
      tts: reader?.tts ?? false,
      theme: reader?.theme ?? null,
      extras: reader?.extras ?? [],
      customStyles: reader?.styles ? { ...reader.styles.values } : null,
    },
    exitUrl: tenant.exitUrl,
    twitterUser: tenant.twitterUser,
  };
}
