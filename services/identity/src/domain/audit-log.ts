// The publisher audit log: who changed what in a tenant's publishing, as the
// gateway records it after each change succeeded, read back by the tenant's
// owners newest first. The details are kept as the JSON text they came in:
// they are shown, never queried, and field names such as `$set` or `a.b`
// could not be document keys.
//
// The gateway retries a record whose answer it did not get, so an entry with
// a request id is identified by (tenant, request, action, target): the retry
// finds the entry the first attempt made instead of writing it twice.
import { createHash, randomBytes } from 'node:crypto';
import { invalidFields, nulFieldErrors } from './errors.js';

export interface AuditEntry {
  id: string;
  tenantId: number;
  at: Date;
  actor: string;
  action: string;
  target: string;
  detailsJson: string;
  requestId: string;
}

/** Where entries are kept (data/audit-entries.ts). */
export interface AuditEntryRepository {
  /** False when an entry with this id exists already (a retried record). */
  insert(entry: AuditEntry): Promise<boolean>;
  findById(tenantId: number, id: string): Promise<AuditEntry | null>;
  /** Newest first. */
  page(tenantId: number, offset: number, limit: number): Promise<AuditEntry[]>;
  countOf(tenantId: number): Promise<number>;
}

export const DETAILS_MAX_BYTES = 16 * 1024;
export const PER_PAGE_DEFAULT = 50;
export const PER_PAGE_MAX = 100;
/** Deeper than any listing goes by hand; bounds the skip. */
const PAGE_MAX = 100_000;
const LIMITS = { actor: 200, action: 100, target: 200, request_id: 200 } as const;

export interface AuditPage {
  entries: AuditEntry[];
  total: number;
  page: number;
  perPage: number;
}

export class AuditLog {
  constructor(private readonly entries: AuditEntryRepository) {}

  async record(request: { tenantId: number; actor: string; action: string; target: string; detailsJson: string; requestId: string }): Promise<AuditEntry> {
    const fields = {
      actor: (request.actor ?? '').trim(),
      action: (request.action ?? '').trim(),
      target: (request.target ?? '').trim(),
      request_id: (request.requestId ?? '').trim(),
    };
    const errors: Record<string, string[]> = nulFieldErrors(fields);
    for (const name of ['actor', 'action', 'target'] as const) {
      if (!fields[name] && !errors[name]) errors[name] = [`The ${name} field is required.`];
    }
    for (const [name, max] of Object.entries(LIMITS) as [keyof typeof LIMITS, number][]) {
      if (fields[name].length > max && !errors[name]) errors[name] = [`The ${name.replace(/_/g, ' ')} may not be greater than ${max} characters.`];
    }
    const details = detailsErrorOf(request.detailsJson);
    if (details) errors.details_json = [details];
    if (!(request.tenantId > 0)) errors.tenant_id = ['The tenant id must be a positive integer.'];
    if (Object.keys(errors).length) throw invalidFields(errors);

    const detailsJson = (request.detailsJson ?? '').trim() || '{}';
    const entry: AuditEntry = {
      id: fields.request_id ? entryIdOf(request.tenantId, fields.request_id, fields.action, fields.target) : randomBytes(12).toString('hex'),
      tenantId: request.tenantId,
      at: new Date(),
      actor: fields.actor,
      action: fields.action,
      target: fields.target,
      detailsJson,
      requestId: fields.request_id,
    };
    if (await this.entries.insert(entry)) return entry;
    return (await this.entries.findById(request.tenantId, entry.id)) ?? entry;
  }

  async list(request: { tenantId: number; page: number; perPage: number }): Promise<AuditPage> {
    const page = request.page || 1;
    const perPage = request.perPage || PER_PAGE_DEFAULT;
    const errors: Record<string, string[]> = {};
    if (!Number.isInteger(page) || page < 1 || page > PAGE_MAX) errors.page = [`The page must be between 1 and ${PAGE_MAX}.`];
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > PER_PAGE_MAX) errors.per_page = [`The per page must be between 1 and ${PER_PAGE_MAX}.`];
    if (Object.keys(errors).length) throw invalidFields(errors);
    const [entries, total] = await Promise.all([this.entries.page(request.tenantId, (page - 1) * perPage, perPage), this.entries.countOf(request.tenantId)]);
    return { entries, total, page, perPage };
  }
}

/** Why `details_json` is refused, or null: it must be a JSON object of at most 16 KB (empty means `{}`). */
function detailsErrorOf(detailsJson: string | undefined): string | null {
  const text = (detailsJson ?? '').trim();
  if (!text) return null;
  if (Buffer.byteLength(text, 'utf8') > DETAILS_MAX_BYTES) return `The details may not be greater than ${DETAILS_MAX_BYTES / 1024} KB.`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'The details must be valid JSON.';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'The details must be a JSON object.';
  return null;
}

/** The same change recorded again (a retry) gets the same id. */
function entryIdOf(tenantId: number, requestId: string, action: string, target: string): string {
  return createHash('sha256').update(`${tenantId}\n${requestId}\n${action}\n${target}`).digest('hex').slice(0, 24);
}
