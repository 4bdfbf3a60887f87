// The snippet of an in-issue search hit, shared by the API versions: the
// excerpt's text HTML-escaped, each matched word in the version's tag,
// whitespace collapsed, and an ellipsis where the section goes on.
import type { reader } from '@folio/proto';
import { escapeHtml } from '@folio/text';

export type SnippetTag = 'mark' | 'b';

export function snippetHtml(excerpt: reader.TextExcerpt | undefined, tag: SnippetTag): string {
  if (!excerpt) return '';
  const { text } = excerpt;
  let html = '';
  let cursor = 0;
  // Matches can overlap (a word with an apostrophe matched whole and by a part): each is shown as it was matched.
  for (const { start, length } of excerpt.matches) {
    html += escapeHtml(text.slice(cursor, start)) + `<${tag}>${escapeHtml(text.slice(start, start + length))}</${tag}>`;
    cursor = start + length;
  }
  html += escapeHtml(text.slice(cursor));
  html = html.replace(/\s+/g, ' ').trim();
  return `${excerpt.startsMidSection ? '…' : ''}${html}${excerpt.endsMidSection ? '…' : ''}`;
}
