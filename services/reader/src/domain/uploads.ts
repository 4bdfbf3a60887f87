// Publishing an issue's file: an upload streams into storage under the
// issue's prefix while it is hashed and counted, becomes a job in
// content_jobs, and waits on the ingest work queue; a worker runs the job
// (in a child process, jobs/) and the new content version replaces the live
// one with the manifest's one write. Idempotent by content hash: the file
// readers already get answers ready at once, and a job delivered again after
// it ended is not run again.
import { createHash, randomUUID } from 'node:crypto';
import { DomainError, invalidArgument, notFound, unavailable } from '@folio/errors';
import { contentFolder } from '../ingest/ingest.js';
import type { ContentStorage } from '../storage/storage.js';
import type { ContentMetadata, ManifestRepository, ValidationFinding } from './repositories.js';

export type IssueType = 'epub' | 'pdf' | 'audio';
export type JobState = 'queued' | 'processing' | 'ready' | 'failed';

/** The media types an issue of each type takes (the gateway's 415 names them too). */
export const MEDIA_TYPES: Record<IssueType, readonly string[]> = {
  epub: ['application/epub+zip'],
  pdf: ['application/pdf'],
  audio: ['audio/mpeg', 'audio/mp4', 'audio/ogg', 'application/zip'],
};

const ISSUE_KIND: Record<IssueType, string> = { epub: 'An EPUB issue', pdf: 'A PDF issue', audio: 'An audio issue' };

/** What the file says of itself (ingest's report), in the proto's ContentMetadata terms. */
export type ContentMetadataRecord = ContentMetadata;
export type FindingRecord = ValidationFinding;

/** One upload and its ingest (collection content_jobs). */
export interface ContentJobRecord {
  _id: string;
  tenant_id: number;
  issue_id: number;
  issue_type: IssueType;
  /** SHA-256 (hex) of the file: the content version (its first 12 characters name the version folder). */
  content_hash: string;
  /** Where the upload waits for its ingest; removed once the job ended. */
  upload_key: string;
  media_type: string;
  bytes: number;
  state: JobState;
  progress: number;
  step: string | null;
  findings: FindingRecord[];
  metadata: ContentMetadataRecord | null;
  error: string | null;
  uploaded_at: Date;
  ready_at: Date | null;
  /** Starts of the job (a redelivery after a crash is one more). */
  attempts: number;
  /** The issue's metadata from catalog, for the cover and the manifest when the file has none. */
  title: string;
  authors: string[];
  uploaded_by: string;
  /** content.ingested was published for this job (a redelivered ready job publishes it when not). */
  announced: boolean;
}

export interface ContentJobRepository {
  create(job: ContentJobRecord): Promise<void>;
  find(tenantId: number, jobId: string): Promise<ContentJobRecord | null>;
  /** The issue's most recent upload. */
  latest(tenantId: number, issueId: number): Promise<ContentJobRecord | null>;
  /** The issue's most recent job of that file that ended ready. */
  latestReady(tenantId: number, issueId: number, contentHash: string): Promise<ContentJobRecord | null>;
  update(tenantId: number, jobId: string, changes: Partial<Omit<ContentJobRecord, '_id' | 'tenant_id'>>): Promise<void>;
  /** Marks the job processing and counts the attempt; the job as it is now. */
  start(tenantId: number, jobId: string): Promise<ContentJobRecord | null>;
}

/** What the queue carries: enough to find the job. */
export interface JobRef {
  tenantId: number;
  issueId: number;
  jobId: string;
}

export interface IngestQueue {
  /** Resolves once the broker holds the job (durably). */
  enqueue(job: JobRef): Promise<void>;
}

export type IngestOutcome =
  | { ok: true; metadata: ContentMetadataRecord; findings: FindingRecord[]; numberOfPages: number | null }
  /** `retryable`: the file is not to blame (a database or storage outage); the job may run again. */
  | { ok: false; error: string; retryable: boolean; findings?: FindingRecord[]; metadata?: ContentMetadataRecord | null };

export interface IngestRunner {
  /** Ingests the job's upload as content version `version` (the manifest switch included). */
  run(job: ContentJobRecord, version: string, onProgress: (step: string, progress: number) => void): Promise<IngestOutcome>;
}

