/**
 * The kustomize base as objects, built from `k8s/spec.ts`. Pure: `k8s/generate.ts` writes them to
 * `k8s/base/`, and a test checks the committed files are exactly what this builds.
 */
import { GATEWAY_PORT, HEALTH_PORT, IMAGE, SHUTDOWN_MARGIN_SECONDS, WORKER_PROCESS_ENV, WORKERS, type Resources, type WorkerSpec, type Workload } from './spec.ts';

export type Manifest = Record<string, unknown> & { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> } };

/** Every Quarry object carries this label (network policies select Quarry's pods by it). */
export const PART_OF = { 'app.kubernetes.io/part-of': 'quarry' };
export const labels = (component: string) => ({ 'app.kubernetes.io/name': `quarry-${component}`, 'app.kubernetes.io/component': component, ...PART_OF });
export const selector = (component: string) => ({ 'app.kubernetes.io/name': `quarry-${component}` });

/** Prefix of every BullMQ key (QUARRY_PREFIX in the ConfigMap); KEDA reads `<prefix>:<queue>:wait`. */
export const QUEUE_PREFIX = 'quarry';
const REDIS_HOST = 'quarry-redis';

function resources(r: Resources) {
  return {
    requests: { cpu: r.cpu, memory: r.memory },
    limits: { memory: r.memoryLimit, ...(r.cpuLimit ? { cpu: r.cpuLimit } : {}) },
  };
}

/** Runs as the image's unprivileged user, read-only root, no privileges; /tmp and /data are volumes. */
const SECURITY = { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } };
const CONTAINER_SECURITY = { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } };
const ENV_FROM = [{ configMapRef: { name: 'quarry-config' } }, { secretRef: { name: 'quarry-secrets', optional: true } }];
/** Artifacts and the watched folder on one shared (ReadWriteMany) volume; with ARTIFACT_STORE=s3 and WATCH_BUCKET it holds nothing. */
const VOLUMES = [{ name: 'tmp', emptyDir: {} }, { name: 'data', persistentVolumeClaim: { claimName: 'quarry-data' } }];
const MOUNTS = [{ name: 'tmp', mountPath: '/tmp' }, { name: 'data', mountPath: '/data' }];

/** The pod label saying its {@link Workload}. */
export const WORKLOAD_LABEL = 'quarry.io/workload';

/** Which workload a pod of each kind prefers not to share a node with. */
const KEEP_APART: Partial<Record<Workload, Workload>> = { query: 'ingest', ingest: 'query' };

/** A soft anti-affinity: rather not on a node running pods of `other` (scheduled anyway when there is no such node). */
function apartFrom(other: Workload) {
  return {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { ...PART_OF, [WORKLOAD_LABEL]: other } }, topologyKey: 'kubernetes.io/hostname' } },
      ],
    },
  };
}

function podTemplate(component: string, workload: Workload, container: Record<string, unknown>, graceSeconds: number) {
  const other = KEEP_APART[workload];
  return {
    metadata: { labels: { ...labels(component), [WORKLOAD_LABEL]: workload } },
    spec: {
      ...(other ? { affinity: apartFrom(other) } : {}),
      securityContext: SECURITY,
      terminationGracePeriodSeconds: graceSeconds,
      containers: [{ name: component, image: IMAGE, imagePullPolicy: 'IfNotPresent', envFrom: ENV_FROM, securityContext: CONTAINER_SECURITY, volumeMounts: MOUNTS, ...container }],
      volumes: VOLUMES,
    },
  };
}

/** A Deployment of one Quarry process: `spec` fields (replicas first) around the selector and pod template. */
function deployment(component: string, workload: Workload, spec: Record<string, unknown>, container: Record<string, unknown>, graceSeconds: number): Manifest {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `quarry-${component}`, labels: labels(component) },
    spec: { ...spec, selector: { matchLabels: selector(component) }, template: podTemplate(component, workload, container, graceSeconds) },
  };
}

/** Liveness: the event loop is not stuck. Readiness: Redis answers and the workers run (never queue emptiness). */
function probes(port: number | string) {
  return {
    livenessProbe: { httpGet: { path: '/healthz', port }, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 6 },
    readinessProbe: { httpGet: { path: '/readyz', port }, initialDelaySeconds: 5, periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 3 },
  };
}

