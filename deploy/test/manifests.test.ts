// Every overlay, rendered by kustomize, follows the rules a platform team relies
// on (docs/operations.md says why each exists): probes, resources, a hardened
// security context, a PodDisruptionBudget, zone and host spread, released image
// tags, a grace period that covers the drain, metrics and tracing settings, and
// NetworkPolicies that admit exactly the call graph the code has.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NetworkPolicies, podEndpoint, type Endpoint } from './network-policy.js';
import {
  REPO_ROOT,
  envValue,
  findKustomize,
  hasEnv,
  imageTag,
  overlayNames,
  preStopSeconds,
  renderOverlay,
  selectorMatches,
  workloadsOf,
  type Container,
  type K8sObject,
  type Workload,
} from './render.js';

const kustomize = findKustomize();
if (!kustomize) throw new Error('kustomize not found: ./dev up installs it into .local/bin (ensure_kustomize)');

/** Each service's drain after SIGTERM, beyond SHUTDOWN_TIMEOUT_MS: consumers, outbox, connections. */
const CLOSE_MARGIN_SECONDS = 10;
const METRICS_PORT = 9464;

/**
 * Who calls whom, from the code: a service calls the peers whose address
 * (`IDENTITY_ADDR`, ...) its src/config.ts reads; the gateway also proxies
 * /media/* to the reader's media server (READER_MEDIA_URL).
 */
function callGraph(services: string[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const service of services) {
    const config = readFileSync(`${REPO_ROOT}services/${service}/src/config.ts`, 'utf8');
    const peers = [...config.matchAll(/\b([A-Z]+)_ADDR\b/g)].map((match) => match[1]!.toLowerCase());
    graph.set(service, new Set(peers.filter((peer) => peer !== service && services.includes(peer))));
  }
  return graph;
}

/** The stores a workload holds a connection to, by the variables its Deployment sets. */
const STORES = [
  { env: 'MONGO_URL', name: 'mongo', port: 27017 },
  { env: 'AMQP_URL', name: 'rabbitmq', port: 5672 },
  { env: 'REDIS_URL', name: 'redis', port: 6379 },
  { env: 'SMTP_URL', name: 'maildev', port: 1025 },
  // reader's content bucket: the port is the one of reader-content-store's S3_ENDPOINT.
  { env: 'S3_ACCESS_KEY_ID', name: 's3', port: 'S3_ENDPOINT' },
] as const;

/** A store run by an operator: the labels its pods get and the Secrets or Service a client names it by. */
interface OperatedStore {
  store: 'mongo' | 'rabbitmq' | 'redis';
  name: string;
  pod: Endpoint;
  port: number;
  secrets: string[];
  service: string;
}

/** The pods the operators create for the rendered MongoDBCommunity, RabbitmqCluster and RedisFailover resources, with their labels. */
function operatorStoresOf(objects: K8sObject[]): OperatedStore[] {
  const pod = (object: K8sObject, labels: Record<string, string>): Endpoint => ({ kind: 'pod', namespace: object.metadata.namespace ?? 'default', labels, ports: {} });
  return objects.flatMap((object): OperatedStore[] => {
    const name = object.metadata.name;
    switch (object.kind) {
      case 'MongoDBCommunity':
        return [{ store: 'mongo', name, pod: pod(object, { app: `${name}-svc` }), port: 27017, secrets: object.spec.users.map((u: { connectionStringSecretName: string }) => u.connectionStringSecretName), service: `${name}-svc` }];
      case 'RabbitmqCluster':
        return [{ store: 'rabbitmq', name, pod: pod(object, { 'app.kubernetes.io/name': name, 'app.kubernetes.io/component': 'rabbitmq', 'app.kubernetes.io/part-of': 'rabbitmq' }), port: 5671, secrets: [`${name}-default-user`], service: name }];
      case 'RedisFailover':
        return [{ store: 'redis', name, pod: pod(object, { 'app.kubernetes.io/name': name, 'app.kubernetes.io/component': 'redis', 'app.kubernetes.io/part-of': 'redis-failover' }), port: 6379, secrets: [], service: `rfrm-${name}` }];
      default:
        return [];
    }
  });
}

