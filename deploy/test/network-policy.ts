// A small NetworkPolicy evaluator (networking.k8s.io/v1 semantics) over the
// rendered objects, enough to answer "may A open a TCP connection to B:port".
// Endpoints are pods of the rendered namespace, pods of another namespace
// (ingress controller, Prometheus, DNS), or an address outside the cluster
// (any such address, or one IPv4 address when the rule's ranges matter).
import { selectorMatches, type K8sObject, type LabelSelector, type Labels, type Workload } from './render.js';

export type Endpoint =
  | { kind: 'pod'; namespace: string; labels: Labels; ports: Record<string, number> }
  | { kind: 'foreign-pod'; namespace: string; labels: Labels }
  | { kind: 'external'; ip?: string };

interface PolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

interface PolicyPort {
  protocol?: string;
  port?: number | string;
}

interface PolicyRule {
  from?: PolicyPeer[];
  to?: PolicyPeer[];
  ports?: PolicyPort[];
}

interface Policy {
  namespace: string;
  name: string;
  podSelector: LabelSelector;
  policyTypes: string[];
  ingress: PolicyRule[];
  egress: PolicyRule[];
}

export function podEndpoint(workload: Workload): Endpoint {
  const ports: Record<string, number> = {};
  for (const container of workload.pod.containers) {
    for (const port of container.ports ?? []) if (port.name) ports[port.name] = port.containerPort;
  }
  return { kind: 'pod', namespace: workload.namespace, labels: workload.podLabels, ports };
}

export class NetworkPolicies {
  readonly policies: Policy[];

  constructor(objects: K8sObject[]) {
    this.policies = objects
      .filter((object) => object.kind === 'NetworkPolicy')
      .map((object) => ({
        namespace: object.metadata.namespace ?? 'default',
        name: object.metadata.name,
        podSelector: object.spec.podSelector ?? {},
        // Kubernetes' default: Ingress always, Egress when egress rules are given.
        policyTypes: object.spec.policyTypes ?? ['Ingress', ...(object.spec.egress ? ['Egress'] : [])],
        ingress: object.spec.ingress ?? [],
        egress: object.spec.egress ?? [],
      }));
  }

  /** Policies that select the pod, for one direction. */
  selecting(pod: Endpoint, direction: 'Ingress' | 'Egress'): Policy[] {
    if (pod.kind !== 'pod') return [];
    return this.policies.filter(
      (policy) => policy.namespace === pod.namespace && policy.policyTypes.includes(direction) && matchesAll(policy.podSelector, pod.labels),
    );
  }

  /** Whether `from` may open a TCP connection to `to` on `port` (both directions' policies agree). */
  allows(from: Endpoint, to: Endpoint, port: number, protocol = 'TCP'): boolean {
    return this.egressAllows(from, to, port, protocol) && this.ingressAllows(from, to, port, protocol);
  }

  /** What `from`'s own egress policies say, whatever `to`'s ingress policies say. */
  egressAllows(from: Endpoint, to: Endpoint, port: number, protocol = 'TCP'): boolean {
    return this.direction(from, 'Egress', to, port, protocol);
  }

  /** What `to`'s own ingress policies say, whatever `from`'s egress policies say. */
  ingressAllows(from: Endpoint, to: Endpoint, port: number, protocol = 'TCP'): boolean {
    return this.direction(to, 'Ingress', from, port, protocol);
  }

  private direction(subject: Endpoint, direction: 'Ingress' | 'Egress', other: Endpoint, port: number, protocol: string): boolean {
    if (subject.kind !== 'pod') return true; // outside the namespace: not ours to restrict
    const policies = this.selecting(subject, direction);
    if (policies.length === 0) return true;
    const destination = direction === 'Egress' ? other : subject; // named ports belong to the destination
    return policies.some((policy) =>
      (direction === 'Ingress' ? policy.ingress : policy.egress).some((rule) => {
        const peers = direction === 'Ingress' ? rule.from : rule.to;
        const peerOk = !peers || peers.length === 0 || peers.some((peer) => peerMatches(peer, policy.namespace, other));
        const portOk = !rule.ports || rule.ports.length === 0 || rule.ports.some((p) => portMatches(p, destination, port, protocol));
        return peerOk && portOk;
      }),
    );
  }
}

/** An empty selector ({}) selects everything. */
function matchesAll(selector: LabelSelector, labels: Labels): boolean {
  const empty = !selector.matchLabels && !selector.matchExpressions;
  return empty || selectorMatches(selector, labels);
}

function namespaceLabels(namespace: string): Labels {
  return { 'kubernetes.io/metadata.name': namespace };
}

function peerMatches(peer: PolicyPeer, policyNamespace: string, endpoint: Endpoint): boolean {
  if (peer.ipBlock) {
    if (endpoint.kind !== 'external') return false; // pod addresses are not matched by ipBlock here
    if (endpoint.ip === undefined) return true;
    return inCidr(endpoint.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((cidr) => inCidr(endpoint.ip!, cidr));
  }
  if (endpoint.kind === 'external') return false;
  const namespaceOk = peer.namespaceSelector
    ? matchesAll(peer.namespaceSelector, namespaceLabels(endpoint.namespace))
    : endpoint.namespace === policyNamespace;
  const podOk = peer.podSelector ? matchesAll(peer.podSelector, endpoint.labels) : true;
  return namespaceOk && podOk;
}

function portMatches(rule: PolicyPort, destination: Endpoint, port: number, protocol: string): boolean {
  if ((rule.protocol ?? 'TCP') !== protocol) return false;
  if (rule.port === undefined) return true;
  if (typeof rule.port === 'number') return rule.port === port;
  return destination.kind === 'pod' && destination.ports[rule.port] === port;
}

const ipv4 = (address: string): number => address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);

/** Whether an IPv4 address lies in a CIDR range. */
export function inCidr(address: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  const size = 2 ** (32 - Number(bits ?? 32));
  return Math.floor(ipv4(address) / size) === Math.floor(ipv4(base!) / size);
}
