// The provisioned alert rules (deploy/observability/alerts.yaml) are valid
// Prometheus rules and fire on the failures they name: `promtool check rules`
// and promtool's own unit tests (alerts.test.yaml). promtool comes with the
// Debian prometheus package, which ./dev installs.
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const RULES_DIR = fileURLToPath(new URL('../../../deploy/observability/', import.meta.url));
const promtoolFound = spawnSync('promtool', ['--version']).status === 0;
if (!promtoolFound) console.warn('alert rules not checked: promtool is not installed (apt-get install prometheus, or ./dev up)');

async function promtool(...args: string[]): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)('promtool', args, { cwd: RULES_DIR });
  return stdout + stderr;
}

describe.skipIf(!promtoolFound)('alert rules', () => {
  it('when promtool checks alerts.yaml, then every rule is valid', async () => {
    expect(await promtool('check', 'rules', 'alerts.yaml')).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('when the failures of alerts.test.yaml happen, then the alerts fire with their labels and text, and stay quiet otherwise', async () => {
    expect(await promtool('test', 'rules', 'alerts.test.yaml')).toContain('SUCCESS');
  });
});
