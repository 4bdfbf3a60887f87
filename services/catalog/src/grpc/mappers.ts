// Domain views to the wire messages of svc.catalog.v1.
import { catalog } from '@folio/proto';
import type { IssueRecord } from '../domain/catalog-view.js';
import type { CursorMetaView } from '../domain/my-content.js';
import { fillTemplate, formatDateTime, type ListedIssue, type PageMetaView, type SectionView } from '../domain/presentation.js';
import type { Scope } from '../domain/storefront.js';

export function scopeOf(scope: catalog.Scope): Scope {
  return scope === catalog.Scope.SCOPE_ALL ? 'all' : 'owned';
}

export class Presenter {
  constructor(private readonly coverUrlTemplate: string) {}

  coverUrl(issue: IssueRecord): string {
    return issue.coverUrl ?? fillTemplate(this.coverUrlTemplate, { issue_id: issue.id, tenant_id: issue.tenantId });
  }

  summary(listed: ListedIssue): catalog.IssueSummary {
    const { issue, commerce } = listed;
    return {
      id: issue.id,
      tenantId: issue.tenantId,
      name: issue.name,
      slug: issue.slug,
      coverUrl: this.coverUrl(issue),
      publishedAt: formatDateTime(new Date(issue.publishedAtMs)),
      type: issue.type,
      description: issue.description,
      externalId: issue.externalId,
      numberOfPages: issue.numberOfPages ?? undefined,
      lang: issue.lang,
      author: issue.author,
      publisher: issue.publisher,
      bisac: issue.bisac,
      commerce: commerce
        ? {
            canBeRead: commerce.canBeRead,
            canBeBought: commerce.canBeBought,
            accessReason: commerce.accessReason ?? undefined,
            free: commerce.free,
            prices: commerce.prices.map((price) => ({
              currency: price.currency,
              amount: price.amount,
              discount: price.discount
                ? { amount: price.discount.amount, percentage: price.discount.percentage ?? undefined, endsAt: price.discount.endsAt ?? undefined }
                : undefined,
            })),
            purchaseLink: commerce.purchaseLink ?? undefined,
            status: commerce.status,
          }
        : undefined,
    };
  }

  section(section: SectionView): catalog.Section {
    return {
      filterName: section.filterName,
      filterValue: section.filterValue,
      filterParams: section.filterParams,
      title: section.title,
      data: section.data.map((listed) => this.summary(listed)),
      meta: section.meta ? pageMetaOf(section.meta) : undefined,
    };
  }
}

export function pageMetaOf(meta: PageMetaView): catalog.PageMeta {
  return {
    currentPage: meta.currentPage,
    from: meta.from ?? undefined,
    to: meta.to ?? undefined,
    lastPage: meta.lastPage,
    perPage: meta.perPage,
    total: meta.total,
  };
}

export function cursorMetaOf(meta: CursorMetaView): catalog.CursorMeta {
  return { perPage: meta.perPage, nextCursor: meta.nextCursor ?? undefined, prevCursor: meta.prevCursor ?? undefined };
}