export interface ContentIngestedNotice {
  jobId: string;
  tenantId: number;
  issueId: number;
  contentHash: string;
  type: IssueType;
  numberOfPages: number | null;
  metadata: ContentMetadataRecord | null;
}

export interface ContentAnnouncer {
  /** content.ingested on reader.events: catalog records the metadata, every replica drops the cached manifest. */
  ingested(notice: ContentIngestedNotice): Promise<void>;
}

export interface UploadHeader {
  tenantId: number;
  issueId: number;
  issueType: string;
  mediaType: string;
  /** Content-Length as the client sent it; 0 when it sent none. */
  declaredBytes: number;
  title: string;
  authors: string[];
  uploadedBy: string;
}

export interface UploadLimits {
  maxBytes: number;
  maxAttempts: number;
}

/** What GetContentStatus answers: the latest job, and the live content's hash when it is another. */
export interface ContentStatusView {
  job: ContentJobRecord;
  liveContentHash: string | null;
}

/** The content version (folder name) of a file. */
export const versionOf = (contentHash: string) => contentHash.slice(0, 12);

const MB = 1024 * 1024;
const formatMb = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/** Over the size limit: RESOURCE_EXHAUSTED for a file too large (413 at the HTTP side, not a rate limit's 429). */
export const tooLarge = (maxBytes: number) =>
  new DomainError('RESOURCE_EXHAUSTED', `The file is larger than the ${formatMb(maxBytes)} allowed for one upload.`, { reason: 'FILE_TOO_LARGE' });

export class ContentUploads {
  private readonly now: () => Date;

  constructor(
    private readonly deps: {
      jobs: ContentJobRepository;
      manifests: ManifestRepository;
      storage: ContentStorage;
      queue: IngestQueue;
      limits: UploadLimits;
      now?: () => Date;
    },
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Stores the streamed file (hashed and counted as it comes, never whole in
   * memory) and queues its ingest. Too large: RESOURCE_EXHAUSTED with nothing
   * left behind; a media type the issue type does not take: INVALID_ARGUMENT.
   */
  async upload(header: UploadHeader, chunks: AsyncIterable<Uint8Array>): Promise<ContentStatusView> {
    const { tenantId, issueId } = header;
    const issueType = this.checkHeader(header);
    const { maxBytes } = this.deps.limits;
    if (header.declaredBytes > maxBytes) throw tooLarge(maxBytes);

    const jobId = randomUUID();
    const uploadKey = `${contentFolder(tenantId, issueId)}/uploads/${jobId}`;
    const hash = createHash('sha256');
    let bytes = 0;
    const limit = header.declaredBytes > 0 ? header.declaredBytes : maxBytes;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for await (const chunk of chunks) {
        bytes += chunk.length;
        // Checked as the bytes come: a body longer than it said, or than allowed, stops here.
        if (bytes > limit) throw bytes > maxBytes ? tooLarge(maxBytes) : invalidArgument(`The file is longer than the ${header.declaredBytes} bytes declared.`);
        hash.update(chunk);
        yield chunk;
      }
    }
    try {
      await this.deps.storage.putStream(uploadKey, counted());
      if (bytes === 0) throw invalidArgument('The file is empty.', { file: ['is empty'] });
      if (header.declaredBytes > 0 && bytes !== header.declaredBytes) {
        throw invalidArgument(`The upload ended after ${bytes} of the ${header.declaredBytes} bytes declared.`);
      }
    } catch (error) {
      await this.deps.storage.deletePrefix(uploadKey);
      throw error;
    }
    const contentHash = hash.digest('hex');
    const uploadedAt = this.now();
    const base = {
      _id: jobId,
      tenant_id: tenantId,
      issue_id: issueId,
      issue_type: issueType,
      content_hash: contentHash,
      upload_key: uploadKey,
      media_type: header.mediaType,
      bytes,
      uploaded_at: uploadedAt,
      title: header.title,
      authors: header.authors,
      uploaded_by: header.uploadedBy,
      attempts: 0,
    };

    // The file readers already get: ready at once, nothing to ingest.
    const manifest = await this.deps.manifests.findSummary({ tenantId, issueId });
    if (manifest?.content_version && manifest.source_hash === contentHash) {
      await this.deps.storage.deletePrefix(uploadKey);
      const live = await this.deps.jobs.latestReady(tenantId, issueId, contentHash);
      const job: ContentJobRecord = {
        ...base,
        state: 'ready',
        progress: 100,
        step: null,
        findings: live?.findings ?? [],
        metadata: live?.metadata ?? null,
        error: null,
        ready_at: live?.ready_at ?? manifest.ingested_at,
        announced: true,
      };
      await this.deps.jobs.create(job);
      return { job, liveContentHash: null };
    }

    const job: ContentJobRecord = {
      ...base,
      state: 'queued',
      progress: 0,
      step: null,
      findings: [],
      metadata: null,
      error: null,
      ready_at: null,
      announced: false,
    };
    await this.deps.jobs.create(job);
    try {
      await this.deps.queue.enqueue({ tenantId, issueId, jobId });
    } catch {
      // Not queued, so never run: the publisher uploads again once the broker is back.
      const error = 'The file could not be queued for processing; upload it again.';
      await this.deps.jobs.update(tenantId, jobId, { state: 'failed', error });
      await this.deps.storage.deletePrefix(uploadKey);
      throw unavailable('Publishing is unavailable for a moment; upload the file again.', 5);
    }
    return { job, liveContentHash: manifest?.content_version ? manifest.source_hash : null };
  }

