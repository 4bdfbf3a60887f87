// Renders an overlay with kustomize (built from its Go module by ./dev's
// ensure_kustomize into .local/bin, or found on PATH) and gives typed access to
// the objects the rules look at.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DEPLOY_DIR = fileURLToPath(new URL('../', import.meta.url));

export type Labels = Record<string, string>;

export interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Labels; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}

export interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name?: string; key: string } } }[];
  envFrom?: unknown[];
  readinessProbe?: Record<string, any>;
  livenessProbe?: Record<string, any>;
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    runAsNonRoot?: boolean;
    capabilities?: { drop?: string[] };
  };
}

export interface Workload {
  kind: string;
  name: string;
  namespace: string;
  replicas: number | undefined;
  podLabels: Labels;
  podAnnotations: Record<string, string>;
  pod: {
    terminationGracePeriodSeconds?: number;
    securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
    topologySpreadConstraints?: { topologyKey: string; labelSelector?: LabelSelector; whenUnsatisfiable: string }[];
    containers: Container[];
  };
  /** Folio's own services (the base's part-of label), as opposed to the local overlay's throwaway stores. */
  ownService: boolean;
}

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

/** .local/bin/kustomize when ./dev installed it, else the one on PATH; undefined when neither runs. */
export function findKustomize(): string | undefined {
  const candidates = [`${REPO_ROOT}.local/bin/kustomize`, 'kustomize'];
  return candidates.find((bin) => (bin === 'kustomize' || existsSync(bin)) && spawnSync(bin, ['version']).status === 0);
}

export function overlayNames(): string[] {
  return readdirSync(`${DEPLOY_DIR}overlays`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`${DEPLOY_DIR}overlays/${entry.name}/kustomization.yaml`))
    .map((entry) => entry.name)
    .sort();
}

export function renderOverlay(kustomize: string, overlay: string): K8sObject[] {
  const output = execFileSync(kustomize, ['build', `${DEPLOY_DIR}overlays/${overlay}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return parseAllDocuments(output)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`kustomize output of ${overlay} is not YAML: ${doc.errors[0]?.message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((object): object is K8sObject => object !== null);
}

export function workloadsOf(objects: K8sObject[]): Workload[] {
  return objects
    .filter((object) => WORKLOAD_KINDS.has(object.kind))
    .map((object) => ({
      kind: object.kind,
      name: object.metadata.name,
      namespace: object.metadata.namespace ?? 'default',
      replicas: object.spec.replicas,
      podLabels: object.spec.template.metadata?.labels ?? {},
      podAnnotations: object.spec.template.metadata?.annotations ?? {},
      pod: object.spec.template.spec,
      ownService: object.metadata.labels?.['app.kubernetes.io/part-of'] === 'folio',
    }));
}

export function selectorMatches(selector: LabelSelector | undefined, labels: Labels): boolean {
  if (!selector) return false;
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpression = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case 'In':
        return key in labels && values.includes(labels[key]!);
      case 'NotIn':
        return !(key in labels) || !values.includes(labels[key]!);
      case 'Exists':
        return key in labels;
      case 'DoesNotExist':
        return !(key in labels);
    }
  });
  return byLabel && byExpression;
}

export function envValue(container: Container, name: string): string | undefined {
  return container.env?.find((variable) => variable.name === name)?.value;
}

/** The secret key a variable is read from (`MONGO_URL` <- `NOTES_MONGO_URL`), or its plain value's presence. */
export function hasEnv(container: Container, name: string): boolean {
  return container.env?.some((variable) => variable.name === name) ?? false;
}

/** Seconds the preStop hook holds SIGTERM back: `sleep N` or the native sleep action. */
export function preStopSeconds(container: Container): number {
  const preStop = container.lifecycle?.preStop;
  if (preStop?.sleep) return preStop.sleep.seconds;
  const command = preStop?.exec?.command ?? [];
  if (command[0] === 'sleep' && command.length === 2) return Number(command[1]);
  return 0;
}

/** `repo/name:tag` or `name@sha256:...`: the tag (or digest) part, undefined when there is none. */
export function imageTag(image: string): string | undefined {
  const at = image.indexOf('@');
  if (at >= 0) return image.slice(at + 1);
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  const colon = lastSegment.indexOf(':');
  return colon >= 0 ? lastSegment.slice(colon + 1) : undefined;
}
