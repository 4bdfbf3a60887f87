// The publisher API's side of catalog: an issue's life, draft -> published
// <-> withdrawn, and its metadata. Only published issues are listed (the
// view lists nothing else, catalog-view.ts); a withdrawn one stays readable by
// id for those who have it; a draft is seen by nothing but these use cases.
//
// Rules:
//   - a new issue gets an id unique across tenants (a counter, raised above
//     every stored id), a slug from its name unique in the tenant, state draft;
//   - metadata is checked field by field (INVALID_ARGUMENT with field errors
//     named like the API's body): name required, type epub|pdf|audio and fixed
//     once created, an ISBN-10 or -13 with a valid checksum (stored as 13
//     digits), lang a BCP 47 tag, collections among the tenant's, an
//     external id unique in the tenant (ALREADY_EXISTS);
//   - an update changes the fields that are set; a draft never published
//     follows a new name with its slug, a published one keeps its links;
//   - only a draft never published can be deleted (FAILED_PRECONDITION);
//   - publish and withdraw are idempotent; the first publish is remembered.
//
// Uniqueness of slugs and external ids is checked before the write, not by a
// unique index: the seeded and imported catalogs carry empty external ids by
// the thousand, and FerretDB has no partial indexes. Two publishers creating
// the same external id in the same instant could both pass; the publisher API
// is a handful of writes a minute per store, and the check holds otherwise.
//
// Every write goes through CatalogIngest: to MongoDB, into this replica's
// view at once, announced to the other replicas (see app.ts).
import { DomainError, failedPrecondition, invalidArgument, notFound } from '@folio/errors';
import type { CatalogView } from './catalog-view.js';
import type { CatalogIngest } from './ingest.js';
import { pageParam, perPageParam } from './paging.js';
import { stateOf, type IssueInput, type IssueState, type PublisherIssueRepository, type StoredIssue } from './repositories.js';

export const PUBLISHER_TYPES = ['epub', 'pdf', 'audio'] as const;
export const PUBLISHER_DEFAULT_PER_PAGE = 20;
/** Attempts of a conditional write before giving up under contention. */
const WRITE_ATTEMPTS = 5;
const MAX_SLUG = 80;

/** The editable metadata; in an update only what is set (not undefined) changes. */
export interface IssueFieldsInput {
  name?: string;
  type?: string;
  authors?: string[];
  publisher?: string;
  lang?: string;
  description?: string;
  bisac?: string;
  externalId?: string;
  isbn?: string;
  publishedAt?: string;
  collections?: string[];
}

type FieldErrors = Record<string, string[]>;

export class Publishing {
  constructor(
    private readonly deps: {
      issues: PublisherIssueRepository;
      ingest: CatalogIngest;
      view: CatalogView;
      now?: () => Date;
    },
  ) {}

