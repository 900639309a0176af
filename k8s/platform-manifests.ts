/**
 * What the Quarry processes stand on: configuration, the shared data volume, Redis, Weaviate,
 * network policies and the optional decay CronJob. Redis has no password here: only Quarry's
 * pods and KEDA may reach it (network policies); an overlay for a managed Redis adds credentials.
 */
import { MEMORY_DECAY_PATTERN } from '../queues/memory.queues.ts';
import { PART_OF, QUEUE_PREFIX, labels, selector, type Manifest } from './manifests.ts';
import { GATEWAY_PORT, HEALTH_PORT, IMAGE } from './spec.ts';

/** Pinned server images (the same versions as infra/docker-compose.yml). */
export const REDIS_IMAGE = 'redis:7.2-alpine';
export const WEAVIATE_IMAGE = 'cr.weaviate.io/semitechnologies/weaviate:1.32.4';

export function configManifests(): Manifest[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'quarry-config', labels: labels('config') },
      data: {
        REDIS_URL: 'redis://quarry-redis:6379',
        QUARRY_PREFIX: QUEUE_PREFIX,
        QUARRY_DATA_DIR: '/data/quarry',
        QUARRY_WATCH_DIR: '/data/inbox',
        VECTOR_STORE: 'weaviate',
        WEAVIATE_URL: 'http://quarry-weaviate:8080',
        WEAVIATE_GRPC_URL: 'quarry-weaviate:50051',
        LOG_LEVEL: 'info',
      },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'quarry-data', labels: labels('data') },
      // Shared by every worker pod (artifacts between stages) and the watcher (the watched folder).
      spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '50Gi' } } },
    },
  ];
}

/** A single-replica StatefulSet with one container, a data volume, its Service and a PDB that never evicts it. */
function statefulServer(component: string, opts: { uid: number; container: Record<string, unknown>; mountPath: string; storage: string; ports: { name: string; port: number }[]; graceSeconds?: number }): Manifest[] {
  const name = `quarry-${component}`;
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name, labels: labels(component) },
      spec: {
        serviceName: name,
        replicas: 1,
        selector: { matchLabels: selector(component) },
        template: {
          metadata: { labels: labels(component) },
          spec: {
            securityContext: { runAsNonRoot: true, runAsUser: opts.uid, runAsGroup: opts.uid, fsGroup: opts.uid, seccompProfile: { type: 'RuntimeDefault' } },
            ...(opts.graceSeconds ? { terminationGracePeriodSeconds: opts.graceSeconds } : {}),
            containers: [
              {
                name: component,
                ...opts.container,
                ports: opts.ports.map((p) => ({ name: p.name, containerPort: p.port })),
                volumeMounts: [{ name: 'data', mountPath: opts.mountPath }],
              },
            ],
          },
        },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: opts.storage } } } }],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, labels: labels(component) },
      spec: { selector: selector(component), ports: opts.ports.map((p) => ({ name: p.name, port: p.port, targetPort: p.name })) },
    },
    { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, labels: labels(component) }, spec: { maxUnavailable: 0, selector: { matchLabels: selector(component) } } },
  ];
}

export function redisManifests(): Manifest[] {
  const ping = { exec: { command: ['redis-cli', 'ping'] }, timeoutSeconds: 3 };
  return statefulServer('redis', {
    uid: 999,
    mountPath: '/data',
    storage: '10Gi',
    ports: [{ name: 'redis', port: 6379 }],
    container: {
      image: REDIS_IMAGE,
      // AOF persistence and noeviction: BullMQ jobs and locks must never be evicted.
      args: ['redis-server', '--appendonly', 'yes', '--appendfsync', 'everysec', '--maxmemory-policy', 'noeviction', '--dir', '/data'],
      resources: { requests: { cpu: '250m', memory: '1Gi' }, limits: { memory: '2Gi' } },
      livenessProbe: { ...ping, periodSeconds: 10 },
      readinessProbe: { ...ping, periodSeconds: 5 },
      securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
    },
  });
}

