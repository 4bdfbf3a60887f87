// In-issue text search (v2 and v1) and the v1 bulk text records.
//
// Locations: v2 `page:<n>,offset:<n>` for PDF (page number, character offset of
// the match in the page's text as the bulk records give it, sections joined by
// a blank line) and a range CFI for EPUB pointing at the matched characters
// (`epubcfi(/6/4[chapter-1]!/4/4,/1:120,/1:128)`); v1
// `page_<n>_section_<n>` (page = PDF page or EPUB spine position, section =
// paragraph, both 1-based). A preview session searches only its preview share.
import { invalidArgument, notFound, permissionDenied } from '@folio/errors';
import type { TextIndexStore } from '../search/index-store.js';
import { cfiOfRange, queryWords, renderSnippet } from '../search/text-index.js';
import { writtenWithoutSpaces } from '../search/text.js';
import type { Peers } from './ports.js';
import type { ManifestRepository } from './store.js';

/** The reader session a search runs in, as the caller verified it (the gateway, with VerifyReaderToken). */
export interface SearchSession {
  tenantId: number;
  userId: number;
  issueId: number;
  preview: boolean;
  /** A preview's last page or chapter; null for a full session. */
  previewLimit: number | null;
}

export interface TextHit {
  location: string;
  snippet: string;
  queryWords: string[];
}

export const MAX_HITS = 50;

export class TextSearch {
  constructor(
    private readonly deps: {
      manifests: ManifestRepository;
      indexes: TextIndexStore;
      peers: Peers;
    },
  ) {}

  async search(input: { session: SearchSession; search: string; api: 'v1' | 'v2'; issueId?: number | undefined }): Promise<TextHit[]> {
    const search = input.search.trim();
    const length = [...search].length;
    // One character can be a word where words are not separated by spaces (Chinese, Japanese, Thai).
    if (length < (writtenWithoutSpaces(search) ? 1 : 4) || length > 128) {
      throw invalidArgument('The given data was invalid.', { search: ['must be between 4 and 128 characters (from 1 in Chinese, Japanese or Thai)'] });
    }
    if (input.api === 'v1' && !(Number.isInteger(input.issueId) && input.issueId! > 0)) {
      throw invalidArgument('The given data was invalid.', { issue_id: ['is required and must be a positive integer'] });
    }
    const claims = input.session;
    const issueId = input.api === 'v1' ? input.issueId! : claims.issueId;
    const manifest = await this.deps.manifests.findSummary(claims.tenantId, issueId);
    let maxPage: number | undefined;
    if (issueId === claims.issueId) {
      if (!manifest) throw notFound('This issue has no searchable text.');
      if (claims.preview) maxPage = claims.previewLimit ?? 1;
    } else {
      // v1 may name another issue than the session's: it must be in the store's tenant and readable by the user.
      if (!manifest) throw permissionDenied('The store has no access to this issue.');
      const access = await this.deps.peers.access(claims.tenantId, claims.userId, issueId);
      if (!access.canRead) throw permissionDenied('The store has no access to this issue.');
    }
    if (!manifest.text_index_key) throw notFound('This issue has no searchable text.');
    const index = await this.deps.indexes.load(manifest.text_index_key);
    if (!index) throw notFound('This issue has no searchable text.');

    const words = queryWords(search);
    return index.search(search, { limit: MAX_HITS, maxPage }).map((hit) => {
      const segment = hit.segment;
      let location: string;
      if (input.api === 'v1') location = `page_${segment.page}_section_${segment.section}`;
      else location = cfiOfRange(segment, hit.matchStart, hit.matchEnd) ?? `page:${segment.page},offset:${segment.pageOffset + hit.matchStart}`;
      return { location, snippet: renderSnippet(hit, input.api === 'v1' ? 'b' : 'mark'), queryWords: words };
    });
  }

  /** GET {store}/api/v1/issue-text-content/{id}?issue_id=: the sections of one page. */
  async pageText(input: { storeTenantId: number; issueId: number; page: number }) {
    const manifest = input.issueId > 0 ? await this.deps.manifests.findSummary(input.storeTenantId, input.issueId) : null;
    if (!manifest) throw notFound('Issue not found.');
    if (!manifest.text_index_key) throw notFound('This issue has no searchable text.');
    const index = await this.deps.indexes.load(manifest.text_index_key);
    if (!index) throw notFound('This issue has no searchable text.');
    const records = [];
    for (const [position, segment] of index.segments.entries()) {
      if (segment.page !== input.page) continue;
      records.push({
        id: position + 1,
        issueId: input.issueId,
        page: segment.page,
        section: segment.section,
        location: `page_${segment.page}_section_${segment.section}`,
        text: segment.text.replace(/\s+/g, ' ').trim(),
      });
    }
    return records;
  }
}
