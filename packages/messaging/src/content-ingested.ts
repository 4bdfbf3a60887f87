// reader's `content.ingested` event, defined once for its publisher (reader,
// when an uploaded file became the issue's content) and its consumer
// (catalog, which records what the file says: pages, accessibility, and the
// metadata the publisher left empty). Version 1 payload; a change is a new
// version, not an edit.
import type { DomainEvent } from './event.js';
import { PoisonMessageError } from './consumer.js';

/** reader.events: an issue's content is ready (a new file replaced the old one). */
export const CONTENT_INGESTED = 'content.ingested';

/** Accessibility metadata in EPUB Accessibility 1.1 / schema.org terms (catalog's `Accessibility`). */
export interface AccessibilityPayload {
  conforms_to: string[];
  access_modes: string[];
  access_modes_sufficient: string[];
  features: string[];
  hazards: string[];
  summary: string | null;
  certified_by: string | null;
}

export interface ContentIngestedPayload {
  tenant_id: number;
  issue_id: number;
  /** SHA-256 (hex) of the uploaded file: the content version. */
  content_hash: string;
  type: 'epub' | 'pdf' | 'audio';
  /** PDF pages; null for reflowable and audio content. */
  number_of_pages: number | null;
  /** What the file says; empty strings and lists where it says nothing. */
  metadata: {
    title: string;
    authors: string[];
    publisher: string;
    lang: string;
    description: string;
    identifiers: string[];
    accessibility: AccessibilityPayload | null;
  };
}

const positiveInt = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Decodes a content.ingested event. Ids and the type must be valid (no retry
 * can fix them: a poison message for the dead-letter queue); the metadata is
 * taken as far as it is well-formed.
 */
export function contentIngestedOf(event: DomainEvent): ContentIngestedPayload {
  const payload = (event.payload ?? {}) as Record<string, unknown>;
  const type = payload.type;
  if (!positiveInt(payload.tenant_id) || !positiveInt(payload.issue_id) || (type !== 'epub' && type !== 'pdf' && type !== 'audio')) {
    throw new PoisonMessageError('content.ingested without a valid tenant_id, issue_id and type');
  }
  const metadata = (payload.metadata ?? {}) as Record<string, unknown>;
  const a11y = metadata.accessibility as Record<string, unknown> | null | undefined;
  return {
    tenant_id: payload.tenant_id,
    issue_id: payload.issue_id,
    content_hash: text(payload.content_hash),
    type,
    number_of_pages: positiveInt(payload.number_of_pages) ? payload.number_of_pages : null,
    metadata: {
      title: text(metadata.title),
      authors: strings(metadata.authors),
      publisher: text(metadata.publisher),
      lang: text(metadata.lang),
      description: text(metadata.description),
      identifiers: strings(metadata.identifiers),
      accessibility:
        a11y && typeof a11y === 'object'
          ? {
              conforms_to: strings(a11y.conforms_to),
              access_modes: strings(a11y.access_modes),
              access_modes_sufficient: strings(a11y.access_modes_sufficient),
              features: strings(a11y.features),
              hazards: strings(a11y.hazards),
              summary: typeof a11y.summary === 'string' ? a11y.summary : null,
              certified_by: typeof a11y.certified_by === 'string' ? a11y.certified_by : null,
            }
          : null,
    },
  };
}
