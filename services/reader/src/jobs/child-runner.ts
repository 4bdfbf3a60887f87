// Runs one ingest job in a child process (jobs/ingest-child.ts) with a V8
// heap of INGEST_CHILD_HEAP_MB and a wall clock of INGEST_JOB_TIMEOUT_SECONDS:
// a file that needs more memory or time ends its own job `failed` with a
// reason a publisher understands, and reader itself never runs it.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@folio/logger';
import type { ContentJobRecord, ContentMetadataRecord, FindingRecord, IngestOutcome, IngestRunner } from '../domain/uploads.js';
import type { IngestBounds } from '../ingest/ingest.js';
import type { StorageConfig } from '../storage/from-config.js';
import type { ChildMessage, ChildStart } from './ingest-child.js';

export interface ChildRunnerSettings {
  mongoUrl: string;
  storage: StorageConfig;
  bounds: Partial<IngestBounds>;
  pdfPageWidth: number;
  heapMb: number;
  timeoutMs: number;
  logger: Logger;
  /** The child's entry (tests point at another); the built ingest-child.js by default. */
  entry?: string;
}

/** The built child next to this module; from the TypeScript sources (tests), the package's build of it. */
function defaultEntry(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../dist/jobs/ingest-child.js', here) : new URL('./ingest-child.js', here));
}

/** How much of the child's stderr is kept to tell why it died. */
const STDERR_TAIL = 8 * 1024;

export class ChildProcessIngestRunner implements IngestRunner {
  private readonly running = new Set<ChildProcess>();
  private stopping = false;

  constructor(private readonly settings: ChildRunnerSettings) {}

  run(job: ContentJobRecord, version: string, onProgress: (step: string, progress: number) => void): Promise<IngestOutcome> {
    const { heapMb, timeoutMs, logger } = this.settings;
    const start: ChildStart = {
      type: 'start',
      job: {
        tenantId: job.tenant_id,
        issueId: job.issue_id,
        issueType: job.issue_type,
        mediaType: job.media_type,
        uploadKey: job.upload_key,
        contentHash: job.content_hash,
        title: job.title,
        authors: job.authors,
      },
      version,
      config: { mongoUrl: this.settings.mongoUrl, storage: this.settings.storage, bounds: this.settings.bounds, pdfPageWidth: this.settings.pdfPageWidth },
    };
    return new Promise<IngestOutcome>((resolve) => {
      const child = fork(this.settings.entry ?? defaultEntry(), [], {
        execArgv: [`--max-old-space-size=${heapMb}`],
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        serialization: 'json',
      });
      this.running.add(child);
      let stderr = '';
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => {
        stderr = (stderr + text).slice(-STDERR_TAIL);
      });
      let result: IngestOutcome | undefined;
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.on('message', (message: ChildMessage) => {
        if (message.type === 'progress') onProgress(message.step, message.progress);
        else if (message.ok) {
          result = { ok: true, metadata: metadataOf(message.metadata), findings: findingsOf(message.findings), numberOfPages: message.numberOfPages };
        } else result = { ok: false, error: message.error, retryable: message.retryable };
      });
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        clearTimeout(timer);
        this.running.delete(child);
        if (result) return resolve(result);
        if (this.stopping) return resolve({ ok: false, error: 'Reader stopped while processing the file.', retryable: true });
        if (timedOut) {
          return resolve({ ok: false, error: `Processing the file took longer than the ${minutes(timeoutMs)} allowed for one upload.`, retryable: false });
        }
        const outOfMemory = /heap out of memory|Allocation failed|invalid array length|ERR_OUT_OF_MEMORY/i.test(stderr) || signal === 'SIGABRT' || code === 134;
        logger.warn(
          { issue_id: job.issue_id, job_id: job._id, code, signal, out_of_memory: outOfMemory, stderr: stderr.slice(-1_000) },
          'ingest child ended without a result',
        );
        resolve({
          ok: false,
          error: outOfMemory
            ? `The file needs more memory than the ${heapMb} MB allowed for processing one upload (a compressed part that inflates to far more than its size, or a page or image too large).`
            : `Processing the file ended unexpectedly (${signal ?? `exit code ${code}`}); the file may be damaged.`,
          retryable: false,
        });
      };
      child.once('exit', finish);
      child.once('error', (error) => {
        logger.error({ err: error }, 'ingest child could not start');
        clearTimeout(timer);
        this.running.delete(child);
        resolve({ ok: false, error: 'Processing could not start.', retryable: true });
      });
      child.send(start);
    });
  }

  /** Kills the children still running (shutdown): their jobs stay unacknowledged and run again elsewhere. */
  stop(): void {
    this.stopping = true;
    for (const child of this.running) child.kill('SIGKILL');
  }
}

const minutes = (ms: number) => (ms >= 120_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.round(ms / 1000)} seconds`);

function metadataOf(value: unknown): ContentMetadataRecord {
  return (value && typeof value === 'object' ? value : {}) as ContentMetadataRecord;
}

function findingsOf(value: unknown): FindingRecord[] {
  return Array.isArray(value) ? (value.filter((item) => item && typeof item === 'object') as FindingRecord[]) : [];
}
