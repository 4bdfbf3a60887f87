// Reader's in-issue search facts → the spec's v2 hits: the location as a range
// CFI for EPUB or `page:<n>,offset:<n>` for PDF, matched words in `<mark>`.
import type { reader } from '@folio/proto';
import type { z } from 'zod';
import type { TextSearchHit } from '../../routes/schemas.js';
import { snippetHtml } from '../snippet.js';

export function textHitLocation(hit: Pick<reader.TextHit, 'cfi' | 'page' | 'pageOffset'>): string {
  return hit.cfi ?? `page:${hit.page},offset:${hit.pageOffset}`;
}

export function textHitToWire(hit: reader.TextHit): z.output<typeof TextSearchHit> {
  return { location: textHitLocation(hit), snippet: snippetHtml(hit.excerpt, 'mark'), query_words: hit.queryWords };
}
