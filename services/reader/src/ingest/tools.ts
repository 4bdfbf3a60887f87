// Runs the external programs the ingest and the seed use (poppler, espeak-ng,
// lame): no shell, arguments as an array, output captured up to a cap, a clear
// error naming the program when it is missing, fails, runs past its timeout or
// is aborted (the ingest's deadline); a process past its time is killed (SIGKILL).
// A memory cap is the child's address space, set by prlimit (util-linux, in every
// Debian image) when the program starts; where prlimit is missing it is not applied.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((path) => existsSync(path)) ?? null;

export class ToolError extends Error {
  override readonly name = 'ToolError';
}

/** A duration as a publisher reads it in a message: `200 ms`, `300 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 1000)} s`;
}

export function run(
  program: string,
  args: string[],
  options: {
    input?: Buffer | string;
    timeoutMs?: number;
    encoding?: 'utf8' | 'buffer';
    signal?: AbortSignal;
    maxOutputBytes?: number;
    /** Address space of the child; an allocation past it fails inside the program. */
    maxMemoryBytes?: number;
  } = {},
): Promise<Buffer> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  const maxBuffer = options.maxOutputBytes ?? 64 * 1024 * 1024;
  const capped = options.maxMemoryBytes !== undefined && PRLIMIT !== null;
  const memory = `${Math.round((options.maxMemoryBytes ?? 0) / 1024 / 1024)} MB`;
  const [file, argv] = capped ? [PRLIMIT!, [`--as=${Math.floor(options.maxMemoryBytes!)}`, '--', program, ...args]] : [program, args];
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(options.signal.reason as Error);
      return;
    }
    const child = execFile(
      file,
      argv,
      { encoding: 'buffer', maxBuffer, timeout: timeoutMs, killSignal: 'SIGKILL', ...(options.signal && { signal: options.signal }) },
      (error, stdout, stderr) => {
        if (error) {
          const failure = error as NodeJS.ErrnoException & { killed?: boolean };
          if (options.signal?.aborted) reject(options.signal.reason as Error);
          else if (failure.code === 'ENOENT' || (capped && /failed to execute/.test(String(stderr)))) reject(new ToolError(`${program} is not installed`));
          else if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
            reject(new ToolError(`${program} wrote more than ${Math.round(maxBuffer / 1024 / 1024)} MB`));
          else if (failure.killed) reject(new ToolError(`${program} took longer than the ${formatDuration(timeoutMs)} allowed and was stopped`));
          else if (capped && outOfMemory(String(stderr))) reject(new ToolError(`${program} needed more than the ${memory} of memory allowed`));
          else reject(new ToolError(`${program} failed: ${String(stderr).trim().slice(0, 500) || error.message}`));
        } else if (capped && outOfMemory(String(stderr))) {
          // poppler reports a failed allocation and carries on with an empty result (a 1x1 page): a failure all the same.
          reject(new ToolError(`${program} needed more than the ${memory} of memory allowed`));
        } else resolve(stdout);
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

const outOfMemory = (stderr: string) => /out of memory|bad_alloc|cannot allocate memory|failed to map segment/i.test(stderr);

/** Width and height of a PNG, from its IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  const signature = '89504e470d0a1a0a';
  if (png.length < 24 || png.subarray(0, 8).toString('hex') !== signature || png.subarray(12, 16).toString('ascii') !== 'IHDR') {
    throw new ToolError('not a PNG image');
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
