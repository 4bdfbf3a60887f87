// PassageSource over the reader service: the passages of the issue's text
// around a selection, from the reader's in-issue text index, for the local
// `expand` action. Two reader RPCs make it:
//   1. SearchIssueText with the selection's first words finds the page and
//      section the selection comes from, in the reader session the gateway
//      verified (within its preview share), as for any in-issue search;
//   2. ListIssueTextContent of that page gives its sections, and the window of
//      `maxPassages` sections centred on the found one is the answer, in
//      reading order.
// A reader that cannot say (no text index, token refused, RPC missing) means
// "no passages"; the local engine then expands from the selection itself.
import { DomainError } from '@folio/errors';
import { createPromiseClient, type PromiseClient } from '@folio/grpc';
import { reader } from '@folio/proto';
import type { CallOptions, PassageContext, PassageSource } from '../domain/ports.js';
import { wordsOf } from './text.js';

/** The reader's search takes 4-128 characters. */
const QUERY_MAX = 128;
const QUERY_MIN = 4;

/** The first words of the selection that fit the reader's search limit: enough to find where it sits. */
export function searchQueryOf(text: string): string | undefined {
  let query = '';
  for (const word of wordsOf(text)) {
    const next = query ? `${query} ${word}` : word;
    if (next.length > QUERY_MAX) break;
    query = next;
  }
  return query.length >= QUERY_MIN ? query : undefined;
}

/** The window of `size` items centred on `index` (shifted inside the list at its ends). */
export function windowAround<T>(items: T[], index: number, size: number): T[] {
  const start = Math.max(0, Math.min(index - Math.floor((size - 1) / 2), items.length - size));
  return items.slice(start, start + size);
}

/** The hit's page and section. */
function sectionOf(hit: reader.TextHit): { page: number; section: number } | undefined {
  return hit.page > 0 && hit.section > 0 ? { page: hit.page, section: hit.section } : undefined;
}

export class ReaderPassageSource implements PassageSource {
  private readonly client: PromiseClient<reader.ReaderServiceClient>;

  constructor(
    address: string,
    private readonly deadlineMs: number,
  ) {
    this.client = createPromiseClient(reader.ReaderServiceClient, address, { defaultDeadlineMs: deadlineMs });
  }

  async around(request: PassageContext & { text: string; maxPassages: number }, _options: CallOptions = {}): Promise<string[]> {
    const search = searchQueryOf(request.text);
    if (!search || request.maxPassages < 1) return [];
    try {
      const { session } = request;
      const { hits } = await this.client.searchIssueText({
        session: {
          sessionId: session.id,
          tenantId: request.tenantId,
          userId: request.userId,
          issueId: request.issueId,
          preview: session.preview,
          previewLimit: session.previewLimit,
        },
        search,
        issueId: request.issueId,
      });
      const where = hits[0] && sectionOf(hits[0]);
      if (!where) return [];
      const { page, section } = where;
      const { records } = await this.client.listIssueTextContent({ storeTenantId: request.tenantId, issueId: request.issueId, page });
      const ordered = [...records].sort((a, b) => a.section - b.section);
      const found = ordered.findIndex((record) => record.section === section);
      if (found < 0) return [];
      return windowAround(ordered, found, request.maxPassages)
        .map((record) => record.text)
        .filter((text) => text.trim().length > 0);
    } catch (error) {
      // The reader's answers that mean "nothing to show here"; outages propagate to the breaker.
      if (error instanceof DomainError && ['NOT_FOUND', 'PERMISSION_DENIED', 'INVALID_ARGUMENT', 'UNIMPLEMENTED'].includes(error.code)) return [];
      throw error;
    }
  }

  close(): void {
    this.client.close();
  }
}
