// In-issue text search and the v1 bulk text records. A hit is facts: where
// the match is (page and section, both 1-based: page = PDF page or EPUB spine
// position, section = paragraph; the span's offset in the page's text as the
// bulk records give it, sections joined by a blank line; for EPUB the range
// CFI of the matched characters, `epubcfi(/6/4[chapter-1]!/4/4,/1:120,/1:128)`)
// and the plain text around it with its matched words. How an API version
// shows them (location strings, snippet markup) is the gateway's rendering.
// A preview session searches only its preview share.
import { invalidArgument, notFound, permissionDenied } from '@folio/errors';
import type { TextIndexStore } from '../search/index-store.js';
import { cfiOfRange, excerptOf, queryWords, type TextExcerpt } from '../search/text-index.js';
import { writtenWithoutSpaces } from '../search/text.js';
import type { Peers } from './ports.js';
import type { ManifestRepository } from './repositories.js';

/** The reader session a search runs in, as the caller verified it (the gateway, with VerifyReaderToken). */
export interface SearchSession {
  tenantId: number;
  userId: number;
  issueId: number;
  preview: boolean;
  /** A preview's last page or chapter; null for a full session. */
  previewLimit: number | null;
}

export type { TextExcerpt };

export interface TextHit {
  /** 1-based: the PDF page or the EPUB spine position. */
  page: number;
  /** 1-based paragraph within the page. */
  section: number;
  /** Where the matched span starts in the page's text. */
  pageOffset: number;
  /** EPUB: the range CFI of the matched span; null for PDF. */
  cfi: string | null;
  excerpt: TextExcerpt;
  /** The query's words as typed. */
  queryWords: string[];
}

/** One indexed text section of a page, whitespace collapsed. */
export interface PageText {
  /** Position of the section in the issue's text, 1-based. */
  id: number;
  issueId: number;
  page: number;
  section: number;
  text: string;
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

  /** `issueId`: the issue to search (v1 names one), else the session's. */
  async search(input: { session: SearchSession; search: string; issueId?: number | undefined }): Promise<TextHit[]> {
    const search = input.search.trim();
    const length = [...search].length;
    // One character can be a word where words are not separated by spaces (Chinese, Japanese, Thai).
    if (length < (writtenWithoutSpaces(search) ? 1 : 4) || length > 128) {
      throw invalidArgument('The given data was invalid.', { search: ['must be between 4 and 128 characters (from 1 in Chinese, Japanese or Thai)'] });
    }
    const named = input.issueId;
    if (named !== undefined && !(Number.isInteger(named) && named! > 0)) {
      throw invalidArgument('The given data was invalid.', { issue_id: ['is required and must be a positive integer'] });
    }
    const claims = input.session;
    const issueId = named ?? claims.issueId;
    const manifest = await this.deps.manifests.findSummary({ tenantId: claims.tenantId, issueId });
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
    return index.search(search, { limit: MAX_HITS, maxPage }).map((hit) => ({
      page: hit.segment.page,
      section: hit.segment.section,
      pageOffset: hit.segment.pageOffset + hit.matchStart,
      cfi: cfiOfRange(hit.segment, hit.matchStart, hit.matchEnd),
      excerpt: excerptOf(hit),
      queryWords: words,
    }));
  }

  /** GET {store}/api/v1/issue-text-content/{id}?issue_id=: the sections of one page. */
  async pageText(input: { storeTenantId: number; issueId: number; page: number }): Promise<PageText[]> {
    const manifest = input.issueId > 0 ? await this.deps.manifests.findSummary({ tenantId: input.storeTenantId, issueId: input.issueId }) : null;
    if (!manifest) throw notFound('Issue not found.');
    if (!manifest.text_index_key) throw notFound('This issue has no searchable text.');
    const index = await this.deps.indexes.load(manifest.text_index_key);
    if (!index) throw notFound('This issue has no searchable text.');
    const records: PageText[] = [];
    for (const [position, segment] of index.segments.entries()) {
      if (segment.page !== input.page) continue;
      records.push({
        id: position + 1,
        issueId: input.issueId,
        page: segment.page,
        section: segment.section,
        text: segment.text.replace(/\s+/g, ' ').trim(),
      });
    }
    return records;
  }
}