  async create(tenantId: number, fields: IssueFieldsInput): Promise<StoredIssue> {
    const now = this.now();
    const errors: FieldErrors = {};
    const name = clean(fields.name);
    if (!name) errors.name = ['The name field is required.'];
    const type = fields.type?.trim() ?? '';
    if (!(PUBLISHER_TYPES as readonly string[]).includes(type)) errors.type = ['The type must be one of epub, pdf, audio.'];
    const values = this.checkValues(tenantId, fields, errors);
    if (Object.keys(errors).length > 0) throw invalidArgument('The issue has invalid fields.', errors);
    await this.assertExternalIdFree(tenantId, values.externalId ?? '');

    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const id = await this.deps.issues.nextId();
      const authors = values.authors ?? [];
      const input: IssueInput = {
        _id: id,
        tenant_id: tenantId,
        name,
        slug: await this.freeSlug(tenantId, name, id),
        type,
        lang: values.lang ?? '',
        author: authors[0] ?? '',
        authors,
        publisher: values.publisher ?? '',
        bisac: values.bisac ?? '',
        external_id: values.externalId ?? '',
        isbn: values.isbn ?? null,
        published_at: values.publishedAt ?? now,
        number_of_pages: null,
        description: values.description ?? '',
        tags: { author: authors, keyword: [], edition: [] },
        collections: values.collections ?? [],
        cover_url: null,
        state: 'draft',
        first_published_at: null,
        created_at: now,
        accessibility: null,
        content_hash: null,
      };
      const written = await this.deps.ingest.insertIssue(input);
      if (written) return written;
      // The id was taken by a writer that does not draw from the counter (an import): draw again.
    }
    throw new DomainError('ABORTED', 'Could not allocate an issue id; try again.');
  }

  async get(tenantId: number, issueId: number): Promise<StoredIssue> {
    const issue = await this.deps.issues.findAnyInTenant(tenantId, issueId);
    if (!issue) throw notFound('Issue not found.');
    return issue;
  }

  async list(tenantId: number, request: { state?: IssueState; page: number; perPage: number }) {
    const page = pageParam(request.page);
    const perPage = perPageParam(request.perPage, PUBLISHER_DEFAULT_PER_PAGE);
    const { issues, total } = await this.deps.issues.listInTenant(tenantId, { state: request.state, skip: (page - 1) * perPage, limit: perPage });
    return { issues, total, page, perPage };
  }

  async update(tenantId: number, issueId: number, fields: IssueFieldsInput): Promise<StoredIssue> {
    return this.change(tenantId, issueId, async (issue) => {
      const errors: FieldErrors = {};
      let name = issue.name;
      if (fields.name !== undefined) {
        name = clean(fields.name);
        if (!name) errors.name = ['The name field is required.'];
      }
      if (fields.type !== undefined && fields.type.trim() !== issue.type) errors.type = [`The type cannot change once created (it is ${issue.type}).`];
      const values = this.checkValues(tenantId, fields, errors);
      if (Object.keys(errors).length > 0) throw invalidArgument('The issue has invalid fields.', errors);
      if (values.externalId !== undefined && values.externalId !== issue.external_id) await this.assertExternalIdFree(tenantId, values.externalId, issue._id);
      const authors = values.authors ?? issue.authors ?? (issue.author ? [issue.author] : []);
      // Links to a published issue stay; a draft never published follows its new name.
      const neverPublished = stateOf(issue) === 'draft' && !issue.first_published_at;
      const slug = neverPublished && name !== issue.name ? await this.freeSlug(tenantId, name, issue._id) : issue.slug;
      return {
        ...inputOf(issue),
        name,
        slug,
        authors,
        author: authors[0] ?? '',
        tags: values.authors ? { ...issue.tags, author: authors } : issue.tags,
        publisher: values.publisher ?? issue.publisher,
        lang: values.lang ?? issue.lang,
        description: values.description ?? issue.description,
        bisac: values.bisac ?? issue.bisac,
        external_id: values.externalId ?? issue.external_id,
        isbn: values.isbn !== undefined ? values.isbn : (issue.isbn ?? null),
        published_at: values.publishedAt ?? issue.published_at,
        collections: values.collections ?? issue.collections,
      };
    });
  }

  async delete(tenantId: number, issueId: number): Promise<void> {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const issue = await this.get(tenantId, issueId);
      if (stateOf(issue) !== 'draft' || issue.first_published_at) {
        throw failedPrecondition('Only a draft that was never published can be deleted; withdraw this issue instead.');
      }
      if (await this.deps.ingest.removeIssue(issue)) return;
    }
    throw new DomainError('ABORTED', 'The issue kept changing; try again.');
  }

  /** Publishes or withdraws; `changed` is false when the issue already was in that state. */
  async setState(tenantId: number, issueId: number, state: IssueState): Promise<{ issue: StoredIssue; changed: boolean }> {
    if (state === 'draft')
      throw invalidArgument('An issue can be published or withdrawn, not made a draft again.', { state: ['Must be published or withdrawn.'] });
    let changed = false;
    const issue = await this.change(tenantId, issueId, async (current) => {
      const from = stateOf(current);
      if (from === state) return undefined;
      if (state === 'withdrawn' && from === 'draft') throw failedPrecondition('A draft is not on sale: delete it instead.');
      changed = true;
      return { ...inputOf(current), state, first_published_at: current.first_published_at ?? (state === 'published' ? this.now() : null) };
    });
    return { issue, changed };
  }

  /**
   * Reads the issue, derives its new input (undefined: nothing to change) and
   * writes it if the issue is still as read, else reads again.
   */
  async change(tenantId: number, issueId: number, next: (issue: StoredIssue) => Promise<IssueInput | undefined>): Promise<StoredIssue> {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const issue = await this.get(tenantId, issueId);
      const input = await next(issue);
      if (!input) return issue;
      const written = await this.deps.ingest.replaceIssue(input, issue.updated_at);
      if (written) return written;
    }
    throw new DomainError('ABORTED', 'The issue kept changing; try again.');
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The optional fields, checked and normalized; reasons go to `errors`. */
  private checkValues(tenantId: number, fields: IssueFieldsInput, errors: FieldErrors) {
    const values: {
      authors?: string[];
      publisher?: string;
      lang?: string;
      description?: string;
      bisac?: string;
      externalId?: string;
      isbn?: string | null;
      publishedAt?: Date;
      collections?: string[];
    } = {};
    if (fields.authors !== undefined) {
      const authors = fields.authors.map(clean);
      if (authors.some((author) => !author)) errors.authors = ['An author cannot be empty.'];
      values.authors = authors;
    }
    if (fields.publisher !== undefined) values.publisher = clean(fields.publisher);
    if (fields.description !== undefined) values.description = clean(fields.description);
    if (fields.bisac !== undefined) values.bisac = clean(fields.bisac);
    if (fields.externalId !== undefined) values.externalId = clean(fields.externalId);
    if (fields.lang !== undefined) {
      const lang = languageTag(fields.lang);
      if (lang === null) errors.lang = ['The lang must be a BCP 47 language tag, e.g. en or pt-BR.'];
      else values.lang = lang;
    }
    if (fields.isbn !== undefined) {
      if (!fields.isbn.trim()) values.isbn = null;
      else {
        const isbn = isbn13Of(fields.isbn);
        if (!isbn) errors.isbn = ['The isbn must be an ISBN-10 or ISBN-13 with a valid check digit.'];
        else values.isbn = isbn;
      }
    }
    if (fields.publishedAt !== undefined) {
      const date = fields.publishedAt.trim() ? new Date(fields.publishedAt.trim()) : new Date(Number.NaN);
      if (Number.isNaN(date.getTime())) errors.published_at = ['The published_at must be an ISO 8601 date or date-time.'];
      else values.publishedAt = date;
    }
    if (fields.collections !== undefined) {
      const slugs = [...new Set(fields.collections.map((slug) => slug.trim()))];
      const tenant = this.deps.view.tenant(tenantId);
      const unknown = slugs.filter((slug) => !tenant?.collection(slug));
      if (unknown.length > 0) {
        const known = (tenant?.collectionList() ?? []).map((collection) => collection.slug);
        errors.collections = [`Unknown collection ${unknown.join(', ')}; this store has ${known.length ? known.join(', ') : 'none'}.`];
      } else values.collections = slugs;
    }
    for (const [field, text] of Object.entries({
      authors: values.authors?.join(''),
      publisher: values.publisher,
      description: values.description,
      bisac: values.bisac,
      external_id: values.externalId,
    })) {
      // PostgreSQL under FerretDB refuses NUL in a string: bad input, not a storage failure.
      if (text?.includes('\u0000')) errors[field] = ['Must not contain NUL characters.'];
    }
    if (fields.name?.includes('\u0000')) errors.name = ['Must not contain NUL characters.'];
    return values;
  }

  private async assertExternalIdFree(tenantId: number, externalId: string, exceptId?: number): Promise<void> {
    if (!externalId) return;
    const other = await this.deps.issues.findByField(tenantId, 'external_id', externalId, exceptId);
    if (other) {
      throw new DomainError('ALREADY_EXISTS', `The store already has an issue with the external_id ${externalId} (issue ${other._id}).`, {
        fieldErrors: { external_id: [`Issue ${other._id} has this external_id.`] },
      });
    }
  }

  /** The name's slug, made unique in the tenant with a numeric suffix. */
  private async freeSlug(tenantId: number, name: string, issueId: number): Promise<string> {
    const base = slugOf(name) || `issue-${issueId}`;
    for (let n = 1; n < 50; n++) {
      const candidate = n === 1 ? base : `${base.slice(0, MAX_SLUG - String(n).length - 1)}-${n}`;
      if (!(await this.deps.issues.findByField(tenantId, 'slug', candidate, issueId))) return candidate;
    }
    return `${base.slice(0, MAX_SLUG - String(issueId).length - 1)}-${issueId}`;
  }
}

