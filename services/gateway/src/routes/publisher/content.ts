// The publisher API's content upload (the file as the request body) and its
// ingest status. The body is never parsed or held whole: the gateway checks
// its type and length (http/raw-body.ts), looks the issue up in catalog for
// its type, name and authors, and streams the file to reader's UploadContent
// in 1 MiB chunks at the pace reader takes them. Reader hashes, stores and
// queues it; the answer is the new content's status.
import { DomainError } from '@folio/errors';
import { reader } from '@folio/proto';
import { z } from 'zod';
import { route } from '../../http/route.js';
import { issueIdParams } from '../schemas.js';
import { audit, PUBLISHER_TAG } from './common.js';
import { Accessibility, accessibilityToWire, publisherIssueOf } from './issues.js';

/** What each issue type takes as its file (reader checks the same). */
const MEDIA_TYPES = {
  epub: ['application/epub+zip'],
  pdf: ['application/pdf'],
  audio: ['audio/mpeg', 'audio/mp4', 'audio/ogg', 'application/zip'],
} as const;
const ALL_MEDIA_TYPES = Object.values(MEDIA_TYPES).flat();
const ISSUE_KIND = { epub: 'An EPUB issue', pdf: 'A PDF issue', audio: 'An audio issue' } as const;

const STATES: Record<number, 'queued' | 'processing' | 'ready' | 'failed'> = {
  [reader.ContentState.CONTENT_STATE_QUEUED]: 'queued',
  [reader.ContentState.CONTENT_STATE_PROCESSING]: 'processing',
  [reader.ContentState.CONTENT_STATE_READY]: 'ready',
  [reader.ContentState.CONTENT_STATE_FAILED]: 'failed',
};

const Finding = z
  .object({
    severity: z.enum(['fatal', 'error', 'warning', 'info']),
    code: z.string().meta({ description: "The checker's message id (`RSC-005`, `OPF-014`) or reader's (`FOLIO-PDF-001`)" }),
    message: z.string(),
    location: z.string().nullable().meta({ description: 'Where in the file (`OEBPS/ch1.xhtml:12:7`); null when about the whole file' }),
  })
  .meta({ id: 'ContentFinding', description: "One finding of the file's validation (EPUBCheck's for EPUBs, reader's own checks otherwise)" });

const Metadata = z
  .object({
    title: z.string(),
    authors: z.array(z.string()),
    publisher: z.string(),
    lang: z.string(),
    description: z.string(),
    identifiers: z.array(z.string()).meta({ description: '`urn:isbn:...`, `urn:uuid:...`, as the file lists them' }),
    number_of_pages: z.number().int().nullable().meta({ description: 'PDF pages; null otherwise' }),
    duration_seconds: z.number().nullable().meta({ description: 'Audio: total length; null otherwise' }),
    chapters: z.number().int().meta({ description: 'EPUB spine documents, audio chapters or tracks, PDF outline entries' }),
    layout: z.enum(['reflowable', 'fixed']).nullable().meta({ description: 'null for audio' }),
    reading_progression: z.enum(['ltr', 'rtl', 'auto']),
    has_cover: z.boolean().meta({ description: 'The file has its own cover image (else one is generated)' }),
    accessibility: Accessibility.nullable(),
  })
  .meta({ id: 'ContentMetadata', description: 'What the file says of itself, and what the store will show from it' });

export const ContentStatus = z
  .object({
    state: z.enum(['queued', 'processing', 'ready', 'failed']),
    content_hash: z.string().meta({ description: 'SHA-256 (hex) of the uploaded file: the content version' }),
    bytes: z.number().int(),
    media_type: z.enum(ALL_MEDIA_TYPES as [string, ...string[]]),
    uploaded_at: z.string().meta({ description: 'ISO 8601 UTC' }),
    progress: z.number().int().min(0).max(100).meta({ description: 'While processing: 0-100' }),
    step: z.string().nullable().meta({ description: 'While processing: what it is doing (`reading`, `storing 12/40`, `indexing`)' }),
    findings: z.array(Finding),
    metadata: Metadata.nullable().meta({ description: 'Once the file was read (ready, and failed after reading)' }),
    error: z.string().nullable().meta({ description: 'Failed: why, in words a publisher understands' }),
    ready_at: z.string().nullable().meta({ description: 'ISO 8601 UTC: when it became the issue’s content' }),
    live_content_hash: z
      .string()
      .nullable()
      .meta({ description: 'The content readers get now when it is an earlier upload (this one not ready yet, or failed); null when none' }),
  })
  .meta({ id: 'ContentStatus', description: "An upload of the issue's file and its ingest" });

type Wire = z.infer<typeof ContentStatus>;

