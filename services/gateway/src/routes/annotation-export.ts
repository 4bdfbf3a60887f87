// The user's annotation export (GET /api/v2/user/annotations/export): every
// note of the user across stores and issues, rendered here from notes'
// typed answer (ListUserNotes), with store names from identity and issue
// titles from catalog. Two formats:
//   - `w3c`: a W3C Web Annotation collection (JSON-LD, https://www.w3.org/TR/annotation-model/):
//     one Annotation per note, its target a TextQuoteSelector with the
//     highlighted text plus the position: an EPUB CFI (FragmentSelector
//     conforming to EPUB CFI; a RangeSelector of two when the note has an end
//     CFI) or a PDF page (FragmentSelector conforming to RFC 3778, `page=N`);
//     the comment as a TextualBody; created and modified times.
//   - `markdown`: one document grouped by store, then issue.
// The highlighted text is plain text only here, in the user's own
// authenticated export (reader-session answers encrypt it).
import { DomainError } from '@folio/errors';
import type { notes } from '@folio/proto';
import { z } from 'zod';
import type { Services } from '../http/route.js';
import { epubLocationAsList } from '../render/notes.js';

export const EXPORT_FORMATS = ['w3c', 'markdown'] as const;

export const W3C_CONTENT_TYPE = 'application/ld+json; profile="http://www.w3.org/ns/anno.jsonld"';
export const MARKDOWN_CONTENT_TYPE = 'text/markdown; charset=utf-8';

const ANNO_CONTEXT = 'http://www.w3.org/ns/anno.jsonld';
const EPUB_CFI = 'http://www.idpf.org/epub/linking/cfi/epub-cfi.html';
const PDF_FRAGMENT = 'http://tools.ietf.org/rfc/rfc3778';

/** One exported note with where it was made. */
export interface ExportedNote {
  tenantId: number;
  issueId: number;
  note: notes.Note;
}

/** What the export shows besides the notes. */
export interface ExportContext {
  /** Store names by tenant id. */
  stores: Map<number, string>;
  /** Issue titles by `${tenantId}:${issueId}`. */
  issues: Map<string, string>;
  generatedAt: Date;
}

const issueKey = (tenantId: number, issueId: number) => `${tenantId}:${issueId}`;
const storeName = (context: ExportContext, tenantId: number) => context.stores.get(tenantId) ?? `Store ${tenantId}`;
const issueTitle = (context: ExportContext, tenantId: number, issueId: number) => context.issues.get(issueKey(tenantId, issueId)) ?? `Issue ${issueId}`;

/** The notes, their stores' names and their issues' titles: one ListUserNotes, then one lookup per store. */
export async function loadExport(
  services: Pick<Services, 'notes' | 'tenants' | 'catalog'>,
  userId: number,
): Promise<{ notes: ExportedNote[]; context: ExportContext }> {
  const response = await services.notes.listUserNotes({ userId });
  const exported = response.notes.map((entry) => {
    if (!entry.note) throw new DomainError('INTERNAL', 'notes answered a user note without its note');
    return { tenantId: entry.tenantId, issueId: entry.issueId, note: entry.note };
  });
  const issuesByTenant = new Map<number, Set<number>>();
  for (const entry of exported) {
    const ids = issuesByTenant.get(entry.tenantId) ?? new Set<number>();
    ids.add(entry.issueId);
    issuesByTenant.set(entry.tenantId, ids);
  }
  const stores = new Map<number, string>();
  const issues = new Map<string, string>();
  await Promise.all(
    [...issuesByTenant].map(async ([tenantId, ids]) => {
      const [tenant, summaries] = await Promise.all([services.tenants.byTenantId(tenantId), services.catalog.batchGetIssues({ tenantId, issueIds: [...ids] })]);
      if (tenant) stores.set(tenantId, tenant.name);
      for (const issue of summaries.issues) issues.set(issueKey(tenantId, issue.id), issue.name);
    }),
  );
  return { notes: exported, context: { stores, issues, generatedAt: new Date() } };
}

// ------------------------------------------------------------ W3C --

const FragmentSelector = z.object({ type: z.literal('FragmentSelector'), conformsTo: z.string(), value: z.string() });
const Selector = z.union([
  z.object({ type: z.literal('TextQuoteSelector'), exact: z.string() }),
  FragmentSelector,
  z.object({ type: z.literal('RangeSelector'), startSelector: FragmentSelector, endSelector: FragmentSelector }),
]);

export const W3cAnnotation = z
  .object({
    id: z.string().meta({ description: 'urn:folio:note:<id>' }),
    type: z.literal('Annotation'),
    motivation: z.enum(['highlighting', 'commenting']),
    created: z.string(),
    modified: z.string(),
    body: z.object({ type: z.literal('TextualBody'), value: z.string(), format: z.literal('text/plain'), purpose: z.literal('commenting') }).optional(),
    target: z.object({
      source: z.string().meta({ description: 'urn:folio:tenant:<tenant_id>:issue:<issue_id>' }),
      selector: z.array(Selector),
    }),
    'folio:store': z.string(),
    'folio:issue': z.string(),
    'folio:color': z.string(),
  })
  .meta({ id: 'W3cAnnotation' });

