/**
 * What Kubernetes needs to know about each Quarry process, in one table. `k8s/generate.ts` turns
 * it into the kustomize base (`k8s/base/*.yaml`); a test checks the committed base is what the
 * table generates, and that every worker in `workers/` has an entry.
 */
import type { WorkerName } from '../workers/index.ts';

/** Kubernetes resource requests and limits of one container. */
export interface Resources {
  cpu: string;
  memory: string;
  cpuLimit?: string;
  memoryLimit: string;
}

/**
 * What a pod's load is, for placement: `query` pods (the gateway, the agent) answer people and
 * prefer nodes without `ingest` pods (the stages, deletes, the facet rebuild with its index
 * builds), and those prefer nodes without them: a process at a lower priority still shares the
 * node's caches and memory bus, and neighbours that touch memory cost a search at 100k chunks
 * ~1.4–1.5× at nice 10 where busy loops cost it ~1.1× (docs/benchmarks.md, "What a neighbour's
 * memory traffic costs a search"). `background` pods (memory updates and decay) are light and go
 * anywhere. A preference only: a cluster of one node runs everything on it.
 */
export type Workload = 'query' | 'ingest' | 'background';

/** How one worker Deployment runs and scales. */
export interface WorkerSpec {
  /** The BullMQ queue it consumes (KEDA counts `<prefix>:<queue>:wait` and `:active`). */
  queue: string;
  workload: Workload;
  resources: Resources;
  /**
   * Longest a job of this stage may take (p99 and then some), seconds. The pod's
   * terminationGracePeriodSeconds is this plus a margin; the process lets running jobs finish for
   * this long after SIGTERM, then cancels what still runs so it retries elsewhere.
   */
  jobSeconds: number;
  maxReplicas: number;
  /** Jobs waiting + active per replica before KEDA adds one. */
  jobsPerReplica: number;
}

/**
 * Every worker. minReplicaCount is 1 for all of them: each queue retries with backoff, so failed
 * attempts wait as delayed jobs, and only a running worker promotes delayed (and scheduled) jobs.
 * A queue scaled to zero would hold its retries — and memory-decay its weekly run — forever.
 */
export const WORKERS: Record<WorkerName, WorkerSpec> = {
  extract: { workload: 'ingest', queue: 'ingest-extract', resources: { cpu: '500m', memory: '1536Mi', memoryLimit: '2Gi' }, jobSeconds: 150, maxReplicas: 8, jobsPerReplica: 4 },
  sectionize: { workload: 'ingest', queue: 'ingest-sectionize', resources: { cpu: '200m', memory: '256Mi', memoryLimit: '512Mi' }, jobSeconds: 60, maxReplicas: 4, jobsPerReplica: 10 },
  chunk: { workload: 'ingest', queue: 'ingest-chunk', resources: { cpu: '200m', memory: '256Mi', memoryLimit: '512Mi' }, jobSeconds: 60, maxReplicas: 4, jobsPerReplica: 10 },
  enrich: { workload: 'ingest', queue: 'ingest-enrich', resources: { cpu: '200m', memory: '256Mi', memoryLimit: '512Mi' }, jobSeconds: 60, maxReplicas: 4, jobsPerReplica: 10 },
  embed: { workload: 'ingest', queue: 'ingest-embed', resources: { cpu: '500m', memory: '512Mi', memoryLimit: '1Gi' }, jobSeconds: 120, maxReplicas: 8, jobsPerReplica: 4 },
  upsert: { workload: 'ingest', queue: 'ingest-upsert', resources: { cpu: '250m', memory: '512Mi', memoryLimit: '1Gi' }, jobSeconds: 90, maxReplicas: 4, jobsPerReplica: 8 },
  delete: { workload: 'ingest', queue: 'ingest-delete', resources: { cpu: '100m', memory: '256Mi', memoryLimit: '512Mi' }, jobSeconds: 60, maxReplicas: 2, jobsPerReplica: 10 },
  'facet-rebuild': { workload: 'ingest', queue: 'facet-rebuild', resources: { cpu: '250m', memory: '512Mi', memoryLimit: '1Gi' }, jobSeconds: 300, maxReplicas: 1, jobsPerReplica: 1 },
  'memory-update': { workload: 'background', queue: 'memory-update', resources: { cpu: '100m', memory: '128Mi', memoryLimit: '256Mi' }, jobSeconds: 30, maxReplicas: 4, jobsPerReplica: 50 },
  'memory-decay': { workload: 'background', queue: 'memory-decay', resources: { cpu: '100m', memory: '256Mi', memoryLimit: '512Mi' }, jobSeconds: 600, maxReplicas: 1, jobsPerReplica: 1 },
  agent: { workload: 'query', queue: 'agent-run', resources: { cpu: '500m', memory: '512Mi', memoryLimit: '1Gi' }, jobSeconds: 30, maxReplicas: 10, jobsPerReplica: 4 },
};

/**
 * Process settings of every worker Deployment but the agent's, set before the process starts
 * (neither can be changed from inside it): V8's young generation capped at 8 MB per semi-space
 * (default 16 MB, kept resident once filled) and glibc limited to 2 malloc arenas (LanceDB's and
 * the other native thread pools otherwise each keep an arena of freed memory). The cap was 2 MB,
 * for ~20 MB less per Node process, until `bench ingest`'s per-stage CPU showed its price: every
 * stage parses and writes a book's artifacts (megabytes of JSON), which a 2 MB young generation
 * promotes early and collects again — 19–23 ms of CPU a page over the stage processes for the
 * 352-page book against 15.8–16.4 at 8 MB (16–17.9 at 16 MB), the stages after extraction half
 * again as dear. The busiest pod peaked at 256 MB at 8 MB, 252 at 2 and 278 at 16 (docs/benchmarks.md,
 * "The workers' young generation"). The agent keeps V8's defaults: its query path allocates
 * more short-lived objects per request. `npm run bench -- ingest` starts its stage processes
 * with these too.
 */
export const WORKER_PROCESS_ENV: Readonly<Record<string, string>> = { NODE_OPTIONS: '--max-semi-space-size=8', MALLOC_ARENA_MAX: '2' };

/** Seconds between SIGTERM's arrival and the process giving up on its running jobs' last chance. */
export const SHUTDOWN_MARGIN_SECONDS = 15;

/** The image every Deployment runs (overlays pin the tag). */
export const IMAGE = 'ghcr.io/quarry/quarry';
/** Port of the workers' /healthz and /readyz (HEALTH_PORT). */
export const HEALTH_PORT = 8081;
/** The gateway's port (GATEWAY_PORT). */
export const GATEWAY_PORT = 8080;