export function weaviateManifests(): Manifest[] {
  const env = {
    ENABLE_TOKENIZER_KAGOME_KR: 'true',
    AUTOSCHEMA_ENABLED: 'false',
    DEFAULT_VECTORIZER_MODULE: 'none',
    ENABLE_MODULES: '',
    PERSISTENCE_DATA_PATH: '/var/lib/weaviate',
    QUERY_DEFAULTS_LIMIT: '25',
    AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED: 'true',
    CLUSTER_HOSTNAME: 'node1',
  };
  return statefulServer('weaviate', {
    uid: 1000,
    mountPath: '/var/lib/weaviate',
    storage: '100Gi',
    graceSeconds: 60,
    ports: [{ name: 'http', port: 8080 }, { name: 'grpc', port: 50051 }],
    container: {
      image: WEAVIATE_IMAGE,
      env: Object.entries(env).map(([name, value]) => ({ name, value })),
      resources: { requests: { cpu: '1', memory: '8Gi' }, limits: { memory: '16Gi' } },
      livenessProbe: { httpGet: { path: '/v1/.well-known/live', port: 'http' }, initialDelaySeconds: 30, periodSeconds: 10 },
      readinessProbe: { httpGet: { path: '/v1/.well-known/ready', port: 'http' }, periodSeconds: 5 },
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    },
  });
}

/**
 * Only the traffic Quarry needs: ingress to the gateway from anywhere, to Redis and Weaviate from
 * Quarry's own pods; egress to DNS, Redis, Weaviate and HTTPS (embedding, LLM and reranker
 * endpoints, object storage). Everything else in the namespace is denied.
 */
export function networkPolicies(): Manifest[] {
  const quarryPods = { podSelector: { matchLabels: PART_OF } };
  const np = (name: string, spec: Record<string, unknown>): Manifest => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name, labels: labels('network') }, spec });
  return [
    np('quarry-default-deny', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] }),
    np('quarry-gateway-ingress', { podSelector: { matchLabels: selector('gateway') }, policyTypes: ['Ingress'], ingress: [{ ports: [{ port: GATEWAY_PORT, protocol: 'TCP' }] }] }),
    np('quarry-redis-ingress', { podSelector: { matchLabels: selector('redis') }, policyTypes: ['Ingress'], ingress: [{ from: [quarryPods, { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'keda' } } }], ports: [{ port: 6379, protocol: 'TCP' }] }] }),
    np('quarry-weaviate-ingress', { podSelector: { matchLabels: selector('weaviate') }, policyTypes: ['Ingress'], ingress: [{ from: [quarryPods], ports: [{ port: 8080, protocol: 'TCP' }, { port: 50051, protocol: 'TCP' }] }] }),
    np('quarry-health-ingress', { podSelector: { matchLabels: PART_OF }, policyTypes: ['Ingress'], ingress: [{ ports: [{ port: HEALTH_PORT, protocol: 'TCP' }] }] }),
    np('quarry-egress', {
      podSelector: { matchLabels: PART_OF },
      policyTypes: ['Egress'],
      egress: [
        { to: [{ namespaceSelector: {}, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }], ports: [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }] },
        { to: [{ podSelector: { matchLabels: selector('redis') } }], ports: [{ port: 6379, protocol: 'TCP' }] },
        { to: [{ podSelector: { matchLabels: selector('weaviate') } }], ports: [{ port: 8080, protocol: 'TCP' }, { port: 50051, protocol: 'TCP' }] },
        { ports: [{ port: 443, protocol: 'TCP' }] },
      ],
    }),
  ];
}

/**
 * For clusters that prefer a CronJob to the BullMQ scheduler the memory-decay worker upserts
 * at start-up: suspended here, turned on by an overlay (then the scheduler's weekly job and this
 * one both run; decay is exact and idempotent, so a second run in a week only prunes again).
 */
export function decayCronJob(): Manifest {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'quarry-memory-decay', labels: labels('memory-decay-cron') },
    spec: {
      // The same weekly moment as the BullMQ scheduler's pattern.
      schedule: MEMORY_DECAY_PATTERN,
      timeZone: 'Etc/UTC',
      suspend: true,
      concurrencyPolicy: 'Forbid',
      jobTemplate: {
        spec: {
          backoffLimit: 3,
          template: {
            metadata: { labels: labels('memory-decay-cron') },
            spec: {
              restartPolicy: 'OnFailure',
              securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } },
              containers: [
                {
                  name: 'memory-decay',
                  image: IMAGE,
                  args: ['memory', 'decay'],
                  envFrom: [{ configMapRef: { name: 'quarry-config' } }, { secretRef: { name: 'quarry-secrets', optional: true } }],
                  resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '512Mi' } },
                  securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
                  volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
                },
              ],
              volumes: [{ name: 'tmp', emptyDir: {} }],
            },
          },
        },
      },
    },
  };
}