export const W3cAnnotationCollection = z
  .object({
    '@context': z.array(z.union([z.string(), z.record(z.string(), z.string())])),
    type: z.literal('AnnotationCollection'),
    label: z.string(),
    total: z.number().int(),
    generated: z.string(),
    first: z.object({ type: z.literal('AnnotationPage'), startIndex: z.number().int(), items: z.array(W3cAnnotation) }).optional(),
  })
  .meta({ id: 'W3cAnnotationCollection', description: 'A W3C Web Annotation collection (JSON-LD) with one embedded page' });

type Annotation = z.output<typeof W3cAnnotation>;
type Collection = z.output<typeof W3cAnnotationCollection>;

/** The note's CFI range: its start and end CFIs, else the first general location that is a CFI. */
function cfisOf(note: notes.Note): { start: string; end?: string } | null {
  const start = note.epubLocationStartCfi || epubLocationAsList(note)?.find((item) => item.startsWith('epubcfi('));
  if (!start) return null;
  const end = note.epubLocationEndCfi;
  return end && end !== start ? { start, end } : { start };
}

function selectorsOf(note: notes.Note): z.output<typeof Selector>[] {
  const selectors: z.output<typeof Selector>[] = [{ type: 'TextQuoteSelector', exact: note.totalText }];
  const cfi = (value: string) => ({ type: 'FragmentSelector' as const, conformsTo: EPUB_CFI, value });
  const range = cfisOf(note);
  if (range) selectors.push(range.end ? { type: 'RangeSelector', startSelector: cfi(range.start), endSelector: cfi(range.end) } : cfi(range.start));
  else if (note.startPage !== undefined) {
    const page = (value: number) => ({ type: 'FragmentSelector' as const, conformsTo: PDF_FRAGMENT, value: `page=${value}` });
    const end = note.endPage;
    selectors.push(
      end !== undefined && end !== note.startPage
        ? { type: 'RangeSelector', startSelector: page(note.startPage), endSelector: page(end) }
        : page(note.startPage),
    );
  }
  return selectors;
}

function annotationOf(entry: ExportedNote, context: ExportContext): Annotation {
  const { note } = entry;
  const comment = note.annotationText;
  return {
    id: `urn:folio:note:${note.id}`,
    type: 'Annotation',
    motivation: comment ? 'commenting' : 'highlighting',
    created: note.createdAt,
    modified: note.updatedAt,
    ...(comment && { body: { type: 'TextualBody' as const, value: comment, format: 'text/plain' as const, purpose: 'commenting' as const } }),
    target: { source: `urn:folio:tenant:${entry.tenantId}:issue:${entry.issueId}`, selector: selectorsOf(note) },
    'folio:store': storeName(context, entry.tenantId),
    'folio:issue': issueTitle(context, entry.tenantId, entry.issueId),
    'folio:color': note.color,
  };
}

export function toW3c(exported: ExportedNote[], context: ExportContext, email: string): Collection {
  return {
    // The platform's own keys (store, issue title, colour) are named in a folio namespace, as the model allows.
    '@context': [ANNO_CONTEXT, { folio: 'urn:folio:terms:' }],
    type: 'AnnotationCollection',
    label: `Annotations of ${email}`,
    total: exported.length,
    generated: context.generatedAt.toISOString(),
    ...(exported.length > 0 && {
      first: { type: 'AnnotationPage' as const, startIndex: 0, items: exported.map((entry) => annotationOf(entry, context)) },
    }),
  };
}

// ------------------------------------------------------------ Markdown --

/** One line of text, safe as a Markdown heading. */
const heading = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/([\\`*_[\]#<>])/g, '\\$1')
    .trim();
/** A block quote of any text, every line quoted. */
const quote = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => `> ${line}`.trimEnd())
    .join('\n');

function positionOf(note: notes.Note): string {
  const range = cfisOf(note);
  if (range) return range.end ? `\`${range.start}\` – \`${range.end}\`` : `\`${range.start}\``;
  if (note.startPage === undefined) return '';
  return note.endPage !== undefined && note.endPage !== note.startPage ? `pages ${note.startPage}–${note.endPage}` : `page ${note.startPage}`;
}

export function toMarkdown(exported: ExportedNote[], context: ExportContext, email: string): string {
  const lines = [
    '# Annotations',
    '',
    `${exported.length} ${exported.length === 1 ? 'note' : 'notes'} of ${heading(email)}, exported ${context.generatedAt.toISOString()}.`,
  ];
  let store: number | undefined;
  let issue: string | undefined;
  // notes answers them by tenant, then issue, then creation: one heading per change.
  for (const entry of exported) {
    if (entry.tenantId !== store) {
      store = entry.tenantId;
      issue = undefined;
      lines.push('', `## ${heading(storeName(context, entry.tenantId))}`);
    }
    const key = issueKey(entry.tenantId, entry.issueId);
    if (key !== issue) {
      issue = key;
      lines.push('', `### ${heading(issueTitle(context, entry.tenantId, entry.issueId))}`);
    }
    const { note } = entry;
    lines.push('', quote(note.totalText));
    if (note.annotationText) lines.push('', note.annotationText);
    const meta = [positionOf(note), note.color, note.createdAt].filter(Boolean).join(' · ');
    lines.push('', `— ${meta}`);
  }
  return `${lines.join('\n')}\n`;
}