/** Whether a container reads a store instance: one of its Secrets, or its Service's name in a variable. */
function references(container: Container, instance: OperatedStore): boolean {
  return (container.env ?? []).some(
    (variable) => instance.secrets.includes(variable.valueFrom?.secretKeyRef?.name ?? '') || (variable.value ?? '').includes(`@${instance.service}:`),
  );
}

/** The port of a URL, its scheme's default when it names none. */
const urlPort = (url: string): number => {
  const parsed = new URL(url);
  return parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
};

const mainContainer = (workload: Workload): Container => workload.pod.containers.find((c) => c.name === workload.name) ?? workload.pod.containers[0]!;
const portOf = (container: Container, name: string) => container.ports?.find((port) => port.name === name)?.containerPort;

describe.each(overlayNames())('overlay %s', (overlay) => {
  const objects: K8sObject[] = renderOverlay(kustomize, overlay);
  const workloads = workloadsOf(objects);
  const services = workloads.filter((workload) => workload.ownService);
  const policies = new NetworkPolicies(objects);
  const configMap = objects.find((object) => object.kind === 'ConfigMap' && object.metadata.name === 'folio-config');
  const pdbs = objects.filter((object) => object.kind === 'PodDisruptionBudget');
  const contentStore = objects.find((object) => object.kind === 'ConfigMap' && object.metadata.name === 'reader-content-store');
  const operatorStores = operatorStoresOf(objects);

  it('renders the gateway and every service', () => {
    expect(services.map((workload) => workload.name).sort()).toEqual(
      ['catalog', 'commerce', 'gateway', 'identity', 'integrations', 'notes', 'reader'],
    );
  });

  it('given every workload, then every image has a released tag (never latest, never none)', () => {
    for (const workload of workloads) {
      for (const container of workload.pod.containers) {
        const tag = imageTag(container.image);
        expect(tag, `${workload.name}: ${container.image}`).toBeDefined();
        expect(tag, `${workload.name}: ${container.image}`).not.toBe('latest');
      }
    }
  });

  it('given every workload, then a NetworkPolicy of its own selects it, under a default deny both ways', () => {
    const everything: Endpoint = { kind: 'pod', namespace: workloads[0]!.namespace, labels: {}, ports: {} };
    const denyAll = policies.policies.filter((p) => !p.podSelector.matchLabels && !p.podSelector.matchExpressions);
    expect(denyAll.some((p) => p.policyTypes.includes('Ingress') && p.ingress.length === 0), 'default deny ingress').toBe(true);
    expect(denyAll.some((p) => p.policyTypes.includes('Egress') && p.egress.length === 0), 'default deny egress').toBe(true);
    expect(policies.selecting(everything, 'Ingress').length).toBeGreaterThan(0);
    for (const workload of workloads) {
      const own = policies.policies.filter((p) => selectorMatches(p.podSelector, workload.podLabels) && p.podSelector.matchLabels?.['app.kubernetes.io/name']);
      expect(own.length, workload.name).toBeGreaterThan(0);
    }
  });

  it('given every workload, then it may resolve names (DNS egress to kube-dns)', () => {
    const dns: Endpoint = { kind: 'foreign-pod', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } };
    for (const workload of workloads) {
      expect(policies.allows(podEndpoint(workload), dns, 53, 'UDP'), workload.name).toBe(true);
      expect(policies.allows(podEndpoint(workload), dns, 53, 'TCP'), workload.name).toBe(true);
    }
  });

  describe.each(['catalog', 'commerce', 'gateway', 'identity', 'integrations', 'notes', 'reader'])('%s', (name) => {
    const workload = services.find((w) => w.name === name)!;
    const container = () => mainContainer(workload);

    it('has readiness and liveness probes on every container', () => {
      for (const c of workload.pod.containers) {
        expect(c.readinessProbe, `${c.name} readiness`).toBeDefined();
        expect(c.livenessProbe, `${c.name} liveness`).toBeDefined();
      }
    });

    it('probes the pod itself: gRPC health on a service, /readyz and /healthz on the gateway', () => {
      const c = container();
      if (name === 'gateway') {
        expect(c.readinessProbe?.httpGet?.path).toBe('/readyz');
        expect(c.livenessProbe?.httpGet?.path).toBe('/healthz');
        // ?verbose probes every upstream: a probe with it would make one down service take the gateway out.
        expect(String(c.readinessProbe?.httpGet?.path)).not.toContain('verbose');
      } else {
        expect(c.readinessProbe?.grpc?.port).toBe(portOf(c, 'grpc'));
        expect(c.livenessProbe?.grpc?.port).toBe(portOf(c, 'grpc'));
      }
    });

    it('requests and limits CPU and memory on every container', () => {
      for (const c of workload.pod.containers) {
        for (const kind of ['requests', 'limits'] as const) {
          expect(c.resources?.[kind]?.cpu, `${c.name} ${kind}.cpu`).toBeDefined();
          expect(c.resources?.[kind]?.memory, `${c.name} ${kind}.memory`).toBeDefined();
        }
      }
    });

    it('runs as a non-root user on a read-only root filesystem, without privilege escalation or capabilities', () => {
      const podContext = workload.pod.securityContext ?? {};
      for (const c of workload.pod.containers) {
        expect(c.securityContext?.runAsNonRoot ?? podContext.runAsNonRoot, c.name).toBe(true);
        expect(podContext.runAsUser, 'numeric non-root uid').toBeGreaterThan(0);
        expect(c.securityContext?.readOnlyRootFilesystem, c.name).toBe(true);
        expect(c.securityContext?.allowPrivilegeEscalation, c.name).toBe(false);
        expect(c.securityContext?.capabilities?.drop, c.name).toContain('ALL');
      }
    });

    it('has a PodDisruptionBudget that lets a node drain proceed one pod at a time', () => {
      const own = pdbs.filter((pdb) => selectorMatches(pdb.spec.selector, workload.podLabels));
      expect(own).toHaveLength(1);
      expect(own[0]!.spec.maxUnavailable ?? 0, 'maxUnavailable >= 1, so a drain is never blocked').toBeGreaterThanOrEqual(1);
    });

    it('spreads its replicas over zones and over hosts', () => {
      const constraints = workload.pod.topologySpreadConstraints ?? [];
      for (const key of ['topology.kubernetes.io/zone', 'kubernetes.io/hostname']) {
        const constraint = constraints.find((c) => c.topologyKey === key);
        expect(constraint, key).toBeDefined();
        expect(selectorMatches(constraint!.labelSelector, workload.podLabels), `${key} selects the workload's own pods`).toBe(true);
      }
      if (overlay === 'production') {
        expect(constraints.find((c) => c.topologyKey === 'topology.kubernetes.io/zone')?.whenUnsatisfiable).toBe('DoNotSchedule');
      }
    });

    it('is given a grace period that covers the preStop sleep and the drain', () => {
      const c = container();
      const preStop = preStopSeconds(c);
      const drainMs = Number(envValue(c, 'SHUTDOWN_TIMEOUT_MS'));
      expect(preStop, 'a preStop sleep lets the endpoints drop the pod before SIGTERM').toBeGreaterThanOrEqual(3);
      expect(Number.isInteger(drainMs) && drainMs > 0, 'SHUTDOWN_TIMEOUT_MS set explicitly').toBe(true);
      expect(workload.pod.terminationGracePeriodSeconds ?? 30).toBeGreaterThanOrEqual(preStop + drainMs / 1000 + CLOSE_MARGIN_SECONDS);
    });

    it('declares its /metrics port for scraping, and names itself to the tracer', () => {
      const c = container();
      const scrapePort = Number(workload.podAnnotations['prometheus.io/port']);
      expect(workload.podAnnotations['prometheus.io/scrape']).toBe('true');
      expect(workload.podAnnotations['prometheus.io/path']).toBe('/metrics');
      // Every process, the gateway too, serves /metrics on its own port, never on its API port.
      expect(scrapePort).toBe(METRICS_PORT);
      expect(portOf(c, 'metrics')).toBe(METRICS_PORT);
      expect(envValue(c, 'METRICS_PORT')).toBe(String(METRICS_PORT));
      expect(envValue(c, 'OTEL_SERVICE_NAME')).toBe(name);
      expect(c.envFrom, 'reads folio-config (OTEL_* settings)').toEqual(expect.arrayContaining([{ configMapRef: { name: 'folio-config' } }]));
    });
  });

  it('given reader, then its content is in the bucket of reader-content-store, with the keys from a Secret', () => {
    const reader = mainContainer(services.find((w) => w.name === 'reader')!);
    expect(envValue(reader, 'READER_STORAGE')).toBe('s3');
    expect(reader.envFrom).toEqual(expect.arrayContaining([{ configMapRef: { name: 'reader-content-store' } }]));
    expect(() => new URL(contentStore?.data?.S3_ENDPOINT ?? ''), `S3_ENDPOINT=${contentStore?.data?.S3_ENDPOINT}`).not.toThrow();
    expect(contentStore?.data?.S3_BUCKET).toBeTruthy();
    expect(contentStore?.data?.S3_REGION).toBeTruthy();
    expect(contentStore?.data?.S3_FORCE_PATH_STYLE).toMatch(/^(true|false)$/);
    for (const key of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']) {
      const variable = reader.env?.find((v) => v.name === key);
      expect(variable?.valueFrom?.secretKeyRef?.key, `${key} from folio-secrets`).toBe(key);
      expect(variable?.value, `${key} is never a literal`).toBeUndefined();
    }
  });

  it('given every service, then it keeps nothing on a volume of its own: no claim, only emptyDirs and read-only projections', () => {
    for (const workload of services) {
      const volumes = (workload.pod as { volumes?: { name: string; emptyDir?: unknown; configMap?: unknown; secret?: unknown }[] }).volumes ?? [];
      // Scratch space, or a read-only projection (a CA bundle): never a claim.
      for (const volume of volumes) expect(volume.emptyDir ?? volume.configMap ?? volume.secret, `${workload.name}: volume ${volume.name}`).toBeDefined();
    }
    const claims = objects.filter((object) => object.kind === 'PersistentVolumeClaim' && object.metadata.labels?.['app.kubernetes.io/part-of'] === 'folio');
    expect(claims.map((claim) => claim.metadata.name)).toEqual([]);
  });

  it('given every service, then it runs as its own ServiceAccount, which mounts no token', () => {
    for (const workload of services) {
      const pod = workload.pod as { serviceAccountName?: string; automountServiceAccountToken?: boolean };
      expect(pod.serviceAccountName, workload.name).toBe(workload.name);
      expect(pod.automountServiceAccountToken, workload.name).toBe(false);
      const account = objects.find((object) => object.kind === 'ServiceAccount' && object.metadata.name === workload.name) as { automountServiceAccountToken?: boolean } | undefined;
      expect(account, `ServiceAccount ${workload.name}`).toBeDefined();
      expect(account!.automountServiceAccountToken, workload.name).toBe(false);
    }
  });

  it('given every service, then one HPA with scale-up and scale-down behavior sizes it, and the Deployment leaves replicas to it', () => {
    const hpas = objects.filter((object) => object.kind === 'HorizontalPodAutoscaler');
    for (const workload of services) {
      const own = hpas.filter((hpa) => hpa.spec.scaleTargetRef.kind === 'Deployment' && hpa.spec.scaleTargetRef.name === workload.name);
      expect(own, workload.name).toHaveLength(1);
      const { minReplicas, maxReplicas, behavior, metrics } = own[0]!.spec;
      expect(minReplicas, workload.name).toBeLessThanOrEqual(maxReplicas);
      expect(behavior?.scaleUp?.policies?.length, `${workload.name} scaleUp`).toBeGreaterThan(0);
      expect(behavior?.scaleDown?.stabilizationWindowSeconds, `${workload.name} scaleDown`).toBeGreaterThan(0);
      expect(metrics[0].resource.name).toBe('cpu');
      if (overlay === 'production') {
        expect(minReplicas, `${workload.name}: a replica per zone of two at least`).toBeGreaterThanOrEqual(2);
        // A fixed count would be applied over the HPA's on every `kubectl apply`.
        expect(workload.replicas, `${workload.name} spec.replicas`).toBeUndefined();
        const resources = mainContainer(workload).resources!;
        expect(resources.requests!.cpu, `${workload.name}: the HPA's percentage is of what the pod may use`).toBe(resources.limits!.cpu);
      }
    }
  });

  it('given the Ingress, then every host reaches the gateway over TLS', () => {
    const ingresses = objects.filter((object) => object.kind === 'Ingress');
    expect(ingresses.length).toBeGreaterThan(0);
    for (const ingress of ingresses) {
      const tlsHosts = new Set((ingress.spec.tls as { hosts: string[] }[]).flatMap((entry) => entry.hosts));
      for (const rule of ingress.spec.rules as { host: string; http: { paths: { backend: { service: { name: string; port: { name: string } } } }[] } }[]) {
        expect(tlsHosts.has(rule.host), `${rule.host} has a certificate`).toBe(true);
        for (const path of rule.http.paths) expect(path.backend.service, rule.host).toEqual({ name: 'gateway', port: { name: 'http' } });
      }
    }
    if (overlay === 'local') {
      const dataset = JSON.parse(readFileSync(`${REPO_ROOT}fixtures/demo-dataset.json`, 'utf8')) as unknown;
      const domains = [...JSON.stringify(dataset).matchAll(/"domain":"([^"]+)"/g)].map((match) => match[1]!);
      const hosts = ingresses.flatMap((ingress) => (ingress.spec.rules as { host: string }[]).map((rule) => rule.host));
      expect(domains.length).toBeGreaterThan(0);
      for (const domain of domains) expect(hosts, `the demo store ${domain}`).toContain(domain);
    }
  });

  if (overlay === 'production') {
    it('given production, then every image is pinned by digest, never by a tag alone', () => {
      for (const workload of workloads) {
        for (const container of workload.pod.containers) expect(container.image, `${workload.name}/${container.name}`).toMatch(/^[^@\s]+@sha256:[0-9a-f]{64}$/);
      }
    });
  }

  it('configures tracing with the standard OTEL_* variables, parent-based ratio sampling', () => {
    expect(configMap?.data?.OTEL_EXPORTER_OTLP_ENDPOINT).toMatch(/^https?:\/\//);
    expect(configMap?.data?.OTEL_TRACES_SAMPLER).toBe('parentbased_traceidratio');
    const ratio = Number(configMap?.data?.OTEL_TRACES_SAMPLER_ARG);
    expect(ratio >= 0 && ratio <= 1, `OTEL_TRACES_SAMPLER_ARG=${ratio}`).toBe(true);
  });

  describe('network', () => {
    const byName = new Map(services.map((w) => [w.name, w]));
    const graph = callGraph([...byName.keys()]);
    const grpcPort = (name: string) => portOf(mainContainer(byName.get(name)!), 'grpc')!;
    const outside: Endpoint[] = [
      { kind: 'external' },
      { kind: 'foreign-pod', namespace: 'ingress-nginx', labels: { 'app.kubernetes.io/name': 'ingress-nginx' } },
      { kind: 'foreign-pod', namespace: 'other-team', labels: {} },
    ];

    it('reads a call graph from the code (sanity: the gateway calls every service)', () => {
      expect([...graph.get('gateway')!].sort()).toEqual(['catalog', 'commerce', 'identity', 'integrations', 'notes', 'reader']);
    });

    it('lets each service call exactly the peers its config names, and nothing else, on both sides', () => {
      for (const [caller, peers] of graph) {
        for (const target of byName.keys()) {
          if (target === caller || target === 'gateway') continue;
          const [from, to, port] = [podEndpoint(byName.get(caller)!), podEndpoint(byName.get(target)!), grpcPort(target)];
          // Each side on its own: the caller's egress and the target's ingress must both be exact.
          expect(policies.egressAllows(from, to, port), `${caller} egress -> ${target}:${port}`).toBe(peers.has(target));
          expect(policies.ingressAllows(from, to, port), `${target} ingress <- ${caller}:${port}`).toBe(peers.has(target));
        }
      }
    });

    it('addresses every peer by a headless Service of its gRPC port, so that callers balance calls over its replicas', () => {
      const kubeServices = objects.filter((object) => object.kind === 'Service');
      for (const peer of byName.keys()) {
        if (peer === 'gateway') continue;
        const address = configMap?.data?.[`${peer.toUpperCase()}_ADDR`] ?? '';
        // A ClusterIP Service balances connections, and a caller keeps one: every call would go to one pod.
        const target = /^dns:\/\/\/([a-z0-9-]+):(\d+)$/.exec(address);
        expect(target, `${peer.toUpperCase()}_ADDR=${address}`).not.toBeNull();
        const [, serviceName, port] = target!;
        const service = kubeServices.find((object) => object.metadata.name === serviceName);
        expect(service, `Service ${serviceName}`).toBeDefined();
        expect(service!.spec.clusterIP, `${serviceName} is headless`).toBe('None');
        expect(selectorMatches({ matchLabels: service!.spec.selector }, byName.get(peer)!.podLabels), `${serviceName} selects ${peer}'s pods`).toBe(true);
        expect(service!.spec.ports.map((p: { port: number; targetPort: string }) => [p.port, p.targetPort])).toEqual([[Number(port), 'grpc']]);
        expect(Number(port), `${peer}'s gRPC port`).toBe(grpcPort(peer));
      }
    });

    it('lets only the gateway reach the reader media server', () => {
      const media = portOf(mainContainer(byName.get('reader')!), 'media')!;
      for (const [name, workload] of byName) {
        if (name === 'reader') continue;
        expect(policies.allows(podEndpoint(workload), podEndpoint(byName.get('reader')!), media), name).toBe(name === 'gateway');
      }
    });

    it('lets only the gateway be reached from outside the namespace (beside scraping /metrics from monitoring)', () => {
      const gateway = byName.get('gateway')!;
      const ingressController = outside[1]!;
      expect(policies.allows(ingressController, podEndpoint(gateway), portOf(mainContainer(gateway), 'http')!)).toBe(true);
      for (const [name, workload] of byName) {
        if (name === 'gateway') continue;
        for (const port of mainContainer(workload).ports ?? []) {
          for (const source of outside) {
            expect(policies.allows(source, podEndpoint(workload), port.containerPort), `${source.kind} -> ${name}:${port.containerPort}`).toBe(false);
          }
        }
      }
      const prometheus: Endpoint = { kind: 'foreign-pod', namespace: 'monitoring', labels: { 'app.kubernetes.io/name': 'prometheus' } };
      for (const [name, workload] of byName) {
        const port = Number(workload.podAnnotations['prometheus.io/port']);
        expect(policies.allows(prometheus, podEndpoint(workload), port), `monitoring -> ${name}:${port}`).toBe(true);
      }
    });

    it('lets only the owners of a store connect to it', () => {
      for (const { port, ...rest } of STORES) {
        const store = { ...rest, port: typeof port === 'number' ? port : urlPort(contentStore!.data![port]!) };
        const storeWorkload = workloads.find((w) => w.name === store.name);
        // The local overlay runs the stores as pods; production's are managed, outside the cluster.
        // The object store is an address of the range reader's policy names: public HTTPS allowed to
        // other services (identity's sign-in providers) must not reach it.
        const objectStoreRange = policies.policies.find((p) => p.name === 'reader-egress-object-store')?.egress[0]?.to?.[0]?.ipBlock?.cidr;
        const external: Endpoint = store.name === 's3' && objectStoreRange ? { kind: 'external', ip: objectStoreRange.split('/')[0]!.replace(/\.0$/, '.10') } : { kind: 'external' };
        const operated = operatorStores.filter((instance) => instance.store === store.name);
        if (operated.length > 0) {
          // The production overlay's stores are operators' pods: each service reaches exactly the instances it reads a Secret of.
          for (const instance of operated) {
            for (const workload of services) {
              const owner = references(mainContainer(workload), instance);
              expect(policies.egressAllows(podEndpoint(workload), instance.pod, instance.port), `${workload.name} egress -> ${instance.name}:${instance.port}`).toBe(owner);
              expect(policies.ingressAllows(podEndpoint(workload), instance.pod, instance.port), `${instance.name} ingress <- ${workload.name}`).toBe(owner);
            }
          }
          continue;
        }
        const target: Endpoint = storeWorkload ? podEndpoint(storeWorkload) : external;
        for (const workload of workloads) {
          if (workload === storeWorkload) continue;
          const owner = workload.ownService && hasEnv(mainContainer(workload), store.env);
          if (!storeWorkload && store.name === 'maildev') continue; // production's SMTP relay is public (identity-egress-internet)
          const from = podEndpoint(workload);
          expect(policies.egressAllows(from, target, store.port), `${workload.name} egress -> ${store.name}:${store.port}`).toBe(owner);
          // The local overlay's store pods check their side too.
          if (storeWorkload) expect(policies.ingressAllows(from, target, store.port), `${store.name} ingress <- ${workload.name}`).toBe(owner);
        }
      }
    });
  });
});