  /** The issue's latest upload; NOT_FOUND when there is none. */
  async status(tenantId: number, issueId: number): Promise<ContentStatusView> {
    const job = await this.deps.jobs.latest(tenantId, issueId);
    if (!job) throw notFound('No file was uploaded for this issue.');
    const manifest = await this.deps.manifests.findSummary({ tenantId, issueId });
    const live = manifest?.content_version ? manifest.source_hash : null;
    return { job, liveContentHash: live && live !== job.content_hash ? live : null };
  }

  private checkHeader(header: UploadHeader): IssueType {
    const errors: Record<string, string[]> = {};
    if (!Number.isSafeInteger(header.tenantId) || header.tenantId < 1) errors.tenant_id = ['must be a positive integer'];
    if (!Number.isSafeInteger(header.issueId) || header.issueId < 1) errors.issue_id = ['must be a positive integer'];
    if (!Number.isSafeInteger(header.declaredBytes) || header.declaredBytes < 0) errors.declared_bytes = ['must be 0 or more'];
    const issueType = header.issueType as IssueType;
    if (!(issueType in MEDIA_TYPES)) errors.issue_type = ['must be epub, pdf or audio'];
    if (Object.keys(errors).length > 0) throw invalidArgument('The upload header is invalid.', errors);
    if (!MEDIA_TYPES[issueType].includes(header.mediaType)) {
      throw new DomainError(
        'INVALID_ARGUMENT',
        `${ISSUE_KIND[issueType]} takes ${MEDIA_TYPES[issueType].join(', ')}, not ${header.mediaType || 'an unnamed type'}.`,
        {
          reason: 'UNSUPPORTED_MEDIA_TYPE',
          fieldErrors: { 'Content-Type': [`must be ${MEDIA_TYPES[issueType].join(' or ')}`] },
        },
      );
    }
    return issueType;
  }
}

/**
 * The worker's use case: runs one job delivered by the queue. Resolves when
 * the message may be acknowledged ('done'), or asks for a later redelivery
 * ('retry', the file not being to blame). At least once: a job that already
 * ended is not run again; one left `processing` by a crash runs again until
 * its attempts are spent.
 */
export class IngestJobs {
  constructor(
    private readonly deps: {
      jobs: ContentJobRepository;
      manifests: ManifestRepository;
      storage: ContentStorage;
      runner: IngestRunner;
      announcer: ContentAnnouncer;
      limits: UploadLimits;
      now?: () => Date;
      log?: (level: 'info' | 'warn', fields: Record<string, unknown>, message: string) => void;
    },
  ) {}