/** The pod's grace period for a worker: its longest job plus the shutdown margin. */
export function graceSeconds(spec: WorkerSpec): number {
  return spec.jobSeconds + SHUTDOWN_MARGIN_SECONDS;
}

function workerDeployment(name: string, spec: WorkerSpec): Manifest {
  return deployment(
    `worker-${name}`,
    spec.workload,
    { replicas: 1, revisionHistoryLimit: 3 },
    {
      args: ['workers', 'start', '--only', name],
      env: [
        { name: 'HEALTH_PORT', value: String(HEALTH_PORT) },
        // Running jobs get until just before the pod is killed, then are cancelled so they retry elsewhere.
        { name: 'WORKER_SHUTDOWN_GRACE_MS', value: String(spec.jobSeconds * 1000) },
        ...(name === 'agent' ? [] : Object.entries(WORKER_PROCESS_ENV).map(([k, value]) => ({ name: k, value }))),
      ],
      ports: [{ name: 'health', containerPort: HEALTH_PORT }],
      resources: resources(spec.resources),
      ...probes('health'),
    },
    graceSeconds(spec),
  );
}

function scaledObject(name: string, spec: WorkerSpec): Manifest {
  const trigger = (list: 'wait' | 'active') => ({
    type: 'redis',
    name: `${list}-jobs`,
    metadata: { address: `${REDIS_HOST}:6379`, listName: `${QUEUE_PREFIX}:${spec.queue}:${list}`, listLength: String(spec.jobsPerReplica) },
  });
  return {
    apiVersion: 'keda.sh/v1alpha1',
    kind: 'ScaledObject',
    metadata: { name: `quarry-worker-${name}`, labels: labels(`worker-${name}`) },
    spec: {
      scaleTargetRef: { name: `quarry-worker-${name}` },
      // Never zero: delayed retries and scheduled jobs are promoted only by a running worker.
      minReplicaCount: 1,
      maxReplicaCount: spec.maxReplicas,
      pollingInterval: 10,
      cooldownPeriod: 120,
      triggers: [trigger('wait'), trigger('active')],
    },
  };
}

function pdb(component: string, rule: { minAvailable?: number; maxUnavailable?: number }): Manifest {
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: `quarry-${component}`, labels: labels(component) }, spec: { ...rule, selector: { matchLabels: selector(component) } } };
}

/** One Deployment, KEDA ScaledObject and PodDisruptionBudget per worker. */
export function workerManifests(): Manifest[] {
  return Object.entries(WORKERS).flatMap(([name, spec]) => [workerDeployment(name, spec), scaledObject(name, spec), pdb(`worker-${name}`, { maxUnavailable: 1 })]);
}

/** The gateway: Deployment, Service, CPU HPA, PDB. */
export function gatewayManifests(): Manifest[] {
  const component = 'gateway';
  return [
    deployment(
      component,
      'query',
      { replicas: 2 },
      {
        args: ['gateway'],
        env: [{ name: 'GATEWAY_HOST', value: '0.0.0.0' }, { name: 'GATEWAY_PORT', value: String(GATEWAY_PORT) }],
        ports: [{ name: 'http', containerPort: GATEWAY_PORT }],
        resources: resources({ cpu: '250m', memory: '256Mi', memoryLimit: '512Mi' }),
        livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 6 },
        readinessProbe: { httpGet: { path: '/readyz', port: 'http' }, periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 3 },
      },
      30,
    ),
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'quarry-gateway', labels: labels(component) },
      spec: { selector: selector(component), ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
    },
    {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'quarry-gateway', labels: labels(component) },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'quarry-gateway' },
        minReplicas: 2,
        maxReplicas: 10,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
      },
    },
    pdb(component, { minAvailable: 1 }),
  ];
}

/** The watcher: one replica (Recreate, so two never overlap in a rollout); a Redis lease guards it too. */
export function watcherManifests(): Manifest[] {
  return [
    deployment(
      'watcher',
      'background',
      { replicas: 1, strategy: { type: 'Recreate' } },
      {
        args: ['watch'],
        env: [{ name: 'HEALTH_PORT', value: String(HEALTH_PORT) }, { name: 'WATCH_POLL', value: 'true' }],
        ports: [{ name: 'health', containerPort: HEALTH_PORT }],
        resources: resources({ cpu: '100m', memory: '256Mi', memoryLimit: '512Mi' }),
        ...probes('health'),
      },
      30,
    ),
  ];
}
