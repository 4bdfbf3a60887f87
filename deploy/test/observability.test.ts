// The alert rules and the scrape configuration shipped in deploy/observability
// fit together: every alert has a promtool unit test, the scrape job gives
// every target the `service` label the rules group by, and the Kubernetes
// rules read the namespace the overlays deploy into. (The rules themselves
// are checked by promtool in packages/telemetry/test/alert-rules.test.ts.)
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { DEPLOY_DIR, REPO_ROOT, findKustomize, overlayNames, renderOverlay, selectorMatches, workloadsOf } from './render.js';

const DIR = `${REPO_ROOT}deploy/observability/`;
const read = (file: string) => parse(readFileSync(DIR + file, 'utf8'));

interface RuleGroup {
  name: string;
  rules: { alert?: string; record?: string; expr: string }[];
}
interface RelabelConfig {
  source_labels?: string[];
  target_label?: string;
  action?: string;
}
interface ScrapeConfig {
  job_name: string;
  kubernetes_sd_configs?: { role: string; namespaces?: { names: string[] } }[];
  static_configs?: unknown[];
  relabel_configs: RelabelConfig[];
}

const groups = (read('alerts.yaml') as { groups: RuleGroup[] }).groups;
const alerts = groups.flatMap((group) => group.rules.map((rule) => rule.alert).filter((name): name is string => !!name));
const scrape = read('scrape-config.yaml') as { scrape_configs: ScrapeConfig[] };

describe('alert rules and their tests', () => {
  it('when alerts.yaml is read, then every alert is exercised by a promtool unit test', () => {
    const tests = (read('alerts.test.yaml') as { tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[] }).tests;
    const tested = new Set(tests.flatMap((test) => (test.alert_rule_test ?? []).filter((t) => t.exp_alerts.length > 0).map((t) => t.alertname)));
    expect(alerts.filter((alert) => !tested.has(alert))).toEqual([]);
  });

  it('when the Kubernetes alerts name a namespace, then it is the one the overlays deploy into', () => {
    const namespaces = new Set(
      groups
        .find((group) => group.name === 'folio-kubernetes')!
        .rules.flatMap((rule) => [...rule.expr.matchAll(/namespace="([^"]+)"/g)].map((match) => match[1])),
    );
    const production = parse(readFileSync(`${REPO_ROOT}deploy/overlays/production/kustomization.yaml`, 'utf8')) as { namespace: string };
    expect([...namespaces]).toEqual([production.namespace]);
  });
});

describe('scrape configuration', () => {
  const job = scrape.scrape_configs.find((config) => config.job_name === 'folio-pods')!;

  it('when a pod is discovered, then its app.kubernetes.io/name becomes the `service` label the alerts group by', () => {
    expect(job.relabel_configs).toContainEqual({ source_labels: ['__meta_kubernetes_pod_label_app_kubernetes_io_name'], target_label: 'service' });
    expect(job.kubernetes_sd_configs?.[0]?.namespaces?.names).toEqual([
      (parse(readFileSync(`${REPO_ROOT}deploy/overlays/production/kustomization.yaml`, 'utf8')) as { namespace: string }).namespace,
    ]);
  });

  const promtoolFound = spawnSync('promtool', ['--version']).status === 0;
  it.skipIf(!promtoolFound)('when promtool checks it, then the configuration and its relabelling are valid', async () => {
    // Debian's Prometheus is built without Kubernetes discovery, so promtool
    // checks the same job with a static target in its place.
    const dir = mkdtempSync(join(tmpdir(), 'folio-scrape-'));
    const { kubernetes_sd_configs: _discovery, ...rest } = job;
    writeFileSync(join(dir, 'alerts.yaml'), readFileSync(DIR + 'alerts.yaml'));
    writeFileSync(
      join(dir, 'prometheus.yml'),
      stringify({ ...scrape, scrape_configs: [{ ...rest, static_configs: [{ targets: ['127.0.0.1:9464'] }] }] }),
    );
    const { stdout } = await promisify(execFile)('promtool', ['check', 'config', join(dir, 'prometheus.yml')]);
    expect(stdout).toContain('SUCCESS');
  });
});

describe('the Prometheus Operator path', () => {
  const kustomize = findKustomize();
  if (!kustomize) throw new Error('kustomize not found: ./dev up installs it into .local/bin (ensure_kustomize)');

  it('when the production overlay is rendered, then its PodMonitor scrapes every service on its metrics port and labels it `service`', () => {
    const objects = renderOverlay(kustomize, 'production');
    const monitors = objects.filter((object) => object.kind === 'PodMonitor');
    expect(monitors).toHaveLength(1);
    const monitor = monitors[0]!;
    const endpoints = monitor.spec.podMetricsEndpoints as { port: string; path: string; relabelings?: { sourceLabels?: string[]; targetLabel?: string }[] }[];
    for (const workload of workloadsOf(objects).filter((w) => w.ownService)) {
      expect(selectorMatches(monitor.spec.selector, workload.podLabels), workload.name).toBe(true);
      const ports = workload.pod.containers.flatMap((container) => container.ports ?? []);
      expect(endpoints.some((endpoint) => ports.some((port) => port.name === endpoint.port)), `${workload.name} names the scraped port`).toBe(true);
    }
    for (const endpoint of endpoints) {
      expect(endpoint.relabelings).toContainEqual({ sourceLabels: ['__meta_kubernetes_pod_label_app_kubernetes_io_name'], targetLabel: 'service' });
    }
  });

  it('when the components are listed, then every one is used by an overlay', () => {
    const used = new Set(
      overlayNames().flatMap((overlay) => {
        const kustomization = parse(readFileSync(`${DEPLOY_DIR}overlays/${overlay}/kustomization.yaml`, 'utf8')) as { components?: string[] };
        return (kustomization.components ?? []).map((path) => path.split('/').at(-1)!);
      }),
    );
    const components = readdirSync(`${DEPLOY_DIR}components`, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(components.filter((component) => !used.has(component))).toEqual([]);
  });
});
