// Runs the local engines' command-line tools (apertium, espeak-ng, lame) as a
// pipeline of child processes connected stdin to stdout, without temporary
// files or a shell. Each process leads its own process group so that a
// timeout kills the wrapper scripts' children too (apertium is a shell script
// around its own pipeline).
import { spawn, type ChildProcess } from 'node:child_process';

export interface Command {
  bin: string;
  args: string[];
}

export class ProcessFailedError extends Error {
  override readonly name = 'ProcessFailedError';
}

const STDERR_KEEP = 2_000;

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Pipes `input` through `commands` and resolves with the last one's stdout. */
export function runPipeline(commands: Command[], input: string | Buffer, options: { signal?: AbortSignal } = {}): Promise<Buffer> {
  if (commands.length === 0) return Promise.resolve(Buffer.from(input));
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));

  return new Promise<Buffer>((resolve, reject) => {
    const children = commands.map((command) =>
      // The tools inherit the process environment as it is (PATH, locale data paths): nothing here is read as config.
      // eslint-disable-next-line no-restricted-properties
      spawn(command.bin, command.args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true, env: { ...process.env, LC_ALL: 'C.UTF-8' } }),
    );
    const output: Buffer[] = [];
    const stderr = children.map(() => '');
    const done = new Set<number>();
    let failure: Error | undefined;
    let settled = false;

    const finish = () => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (failure) reject(failure);
      else resolve(Buffer.concat(output));
    };
    const fail = (error: Error) => {
      failure ??= error;
      for (const child of children) {
        killGroup(child);
        // A child's 'close' waits for its pipes: a stage whose reader died would never close otherwise.
        child.stdin?.destroy();
        child.stdout?.destroy();
        child.stderr?.destroy();
      }
    };
    const markDone = (index: number) => {
      done.add(index);
      if (done.size === children.length) finish();
    };
    const onAbort = () => fail(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });

    children.forEach((child, index) => {
      const name = commands[index]!.bin;
      child.on('error', (error) => {
        fail(new ProcessFailedError(`${name}: ${error.message}`));
        markDone(index);
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        if (stderr[index]!.length < STDERR_KEEP) stderr[index] += chunk.toString('utf8');
      });
      // A broken pipe after a failure elsewhere is reported by that failure.
      child.stdin!.on('error', () => {});
      const next = children[index + 1];
      if (next) child.stdout!.pipe(next.stdin!);
      else child.stdout!.on('data', (chunk: Buffer) => output.push(chunk));
      child.on('close', (code, signalName) => {
        if (code !== 0 && !failure) {
          const reason = signalName ? `killed by ${signalName}` : `exit code ${code}`;
          fail(new ProcessFailedError(`${name} failed (${reason}): ${stderr[index]!.trim().slice(0, 500)}`));
        }
        markDone(index);
      });
    });
    children[0]!.stdin!.end(input);
  });
}

/** Runs one command and returns its stdout as text (e.g. `apertium -l`). */
export async function runCommand(bin: string, args: string[], options: { signal?: AbortSignal } = {}): Promise<string> {
  return (await runPipeline([{ bin, args }], '', options)).toString('utf8');
}
