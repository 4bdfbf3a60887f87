// Runs the external programs the ingest and the seed use (poppler, espeak-ng,
// lame): no shell, arguments as an array, output captured, a clear error naming
// the program when it is missing or fails.
import { execFile } from 'node:child_process';

export class ToolError extends Error {
  override readonly name = 'ToolError';
}

export function run(
  program: string,
  args: string[],
  options: { input?: Buffer | string; timeoutMs?: number; encoding?: 'utf8' | 'buffer' } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      program,
      args,
      { encoding: 'buffer', maxBuffer: 512 * 1024 * 1024, timeout: options.timeoutMs ?? 300_000 },
      (error, stdout, stderr) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          const reason = code === 'ENOENT' ? `${program} is not installed` : `${program} failed: ${String(stderr).trim().slice(0, 500) || error.message}`;
          reject(new ToolError(reason));
        } else resolve(stdout);
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Width and height of a PNG, from its IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  const signature = '89504e470d0a1a0a';
  if (png.length < 24 || png.subarray(0, 8).toString('hex') !== signature || png.subarray(12, 16).toString('ascii') !== 'IHDR') {
    throw new ToolError('not a PNG image');
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
