// Reader's in-issue search facts → the spec's v1 hits and text records: the
// location as `page_<n>_section_<n>` (PDF page or EPUB spine position,
// paragraph), matched words in `<b>`.
import type { reader } from '@folio/proto';
import type { z } from 'zod';
import type { IssueTextContent, TextSearchHit } from '../../routes/schemas.js';
import { snippetHtml } from '../snippet.js';

export function sectionLocation({ page, section }: { page: number; section: number }): string {
  return `page_${page}_section_${section}`;
}

export function textHitToWire(hit: reader.TextHit): z.output<typeof TextSearchHit> {
  return { location: sectionLocation(hit), snippet: snippetHtml(hit.excerpt, 'b'), query_words: hit.queryWords };
}

export function issueTextContentToWire(record: reader.IssueTextContent): z.output<typeof IssueTextContent> {
  return { id: record.id, issue_id: record.issueId, page: record.page, section: record.section, location: sectionLocation(record), text: record.text };
}
