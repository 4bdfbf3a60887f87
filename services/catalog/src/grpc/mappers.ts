// Domain views to the wire messages of svc.catalog.v1.
import { catalog } from '@folio/proto';
import type { IssueRecord } from '../domain/catalog-view.js';
import type { CursorMetaView } from '../domain/my-content.js';
import { fillTemplate, type ListedIssue, type PageMetaView, type SectionKind, type SectionView } from '../domain/listing.js';
import type { Scope } from '../domain/storefront.js';
import { stateOf, type IssueState, type StoredAccessibility, type StoredIssue } from '../domain/repositories.js';
import type { IssueFieldsInput } from '../domain/publishing.js';

const KIND_TO_WIRE: Record<SectionKind, catalog.SectionKind> = {
  continue_reading: catalog.SectionKind.SECTION_KIND_CONTINUE_READING,
  latest_issues: catalog.SectionKind.SECTION_KIND_LATEST_ISSUES,
  collection: catalog.SectionKind.SECTION_KIND_COLLECTION,
  search: catalog.SectionKind.SECTION_KIND_SEARCH,
  my_content: catalog.SectionKind.SECTION_KIND_MY_CONTENT,
};

const STATE_TO_WIRE: Record<IssueState, catalog.IssueState> = {
  draft: catalog.IssueState.ISSUE_STATE_DRAFT,
  published: catalog.IssueState.ISSUE_STATE_PUBLISHED,
  withdrawn: catalog.IssueState.ISSUE_STATE_WITHDRAWN,
};

/** A wire state; undefined for UNSPECIFIED (and values this code does not know). */
export function stateFromWire(state: catalog.IssueState): IssueState | undefined {
  return (Object.keys(STATE_TO_WIRE) as IssueState[]).find((name) => STATE_TO_WIRE[name] === state);
}

export function accessibilityOf(a11y: StoredAccessibility | null | undefined): catalog.Accessibility | undefined {
  if (!a11y) return undefined;
  return {
    conformsTo: [...a11y.conforms_to],
    accessModes: [...a11y.access_modes],
    accessModesSufficient: [...a11y.access_modes_sufficient],
    features: [...a11y.features],
    hazards: [...a11y.hazards],
    summary: a11y.summary ?? undefined,
    certifiedBy: a11y.certified_by ?? undefined,
  };
}

const iso = (date: Date | null | undefined) => (date ? new Date(date).toISOString() : undefined);

/** An issue as its publisher sees it. */
export function publisherIssueOf(issue: StoredIssue): catalog.PublisherIssue {
  return {
    id: issue._id,
    tenantId: issue.tenant_id,
    name: issue.name,
    slug: issue.slug,
    type: issue.type,
    authors: issue.authors ? [...issue.authors] : issue.author ? [issue.author] : [],
    publisher: issue.publisher ?? '',
    lang: issue.lang ?? '',
    description: issue.description ?? '',
    bisac: issue.bisac ?? '',
    externalId: issue.external_id ?? '',
    isbn: issue.isbn ?? undefined,
    publishedAt: iso(issue.published_at)!,
    collections: [...(issue.collections ?? [])],
    state: STATE_TO_WIRE[stateOf(issue)],
    firstPublishedAt: iso(issue.first_published_at),
    // Seeded issues predate the field: their last write stands in.
    createdAt: iso(issue.created_at ?? issue.updated_at)!,
    updatedAt: iso(issue.updated_at)!,
    numberOfPages: issue.number_of_pages ?? undefined,
    accessibility: accessibilityOf(issue.accessibility),
  };
}

/** The wire's optional fields as the use case takes them (unset stays undefined). */
export function issueFieldsOf(fields: catalog.IssueFields | undefined): IssueFieldsInput {
  if (!fields) return {};
  return {
    name: fields.name,
    type: fields.type,
    authors: fields.authors ? [...fields.authors.values] : undefined,
    publisher: fields.publisher,
    lang: fields.lang,
    description: fields.description,
    bisac: fields.bisac,
    externalId: fields.externalId,
    isbn: fields.isbn,
    publishedAt: fields.publishedAt,
    collections: fields.collections ? [...fields.collections.values] : undefined,
  };
}

export function scopeOf(scope: catalog.Scope): Scope {
  return scope === catalog.Scope.SCOPE_ALL ? 'all' : 'owned';
}

export class Presenter {
  constructor(private readonly coverUrlTemplate: string) {}

  coverUrl(issue: IssueRecord): string {
    return issue.coverUrl ?? fillTemplate(this.coverUrlTemplate, { issue_id: issue.id, tenant_id: issue.tenantId });
  }

  /** The facts of an item; the gateway renders them. */
  summary(listed: ListedIssue): catalog.IssueSummary {
    const { issue, commerce } = listed;
    return {
      id: issue.id,
      tenantId: issue.tenantId,
      name: issue.name,
      slug: issue.slug,
      coverUrl: this.coverUrl(issue),
      publishedAtMs: issue.publishedAtMs,
      type: issue.type,
      description: issue.description,
      externalId: issue.externalId,
      numberOfPages: issue.numberOfPages ?? undefined,
      lang: issue.lang,
      author: issue.author,
      publisher: issue.publisher,
      bisac: issue.bisac,
      accessibility: accessibilityOf(issue.accessibility),
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
          }
        : undefined,
    };
  }

  /** The facts of a section: its kind, its whole filter and a collection's titles; the gateway titles it and chooses the filter keys. */
  section(section: SectionView): catalog.Section {
    return {
      data: section.data.map((listed) => this.summary(listed)),
      meta: section.meta ? pageMetaOf(section.meta) : undefined,
      kind: KIND_TO_WIRE[section.kind],
      filter: { name: section.filter.name, value: section.filter.value },
      collectionTitles: { ...section.collectionTitles },
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
