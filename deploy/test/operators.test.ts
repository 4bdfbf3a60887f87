// The stateful parts of the production overlay (components/stores): every
// operator resource is valid against the CRD its operator publishes (vendored
// in deploy/vendor/crds with its licence), the sizes are those docs/capacity.md
// gives, and each service's connection settings come from what the operator
// creates, never from a hand-written host list or replica-set name.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCrds, validate } from './crd-schema.js';
import { DEPLOY_DIR, REPO_ROOT, findKustomize, renderOverlay, workloadsOf } from './render.js';

const kustomize = findKustomize();
if (!kustomize) throw new Error('kustomize not found: ./dev up installs it into .local/bin (ensure_kustomize)');

const crds = loadCrds(`${DEPLOY_DIR}vendor/crds`);
const objects = renderOverlay(kustomize, 'production');
const ofKind = (kind: string) => objects.filter((object) => object.kind === kind);
const services = workloadsOf(objects).filter((w) => w.ownService);
const env = (name: string) => services.find((w) => w.name === name)!.pod.containers[0]!.env ?? [];

describe('production: operator resources', () => {
  it('when the CRDs are vendored, then each of the three operators has one, beside its licence', () => {
    expect([...crds.keys()].sort()).toEqual(['databases.spotahome.com/RedisFailover', 'mongodbcommunity.mongodb.com/MongoDBCommunity', 'rabbitmq.com/RabbitmqCluster']);
    for (const dir of ['mongodb-kubernetes-operator', 'rabbitmq-cluster-operator', 'redis-operator']) {
      const licence = ['LICENSE', 'LICENSE.md', 'LICENSE.txt'].find((file) => {
        try {
          return readFileSync(`${DEPLOY_DIR}vendor/crds/${dir}/${file}`, 'utf8').length > 0;
        } catch {
          return false;
        }
      });
      expect(licence, dir).toBeDefined();
    }
  });

  it('when the overlay is rendered, then every custom resource validates strictly against its operator CRD', () => {
    const custom = objects.filter((object) => !object.apiVersion.includes('k8s.io') && object.apiVersion.includes('.') && object.kind !== 'PodMonitor');
    expect(custom.map((object) => object.kind).sort()).toEqual(['MongoDBCommunity', 'MongoDBCommunity', 'RabbitmqCluster', 'RedisFailover', 'RedisFailover']);
    for (const object of custom) {
      const [group, version] = object.apiVersion.split('/') as [string, string];
      const schema = crds.get(`${group}/${object.kind}`)?.versions.get(version);
      expect(schema, `${object.apiVersion} ${object.kind} is served`).toBeDefined();
      expect(validate(schema!.properties!.spec!, object.spec, `${object.kind}/${object.metadata.name}.spec`)).toEqual([]);
    }
  });

  it('when a resource carries a field its CRD does not declare, or a wrong type, then validation says where', () => {
    const mongo = ofKind('MongoDBCommunity')[0]!;
    const schema = crds.get('mongodbcommunity.mongodb.com/MongoDBCommunity')!.versions.get('v1')!.properties!.spec!;
    expect(validate(schema, { ...mongo.spec, member: 3 }, 'spec')).toContain('spec.member: unknown field');
    expect(validate(schema, { ...mongo.spec, members: '3' }, 'spec')).toContain('spec.members: must be an integer');
    const { users: _users, ...withoutUsers } = mongo.spec;
    expect(validate(schema, withoutUsers, 'spec')).toContain('spec.users: required');
  });

  it('when the stores are sized, then they have three members each, one per zone, with requests equal to limits', () => {
    for (const mongo of ofKind('MongoDBCommunity')) {
      expect(mongo.spec.members, mongo.metadata.name).toBe(3);
      const template = mongo.spec.statefulSet.spec.template.spec;
      expect(template.topologySpreadConstraints[0]).toMatchObject({ topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule' });
      const mongod = template.containers.find((c: { name: string }) => c.name === 'mongod');
      expect(mongod.resources.requests, mongo.metadata.name).toEqual(mongod.resources.limits);
      expect(mongo.spec.security.tls.enabled, `${mongo.metadata.name} TLS`).toBe(true);
    }
    const [rabbit] = ofKind('RabbitmqCluster');
    expect(rabbit!.spec.replicas).toBe(3);
    expect(rabbit!.spec.tls.disableNonTLSListeners).toBe(true);
    const redis = ofKind('RedisFailover').find((rf) => rf.metadata.name === 'redis')!;
    expect(redis.spec.sentinel.replicas).toBe(3);
    expect(redis.spec.redis.replicas).toBeGreaterThanOrEqual(3);
    expect(redis.spec.redis.customConfig).toContain('maxmemory-policy noeviction');
  });

  it('when the services declare their durable queues, then they declare quorum queues (what the 3-node cluster replicates)', () => {
    const queues = readFileSync(`${REPO_ROOT}packages/messaging/src/queues.ts`, 'utf8');
    expect(queues).toMatch(/QUORUM_QUEUE = 'quorum'/);
    expect(queues).toMatch(/\[QUEUE_TYPE_ARGUMENT\]: QUORUM_QUEUE/);
  });
});

/** What each service reads right after it writes decides its read preference (docs/operations.md "MongoDB"). */
const MONGO_READ_PREFERENCE: Record<string, string> = {
  identity: 'primary',
  commerce: 'primary',
  catalog: 'primaryPreferred',
  reader: 'primaryPreferred',
  notes: 'primaryPreferred',
  integrations: 'primaryPreferred',
};

describe('production: each service connects with what the operators create', () => {
  const users = ofKind('MongoDBCommunity').flatMap((rs) =>
    (rs.spec.users as { name: string; db: string; roles: { name: string; db: string }[]; connectionStringSecretName: string; additionalConnectionStringConfig?: Record<string, unknown> }[]).map(
      (user) => ({ rs, user }),
    ),
  );

  it.each(Object.entries(MONGO_READ_PREFERENCE))('%s: MONGO_URL is its operator user\'s connection string, w=majority, retryWrites, readPreference=%s, TLS', (name, readPreference) => {
    const url = env(name).find((variable) => variable.name === 'MONGO_URL');
    const ref = url?.valueFrom?.secretKeyRef as { name: string; key: string } | undefined;
    expect(ref?.key).toBe('connectionString.standard');
    const found = users.find(({ user }) => user.connectionStringSecretName === ref?.name);
    expect(found, `a MongoDBCommunity user writes ${ref?.name}`).toBeDefined();
    const { rs, user } = found!;
    expect(user.db, 'the user, and the database the string names, are the service\'s own').toBe(`folio_${name}`);
    expect(user.roles).toEqual([{ name: 'readWrite', db: `folio_${name}` }]);
    const options = { ...rs.spec.additionalConnectionStringConfig, ...user.additionalConnectionStringConfig };
    expect(options).toMatchObject({ w: 'majority', retryWrites: true, readPreference });
    expect(Number(options.maxPoolSize)).toBeGreaterThan(0);
    expect(rs.spec.security.tls.enabled).toBe(true);
  });

  it('no variable of any service names a replica set or a store host by hand', () => {
    for (const workload of services) {
      for (const variable of workload.pod.containers[0]!.env ?? []) {
        expect(variable.value ?? '', `${workload.name} ${variable.name}`).not.toMatch(/replicaSet=|mongodb:\/\/|amqps?:\/\//);
      }
    }
  });

  it('AMQP_URL is the RabbitmqCluster default user\'s connection string; REDIS_URL reaches the primary Service of a RedisFailover with its password', () => {
    const [rabbit] = ofKind('RabbitmqCluster');
    const failovers = ofKind('RedisFailover');
    for (const workload of services) {
      const container = workload.pod.containers[0]!;
      const amqp = container.env?.find((variable) => variable.name === 'AMQP_URL');
      expect(amqp?.valueFrom?.secretKeyRef, workload.name).toMatchObject({ name: `${rabbit!.metadata.name}-default-user`, key: 'connection_string' });
      const redis = container.env?.find((variable) => variable.name === 'REDIS_URL');
      if (!redis) continue;
      const failover = failovers.find((rf) => redis.value === `redis://:$(REDIS_AUTH_password)@rfrm-${rf.metadata.name}:6379`);
      expect(failover, `${workload.name} REDIS_URL=${redis.value}`).toBeDefined();
      // $(REDIS_AUTH_password) comes from envFrom, which Kubernetes defines before every env entry.
      expect(container.envFrom).toContainEqual({ prefix: 'REDIS_AUTH_', secretRef: { name: failover!.spec.auth.secretPath } });
    }
  });
});