describe('the image', () => {
  /** The exec form of the Dockerfile's last CMD, as the arguments node is started with. */
  const imageCmd = (): string[] => {
    const dockerfile = readFileSync(`${REPO_ROOT}Dockerfile`, 'utf8');
    return JSON.parse(dockerfile.split('\n').filter((line) => line.startsWith('CMD ')).at(-1)!.slice('CMD '.length)) as string[];
  };

  it('starts every service with the tracing register entry, so the OTEL_* settings take effect', () => {
    const cmd = imageCmd();
    expect(cmd[0]).toBe('node');
    expect(cmd.slice(-3)).toEqual(['--import', '@folio/telemetry/register', 'dist/main.js']);
    for (const service of ['catalog', 'commerce', 'gateway', 'identity', 'integrations', 'notes', 'reader']) {
      const manifest = JSON.parse(readFileSync(`${REPO_ROOT}services/${service}/package.json`, 'utf8')) as { dependencies?: Record<string, string> };
      expect(manifest.dependencies?.['@folio/telemetry'], `${service} depends on @folio/telemetry`).toBeDefined();
    }
  });

  it('starts every service with the heap growth ./dev gives it, so a pod holds what the benchmark measured', () => {
    const cmd = imageCmd();
    const devFlags = /^V8_HEAP_FLAGS=\((.*)\)$/m.exec(readFileSync(`${REPO_ROOT}dev`, 'utf8'))?.[1]?.split(' ');
    expect(devFlags, 'V8_HEAP_FLAGS in ./dev').toBeDefined();
    for (const flag of devFlags!) expect(cmd, `the image's CMD has ${flag}`).toContain(flag);
  });
});
