import { describe, expect, it } from 'vitest';
import { ProcessFailedError, runPipeline } from './processes.js';

describe('runPipeline', () => {
  it('when commands are chained, then stdin flows through each into the result', async () => {
    const output = await runPipeline(
      [
        { bin: 'tr', args: ['a-z', 'A-Z'] },
        { bin: 'rev', args: [] },
      ],
      'hello',
    );
    expect(output.toString()).toBe('OLLEH');
  });

  it('when a stage fails, then the pipeline fails naming it', async () => {
    await expect(
      runPipeline(
        [
          { bin: 'cat', args: [] },
          { bin: 'sh', args: ['-c', 'echo broken >&2; exit 3'] },
        ],
        'x',
      ),
    ).rejects.toThrow(/sh failed \(exit code 3\): broken/);
  });

  it('when the binary is missing, then the pipeline fails instead of hanging', async () => {
    await expect(runPipeline([{ bin: 'definitely-not-installed-xyz', args: [] }], 'x')).rejects.toBeInstanceOf(ProcessFailedError);
  });

  it('when the signal aborts, then the whole process group is killed at once', async () => {
    const controller = new AbortController();
    const started = performance.now();
    // A shell whose child sleeps: killing only the shell would leave the sleep running and the pipe open.
    const run = runPipeline([{ bin: 'sh', args: ['-c', 'sleep 30; echo done'] }], '', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('timed out')), 100);
    await expect(run).rejects.toThrow(/timed out/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