function statusToWire(status: reader.ContentStatus | undefined): Wire {
  if (!status) throw new Error('reader answered without the content status');
  const metadata = status.metadata;
  const a11y = metadata?.accessibility;
  return {
    state: STATES[status.state] ?? 'queued',
    content_hash: status.contentHash,
    bytes: status.bytes,
    media_type: status.mediaType,
    uploaded_at: status.uploadedAt,
    progress: status.progress,
    step: status.step ?? null,
    findings: status.findings.map((finding) => ({
      severity: (['fatal', 'error', 'warning', 'info'].includes(finding.severity) ? finding.severity : 'info') as Wire['findings'][number]['severity'],
      code: finding.code,
      message: finding.message,
      location: finding.location ?? null,
    })),
    metadata: metadata
      ? {
          title: metadata.title,
          authors: metadata.authors,
          publisher: metadata.publisher,
          lang: metadata.lang,
          description: metadata.description,
          identifiers: metadata.identifiers,
          number_of_pages: metadata.numberOfPages ?? null,
          duration_seconds: metadata.durationSeconds ?? null,
          chapters: metadata.chapters,
          layout: metadata.layout === 'fixed' || metadata.layout === 'reflowable' ? metadata.layout : null,
          reading_progression: metadata.readingProgression === 'ltr' || metadata.readingProgression === 'rtl' ? metadata.readingProgression : 'auto',
          has_cover: metadata.hasCover,
          accessibility: accessibilityToWire(a11y),
        }
      : null,
    error: status.error ?? null,
    ready_at: status.readyAt ?? null,
    live_content_hash: status.liveContentHash ?? null,
  };
}

const publisher = { tag: PUBLISHER_TAG, auth: 'publisher', tenant: 'single' } as const;
const NOT_FOUND = 'No such issue in this store';

export const publisherContentRoutes = [
  route({
    ...publisher,
    method: 'put',
    path: '/api/v2/publisher/issues/{issue_id}/content',
    summary: "Upload the issue's file (the request body): it is stored, checked and read asynchronously",
    description:
      'The body is the file itself (`curl --data-binary @book.epub`), streamed to storage, never held whole. ' +
      'Its Content-Type must fit the issue type: `epub` application/epub+zip; `pdf` application/pdf; `audio` audio/mpeg, ' +
      'audio/mp4 (M4A/M4B), audio/ogg, or application/zip of audio tracks read in name order (else 415). At most 500 MB by ' +
      'default (the gateway’s PUBLISHER_UPLOAD_MAX_MB): a larger Content-Length is refused with 413 before the body is read, and ' +
      'a body sent without one is stopped with 413 once it passes the limit. The 202 answer is the new content’s status ' +
      '(`queued`); GET …/content follows its ingest to `ready` or `failed`. Readers keep the previous file until the new one is ready; ' +
      'the file readers already get is `ready` at once.',
    params: issueIdParams,
    rawBody: { mediaTypes: ALL_MEDIA_TYPES, description: 'The file: an EPUB, a PDF, one audio file, or a zip of audio tracks' },
    responses: { 202: { description: 'Stored and queued for ingest (or ready at once: the live file again)', schema: ContentStatus } },
    errors: { 404: NOT_FOUND },
    handler: async (ctx) => {
      const issueId = ctx.params.issue_id;
      const issue = await publisherIssueOf(ctx, issueId);
      const { upload } = ctx;
      const accepted = MEDIA_TYPES[issue.type as keyof typeof MEDIA_TYPES] as readonly string[] | undefined;
      if (!accepted) throw new DomainError('FAILED_PRECONDITION', `This issue (${issue.type}) takes no file.`, { reason: 'ISSUE_TAKES_NO_FILE' });
      if (!accepted.includes(upload.mediaType)) {
        throw new DomainError(
          'INVALID_ARGUMENT',
          `${ISSUE_KIND[issue.type as keyof typeof MEDIA_TYPES]} takes ${accepted.join(', ')}, not ${upload.mediaType}.`,
          {
            reason: 'UNSUPPORTED_MEDIA_TYPE',
            fieldErrors: { 'Content-Type': [`must be ${accepted.join(' or ')}`] },
          },
        );
      }
      const header: reader.UploadContentRequest = {
        header: {
          tenantId: ctx.tenant.id,
          issueId,
          issueType: issue.type,
          mediaType: upload.mediaType,
          declaredBytes: upload.declaredBytes,
          title: issue.name,
          authors: issue.authors,
          uploadedBy: ctx.staff.actor,
        },
      };
      async function* messages(): AsyncGenerator<reader.UploadContentRequest> {
        yield header;
        for await (const chunk of upload.chunks()) yield { chunk };
      }
      const { status } = await ctx.services.reader.uploadContent(messages());
      const wire = statusToWire(status);
      await audit(ctx, 'content.upload', `issue:${issueId}`, { content_hash: wire.content_hash, bytes: wire.bytes, media_type: wire.media_type });
      return { status: 202, body: wire };
    },
  }),
  route({
    ...publisher,
    method: 'get',
    path: '/api/v2/publisher/issues/{issue_id}/content',
    summary: "The issue's latest upload and its ingest: queued, processing (with progress), ready or failed",
    description:
      'With the validation findings (EPUBCheck’s for EPUBs, reader’s own checks otherwise), the metadata read from the file, ' +
      'and `live_content_hash` when readers still get an earlier upload.',
    params: issueIdParams,
    responses: { 200: { description: 'The latest upload', schema: ContentStatus } },
    errors: { 404: 'No such issue in this store, or no file uploaded for it yet' },
    handler: async (ctx) => {
      const issueId = ctx.params.issue_id;
      await publisherIssueOf(ctx, issueId);
      const { status } = await ctx.services.reader.getContentStatus({ tenantId: ctx.tenant.id, issueId });
      return { status: 200, body: statusToWire(status) };
    },
  }),
];
