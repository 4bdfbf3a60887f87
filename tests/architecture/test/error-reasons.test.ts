// Services name what happened; only the gateway speaks HTTP (docs/architecture.md,
// "Wire and error conventions"). A DomainError of a service carries a reason
// (ErrorReason in packages/errors), and the one table there turns it into the
// status the gateway answers. A service that set `details.httpStatus` itself
// would choose an HTTP status behind the table's back, so none may.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');

/** The gateway is the HTTP edge: its own HTTP layer may set an exact status. */
const HTTP_EDGE = 'gateway';

/** `httpStatus` as a word: not httpStatusOf (reading a status) nor an SDK's httpStatusCode. */
const SETS_HTTP_STATUS = /\bhttpStatus\b/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function serviceSources(): string[] {
  return readdirSync(join(root, 'services'))
    .filter((service) => service !== HTTP_EDGE)
    .flatMap((service) => {
      const src = join(root, 'services', service, 'src');
      try {
        statSync(src);
      } catch {
        return [];
      }
      return walk(src).filter((path) => /\.(ts|mts|cts|js|mjs)$/.test(path) && !path.endsWith('.d.ts'));
    });
}

describe('error reasons: services name a reason, never an HTTP status', () => {
  it('when a file under services/*/src outside the gateway sets httpStatus, then the check names its lines', () => {
    const found: string[] = [];
    for (const path of serviceSources()) {
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (SETS_HTTP_STATUS.test(line)) found.push(`${relative(root, path).split(sep).join('/')}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(
      found,
      'a service sets an HTTP status: name what happened with `reason` (ErrorReason in packages/errors, adding it and its status to REASON_STATUS there) instead of `httpStatus`, or `failedPrecondition(message, reason)`',
    ).toEqual([]);
  });

  it('when the scan runs, then it sees the services (so an empty result means something)', () => {
    expect(serviceSources().some((path) => path.includes(`${sep}identity${sep}src${sep}`))).toBe(true);
  });
});