/** What a stored issue gives a rewrite of itself. */
export function inputOf(issue: StoredIssue): IssueInput {
  const { updated_at: _updated, deleted_at: _deleted, ...input } = issue as StoredIssue & { change_bucket?: number };
  delete (input as { change_bucket?: number }).change_bucket;
  return input;
}

const clean = (value: string | undefined): string => (value ?? '').normalize('NFC').trim();

/** Lower-case ASCII words joined by hyphens (accents folded), at most MAX_SLUG characters. */
export function slugOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
}

/** A BCP 47 tag in its canonical case (`pt-BR`), or null when it is not one. */
export function languageTag(value: string): string | null {
  const tag = value.trim();
  if (!tag) return '';
  // Intl checks the structure of a BCP 47 tag; an underscore form (pt_BR) is not one.
  if (!/^[A-Za-z0-9-]+$/.test(tag)) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/** ISBN-10 or ISBN-13 (hyphens and spaces allowed) as 13 digits, or null when the check digit is wrong. */
export function isbn13Of(value: string): string | null {
  const digits = value.replace(/[\s-]/g, '').toUpperCase();
  if (/^\d{13}$/.test(digits)) {
    if (!digits.startsWith('978') && !digits.startsWith('979')) return null;
    return isbn13Check(digits.slice(0, 12)) === digits[12] ? digits : null;
  }
  if (/^\d{9}[\dX]$/.test(digits)) {
    let sum = 0;
    for (let i = 0; i < 10; i++) sum += (10 - i) * (digits[i] === 'X' ? 10 : Number(digits[i]));
    if (sum % 11 !== 0) return null;
    const twelve = `978${digits.slice(0, 9)}`;
    return twelve + isbn13Check(twelve);
  }
  return null;
}

function isbn13Check(twelve: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(twelve[i]) * (i % 2 === 0 ? 1 : 3);
  return String((10 - (sum % 10)) % 10);
}