  async run(ref: JobRef): Promise<'done' | 'retry'> {
    const { tenantId } = ref;
    const { jobs } = this.deps;
    const found = await jobs.find(tenantId, ref.jobId);
    if (!found) return 'done';
    if (found.state === 'ready') {
      if (!found.announced) await this.announce(found);
      return 'done';
    }
    if (found.state === 'failed') return 'done';
    // Ingested and switched already (a crash between the switch and the job's update).
    const manifest = await this.deps.manifests.findSummary({ tenantId, issueId: found.issue_id });
    if (manifest?.content_version === versionOf(found.content_hash) && manifest.source_hash === found.content_hash) {
      await this.finishReady(found, found.metadata, found.findings, null);
      return 'done';
    }
    // Only the issue's latest upload becomes its content: an older one still waiting (or delivered
    // again) must not replace a newer file, or waste a worker.
    const latest = await jobs.latest(tenantId, found.issue_id);
    if (latest && latest._id !== found._id && latest.uploaded_at > found.uploaded_at) {
      await this.fail(found, 'A newer file was uploaded for this issue before this one was processed.');
      return 'done';
    }
    if (found.attempts >= this.deps.limits.maxAttempts) {
      await this.fail(found, `Processing the file stopped ${found.attempts} times without finishing; upload it again or contact support.`);
      return 'done';
    }
    const job = await jobs.start(tenantId, found._id);
    if (!job) return 'done';
    const version = versionOf(job.content_hash);
    let lastWrite = 0;
    const outcome = await this.deps.runner.run(job, version, (step, progress) => {
      // Progress is written at most twice a second: a PDF of many pages reports per page.
      const now = Date.now();
      if (now - lastWrite < 500) return;
      lastWrite = now;
      jobs.update(tenantId, job._id, { step, progress: Math.max(0, Math.min(99, Math.round(progress))) }).catch(() => {});
    });
    if (outcome.ok) {
      await this.finishReady(job, outcome.metadata, outcome.findings, outcome.numberOfPages);
      return 'done';
    }
    if (outcome.retryable && job.attempts < this.deps.limits.maxAttempts) {
      this.deps.log?.(
        'warn',
        { job_id: job._id, attempt: job.attempts, reason: outcome.error },
        'ingest job failed for a reason outside the file; it runs again',
      );
      await jobs.update(tenantId, job._id, { state: 'queued', step: null, progress: 0 });
      return 'retry';
    }
    await this.fail(job, outcome.error, outcome.findings, outcome.metadata ?? null);
    // The version folder of a failed ingest holds nothing a manifest names.
    await this.deps.storage.deletePrefix(contentFolder(job.tenant_id, job.issue_id, version)).catch(() => {});
    return 'done';
  }

  private async finishReady(
    job: ContentJobRecord,
    metadata: ContentMetadataRecord | null,
    findings: FindingRecord[],
    numberOfPages: number | null,
  ): Promise<void> {
    const readyAt = this.deps.now?.() ?? new Date();
    await this.deps.jobs.update(job.tenant_id, job._id, { state: 'ready', progress: 100, step: null, metadata, findings, error: null, ready_at: readyAt });
    await this.deps.storage.deletePrefix(job.upload_key);
    await this.announce({ ...job, metadata }, numberOfPages);
  }

  private async announce(job: ContentJobRecord, numberOfPages: number | null = job.metadata?.number_of_pages ?? null): Promise<void> {
    await this.deps.announcer.ingested({
      jobId: job._id,
      tenantId: job.tenant_id,
      issueId: job.issue_id,
      contentHash: job.content_hash,
      type: job.issue_type,
      numberOfPages,
      metadata: job.metadata,
    });
    await this.deps.jobs.update(job.tenant_id, job._id, { announced: true });
  }

  private async fail(
    job: ContentJobRecord,
    error: string,
    findings: FindingRecord[] = job.findings,
    metadata: ContentMetadataRecord | null = job.metadata,
  ): Promise<void> {
    this.deps.log?.('info', { job_id: job._id, issue_id: job.issue_id, reason: error }, 'ingest job failed');
    await this.deps.jobs.update(job.tenant_id, job._id, { state: 'failed', step: null, error, findings, metadata });
    await this.deps.storage.deletePrefix(job.upload_key);
  }
}
