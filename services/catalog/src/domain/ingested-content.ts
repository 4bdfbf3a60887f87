// What reader's ingest read from an issue's new file (content.ingested),
// recorded on the issue: the file decides its accessibility metadata and,
// when it has pages (a PDF), its number of pages; the metadata the publisher left empty (authors,
// publisher, language, description, ISBN) is filled from the file, and what
// the publisher set is never overwritten. Idempotent by the file's hash: the
// same event twice (a redelivery, a re-run ingest) changes nothing more.
import type { Logger } from '@folio/logger';
import { inputOf, isbn13Of, languageTag, type Publishing } from './publishing.js';
import type { StoredAccessibility } from './repositories.js';

/** A file reader ingested for an issue, in domain terms. */
export interface IngestedFile {
  tenantId: number;
  issueId: number;
  /** SHA-256 of the file: the content version. */
  contentHash: string;
  type: string;
  /** PDF pages; null for reflowable and audio content. */
  numberOfPages: number | null;
  metadata: {
    authors: string[];
    publisher: string;
    lang: string;
    description: string;
    /** As the file lists them (`urn:isbn:978...`, `urn:uuid:...`, a bare ISBN). */
    identifiers: string[];
    accessibility: StoredAccessibility | null;
  };
}

export type IngestOutcome = 'recorded' | 'already-recorded' | 'unknown-issue';

export class IngestedContent {
  constructor(private readonly deps: { publishing: Publishing; logger: Logger }) {}

  async record(file: IngestedFile): Promise<IngestOutcome> {
    let outcome: IngestOutcome = 'recorded';
    try {
      await this.deps.publishing.change(file.tenantId, file.issueId, async (issue) => {
        if (file.contentHash && issue.content_hash === file.contentHash) {
          outcome = 'already-recorded';
          return undefined;
        }
        if (file.type !== issue.type) {
          this.deps.logger.warn(
            { issue_id: issue._id, issue_type: issue.type, file_type: file.type },
            'ingested file of another type than the issue; recorded anyway',
          );
        }
        const { metadata } = file;
        const own = issue.authors?.length ? issue.authors : issue.author ? [issue.author] : [];
        const authors = own.length ? own : metadata.authors.map((author) => author.trim()).filter(Boolean);
        const lang = issue.lang || languageTag(metadata.lang) || '';
        const isbn = issue.isbn ?? isbnAmong(metadata.identifiers);
        return {
          ...inputOf(issue),
          // A reflowable or audio file has no page count: the one the publisher or the dataset gave stays.
          number_of_pages: file.numberOfPages ?? issue.number_of_pages,
          accessibility: file.metadata.accessibility,
          authors,
          author: issue.author || (authors[0] ?? ''),
          tags: issue.tags?.author?.length ? issue.tags : { ...issue.tags, author: authors },
          publisher: issue.publisher || metadata.publisher.trim(),
          lang,
          description: issue.description || metadata.description.trim(),
          isbn,
          content_hash: file.contentHash || null,
        };
      });
    } catch (error) {
      // The issue is gone (a deleted draft): no retry brings it back.
      if ((error as { code?: string }).code === 'NOT_FOUND') return 'unknown-issue';
      throw error;
    }
    return outcome;
  }
}

/** The first valid ISBN among a file's identifiers (`urn:isbn:`, `isbn:` or bare), as 13 digits. */
function isbnAmong(identifiers: readonly string[]): string | null {
  for (const identifier of identifiers) {
    const trimmed = identifier.trim();
    const prefixed = /^(urn:)?isbn:/i.test(trimmed);
    const value = trimmed.replace(/^(urn:)?isbn:/i, '');
    // A bare identifier counts only as a 13-digit ISBN (978/979): a bare 10-digit number is too often something else.
    const isbn = prefixed || /^97[89]/.test(value.replace(/[\s-]/g, '')) ? isbn13Of(value) : null;
    if (isbn) return isbn;
  }
  return null;
}
