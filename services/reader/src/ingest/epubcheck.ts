// An EPUB's validation by EPUBCheck (the W3C's checker, Debian's `epubcheck`
// 4.2): its JSON report turned into findings. EPUBCheck's errors are what a
// publisher should fix, not a reason to refuse a file reader can read, so
// every outcome here is findings: a missing checker, one that ran past its
// time or memory, or one that crashed is a single `info` finding. The JVM
// runs with a bounded heap and is killed (SIGKILL) past its time; only the
// ingest's own abort (its deadline) is thrown.
import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ValidationFinding } from '../domain/repositories.js';
import { formatDuration } from './tools.js';

export interface ValidateEpubOptions {
  /** EPUBCheck is stopped after this long (default 120 s). */
  timeoutMs?: number;
  /** Stops EPUBCheck and throws the signal's reason (the ingest's deadline). */
  signal?: AbortSignal;
  /** The JVM's heap (-Xmx), in MB (default 384). */
  maxHeapMb?: number;
  /** The epubcheck program or jar; found on the PATH or as Debian installs it when unset. */
  command?: string;
  /** At most this many findings are kept (default 200); one more says how many were left out. */
  maxFindings?: number;
}

/** Where EPUBCheck is installed: Debian's /usr/bin/epubcheck is a link to its jar (run by binfmt_misc where that is set up). */
const INSTALLED = ['/usr/bin/epubcheck', '/usr/local/bin/epubcheck', '/usr/share/java/epubcheck.jar'];
/** A report larger than this is not read (tens of thousands of messages). */
const MAX_REPORT_BYTES = 32 * 1024 * 1024;

const SEVERITIES: Record<string, ValidationFinding['severity']> = {
  FATAL: 'fatal',
  ERROR: 'error',
  WARNING: 'warning',
  USAGE: 'info',
  INFO: 'info',
};

/** The program and arguments that run EPUBCheck, or null when it is not installed. */
function epubcheckCommand(command: string | undefined, maxHeapMb: number): { file: string; args: string[]; env: NodeJS.ProcessEnv } | null {
  const candidates = command ? [command] : INSTALLED;
  const found = candidates.find((candidate) => candidate && existsSync(candidate));
  if (!found) return null;
  // The JVM's flags: a bounded heap, the serial collector (one GC thread), no JIT tiers past the first (a run is short).
  const jvm = [`-Xmx${maxHeapMb}m`, '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Xss2m', '-Djava.awt.headless=true'];
  // A jar (Debian's link) is run with java, so that the flags apply without binfmt_misc.
  if (realpathSync(found).endsWith('.jar')) return { file: 'java', args: [...jvm, '-jar', realpathSync(found)], env: CHILD_ENV };
  // A wrapper script starts the JVM itself: the heap bound goes through the JVM's own variable.
  return { file: found, args: [], env: { ...CHILD_ENV, JAVA_TOOL_OPTIONS: `-Xmx${maxHeapMb}m` } };
}

/** The checker's whole environment: it needs none of the service's (its credentials least of all). */
const CHILD_ENV: NodeJS.ProcessEnv = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8' };

const info = (code: string, message: string): ValidationFinding => ({ severity: 'info', code, message });

/** Runs EPUBCheck on `file`: its messages as findings, or one `info` finding saying why there are none. */
export async function validateEpub(file: string, options: ValidateEpubOptions = {}): Promise<ValidationFinding[]> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxHeapMb = options.maxHeapMb ?? 384;
  options.signal?.throwIfAborted();
  const command = epubcheckCommand(options.command, maxHeapMb);
  if (!command) return [info('FOLIO-EPUBCHECK-001', 'EPUBCheck is not installed here: the EPUB was read but not validated')];
  const directory = await mkdtemp(join(tmpdir(), 'reader-epubcheck-'));
  const report = join(directory, 'report.json');
  try {
    const outcome = await new Promise<{ code: number | null; killed: boolean; missing: boolean; stderr: string }>((resolve, reject) => {
      execFile(
        command.file,
        [...command.args, file, '--json', report, '-q'],
        {
          timeout: timeoutMs,
          killSignal: 'SIGKILL',
          maxBuffer: 4 * 1024 * 1024,
          env: command.env,
          ...(options.signal && { signal: options.signal }),
        },
        (error, _stdout, stderr) => {
          if (options.signal?.aborted) return reject(options.signal.reason as Error);
          const failure = error as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
          resolve({
            code: failure ? (typeof failure.code === 'number' ? failure.code : -1) : 0,
            killed: Boolean(failure?.killed),
            missing: failure?.code === 'ENOENT',
            stderr: String(stderr),
          });
        },
      );
    });
    if (outcome.missing)
      return [info('FOLIO-EPUBCHECK-001', `EPUBCheck could not be started (${command.file} is not installed): the EPUB was read but not validated`)];
    if (outcome.killed)
      return [info('FOLIO-EPUBCHECK-002', `EPUBCheck did not finish within the ${formatDuration(timeoutMs)} allowed: the EPUB was read but not validated`)];
    const size = await stat(report).then(
      (stats) => stats.size,
      () => -1,
    );
    if (size < 0 || size > MAX_REPORT_BYTES) {
      const reason = /OutOfMemoryError/.test(outcome.stderr)
        ? `needed more than the ${maxHeapMb} MB of memory allowed`
        : size > MAX_REPORT_BYTES
          ? 'wrote a report too large to read'
          : `failed (${outcome.stderr.trim().split('\n').slice(-1)[0]?.slice(0, 200) || `exit status ${outcome.code}`})`;
      return [info('FOLIO-EPUBCHECK-003', `EPUBCheck ${reason}: the EPUB was read but not validated`)];
    }
    return findingsOf(JSON.parse(await readFile(report, 'utf8')) as EpubcheckReport, options.maxFindings ?? 200);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof SyntaxError) return [info('FOLIO-EPUBCHECK-003', 'EPUBCheck wrote a report that does not parse: the EPUB was read but not validated')];
    throw error;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

interface EpubcheckReport {
  messages?: {
    ID?: string;
    severity?: string;
    message?: string;
    locations?: { path?: string; line?: number; column?: number }[];
  }[];
}

/** EPUBCheck's messages, one finding per message at its first location, the most severe first. */
export function findingsOf(report: EpubcheckReport, maxFindings: number): ValidationFinding[] {
  const findings: ValidationFinding[] = (report.messages ?? []).map((message) => {
    const at = message.locations?.[0];
    const location = at?.path
      ? [at.path, ...(at.line !== undefined && at.line > 0 ? [at.line, ...(at.column !== undefined && at.column > 0 ? [at.column] : [])] : [])].join(':')
      : undefined;
    const extra = (message.locations?.length ?? 0) - 1;
    return {
      severity: SEVERITIES[message.severity ?? ''] ?? 'info',
      code: message.ID ?? 'EPUBCHECK',
      message: `${message.message ?? ''}${extra > 0 ? ` (and ${extra} more place${extra === 1 ? '' : 's'})` : ''}`.trim(),
      ...(location !== undefined && { location }),
    };
  });
  const rank = { fatal: 0, error: 1, warning: 2, info: 3 } as const;
  findings.sort((a, b) => rank[a.severity] - rank[b.severity]);
  if (findings.length <= maxFindings) return findings;
  const left = findings.length - maxFindings;
  return [...findings.slice(0, maxFindings), info('FOLIO-EPUBCHECK-004', `${left} more EPUBCheck message${left === 1 ? '' : 's'} not listed`)];
}
