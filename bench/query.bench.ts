/**
 * `npm run bench -- query`: candidate hybrid search and whole agent runs over a synthetic
 * corpus at several sizes, and gateway throughput with one and two agent worker processes.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { startRedisServer } from '../apps/cli/local-redis.ts';
import { loadConfig, type Config } from '../shared/config/config.ts';
import type { MaintenanceReport } from '../shared/store/index.ts';
import { vectorIndexAction } from '../shared/store/lancedb/vector-index.ts';
import { createPorts } from '../workers/compose.ts';
import type { Ports } from '../workers/runtime/ports.ts';
import { gatewayBench, type GatewayFigures } from './query-gateway.ts';
import { loadSyntheticCorpus, type LoadFigures } from './query-load-corpus.ts';
import { measureAgent, measureCandidates, overlapAt, type AgentFigures, type CandidateFigures, type MeasureQueries } from './query-measure.ts';
import type { LatencySummary } from './query-stats.ts';
import { syntheticQueries } from './synthetic-corpus.ts';
import { ALONE_MS, whileIngesting, type MixedFigures } from './query-mixed.ts';

/** Targets of the query path (seed 000 §11). */
export const TARGETS = { candidateP95Ms: 50, agentP95Ms: 250, atSize: 100_000 } as const;

export interface QueryBenchOptions {
  sizes: number[];
  /** Timed queries per size (after a short untimed warm-up). */
  queries: number;
  gateway: { requests: number; concurrency: number; workers: number[] } | null;
  /** Also measure the exact vector scan, before the store's maintenance indexes the vectors. */
  compareExact: boolean;
  seed: number;
  /** Progress lines on stderr. */
  log: (line: string) => void;
  /** Small PDFs ingested continuously during the mixed-workload measurement; none skips it. */
  ingestFiles?: readonly string[];
  /** WORKER_NICE of the ingest worker processes, one mixed-workload measurement each, in this order. @defaultValue [0, 10] */
  workerNice?: readonly number[];
}

/** Figures of one corpus size. */
export interface SizeFigures extends AgentFigures {
  chunks: number;
  load: LoadFigures & { diskMb: number };
  /** What `store.maintain()` did after the load (as the debounced facet-rebuild job does). */
  maintenance: MaintenanceReport;
  /** store.hybrid(limit 300, temporal clamp, alpha 0.5), ms, on the maintained store. */
  candidate: LatencySummary;
  /** The same two measurements before maintenance (exact vector scan), when it built an index and a comparison was asked for. */
  exact: ExactFigures | null;
  /** Candidate and agent latency again with continuous ingest running: the last of `whileIngestingByNice` (null when not asked for). */
  whileIngesting: MixedFigures | null;
  /** The mixed workload at each WORKER_NICE of the ingest processes, keyed by it. */
  whileIngestingByNice: Record<string, MixedFigures>;
}

export interface ExactFigures extends AgentFigures {
  candidate: LatencySummary;
  /** Share of the exact hybrid top 300 (and top 30) the indexed hybrid also returns. */
  overlapAt300: number;
  overlapAt30: number;
}

export interface QueryBenchResult {
  /** Vector dimension and embedder model the corpus was embedded with. */
  dimension: number;
  embedder: string;
  sizes: Record<string, SizeFigures>;
  gateway: (GatewayFigures & { chunks: number }) | null;
  skipped: string[];
  /** 1-minute load average of the machine when the run started and ended (other processes share the cores). */
  loadAverage: { start: number; end: number };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Bytes under `dir`, in MB. */
function diskMb(dir: string): number {
  let bytes = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else bytes += st.size;
    }
  };
  walk(dir);
  return Math.round(bytes / 1e5) / 10;
}

/** Why 1M chunks is not run, with what the largest measured size says it would cost. */
function millionNote(sizes: Record<string, SizeFigures>): string {
  const largest = Object.values(sizes).sort((a, b) => b.chunks - a.chunks)[0];
  if (!largest) return '1000000 chunks: not run.';
  const k = 1_000_000 / largest.chunks;
  const build = largest.maintenance.vectorIndex === 'built' ? `, and the vector index build and compaction (${largest.maintenance.seconds} s at ${largest.chunks}) at least ${Math.round((largest.maintenance.seconds * k) / 60)} min more` : '';
  return (
    `1000000 chunks: not run by default. Scaling the ${largest.chunks}-chunk load linearly gives ≥ ${Math.round((largest.load.loadSeconds * k) / 60)} min ` +
    `and ≥ ${Math.round((largest.load.diskMb * k) / 1024)} GB on disk (refreshes of the full-text index grow with the table, so more)${build}: ` +
    'it does not fit the ~15 min budget. Run it explicitly with --sizes=1m.'
  );
}

/** The run's settings as environment variables: what the bench's own ports and its worker processes load. */
function benchEnv(root: string, redisUrl: string, size: number): Record<string, string> {
  // Laid over the process's environment, so the configured embedder (EMBEDDER, EMBED_*) is
  // honoured; these are fixed and private to the run.
  return {
    REDIS_URL: redisUrl,
    QUARRY_PREFIX: `bench-query-${size}`,
    QUARRY_DATA_DIR: path.join(root, `data-${size}`),
    QUARRY_WATCH_DIR: path.join(root, 'inbox'),
    LOG_LEVEL: 'error',
    // The agent as measured: no LLM, the embedded reranker, an open gateway on loopback only.
    LLM: 'none',
    RERANKER: 'lexical',
    GATEWAY_HOST: '127.0.0.1',
    QUARRY_API_KEYS: '',
    QUARRY_ADMIN_KEYS: '',
  };
}

/** Untimed questions before each timed series. */
const WARMUP_QUERIES = 5;

/**
 * Runs `fn` on ports of its own. The store remembers recent reads (per table version), so each
 * measured series starts from a store that has seen none of the series before it.
 */
async function onFreshPorts<T>(config: Config, fn: (ports: Ports) => Promise<T>): Promise<T> {
  const ports = await createPorts(config);
  try {
    return await fn(ports);
  } finally {
    await ports.close();
  }
}

/** Runs the whole benchmark; every process and file it starts is stopped and removed before it returns. */
export async function queryBench(opts: QueryBenchOptions): Promise<QueryBenchResult> {
  const root = mkdtempSync(path.join(tmpdir(), 'quarry-bench-query-'));
  const redis = await startRedisServer({ dir: path.join(root, 'redis') });
  const queries: MeasureQueries = { timed: syntheticQueries(opts.queries, opts.seed), warmup: syntheticQueries(WARMUP_QUERIES, opts.seed + 1) };
  const today = new Date().toISOString().slice(0, 10);
  const result: QueryBenchResult = { dimension: 0, embedder: '', sizes: {}, gateway: null, skipped: [], loadAverage: { start: round2(loadavg()[0] ?? 0), end: 0 } };
  const largest = Math.max(...opts.sizes);
  try {
    for (const size of opts.sizes) {
      const env = benchEnv(root, redis.url, size);
      const config: Config = loadConfig({ ...process.env, ...env });
      const ports = await createPorts(config);
      try {
        await ports.store.ensureSchema({ dimension: ports.embedder.dimension, model: ports.embedder.model });
        result.dimension = ports.embedder.dimension;
        result.embedder = ports.embedder.model;
        opts.log(`[${size}] loading ${size} chunks…`);
        const load = await loadSyntheticCorpus({
          store: ports.store,
          embedder: ports.embedder,
          embeddingCache: ports.embeddingCache,
          embedBatchSize: config.embedder.batchSize,
          chunks: size,
          // Every write's refresh compacts and re-indexes a growing table, and the store keeps
          // what it replaces for an hour: 25k-chunk writes filled 75 GB of disk by 675k chunks.
          writeBatch: Math.max(25_000, Math.ceil(size / 10)),
          seed: opts.seed,
          onProgress: (n, total) => opts.log(`[${size}]   ${n}/${total} chunks written`),
        });
        opts.log(`[${size}] loaded in ${load.loadSeconds}s; candidate search × ${queries.timed.length}…`);
        const disk = diskMb(config.lancedbDir);
        // Before maintenance the vectors have no index yet: the exact scan, for comparison.
        const vs = config.vectorStore;
        const willIndex = vs.kind === 'lancedb' && vectorIndexAction({ rows: await ports.store.countChunks(), index: null }, vs.vectorIndex).action === 'build';
        let before: { candidates: CandidateFigures; agent: AgentFigures } | null = null;
        if (opts.compareExact && willIndex) {
          const candidates = await onFreshPorts(config, (fresh) => measureCandidates(fresh, queries, today));
          opts.log(`[${size}] exact vector scan: candidate p50 ${candidates.latency.p50} ms, p95 ${candidates.latency.p95} ms; agent runs × ${queries.timed.length}…`);
          const agent = await onFreshPorts(config, (fresh) => measureAgent(fresh, queries, `b${size}-exact`));
          opts.log(`[${size}] exact vector scan: agent p50 ${agent.agent.p50} ms, p95 ${agent.agent.p95} ms`);
          before = { candidates, agent };
        }
        const maintenance = await ports.store.maintain();
        opts.log(`[${size}] maintenance: vector index ${maintenance.vectorIndex} (${maintenance.reason}) in ${maintenance.seconds}s; candidate search × ${queries.timed.length}…`);
        const cand = await onFreshPorts(config, (fresh) => measureCandidates(fresh, queries, today));
        const exact: ExactFigures | null = before && {
          candidate: before.candidates.latency,
          overlapAt300: overlapAt(before.candidates.ids, cand.ids, 300),
          overlapAt30: overlapAt(before.candidates.ids, cand.ids, 30),
          ...before.agent,
        };
        opts.log(`[${size}] candidate p50 ${cand.latency.p50} ms, p95 ${cand.latency.p95} ms; agent runs × ${queries.timed.length}…`);
        const agent = await onFreshPorts(config, (fresh) => measureAgent(fresh, queries, `b${size}`));
        opts.log(`[${size}] agent p50 ${agent.agent.p50} ms, p95 ${agent.agent.p95} ms`);
        let mixed: MixedFigures | null = null;
        const byNice: Record<string, MixedFigures> = {};
        for (const nice of opts.ingestFiles?.length ? (opts.workerNice ?? [0, 10]) : []) {
          opts.log(`[${size}] ingest workers at WORKER_NICE=${nice}: alone ${ALONE_MS / 1000}s, then candidate search and agent runs while ingesting…`);
          mixed = await whileIngesting(config, env, nice, queries, today, `b${size}`, opts.ingestFiles ?? [], onFreshPorts);
          byNice[String(nice)] = mixed;
          opts.log(`[${size}] while ingesting (nice ${nice}): candidate p95 ${mixed.candidateP95Ms} ms, agent p95 ${mixed.agentP95Ms} ms, ${mixed.ingestPagesPerSec} pages/s (alone ${mixed.ingestAlonePagesPerSec})`);
        }
        result.sizes[String(size)] = { chunks: load.chunks, load: { ...load, diskMb: disk }, maintenance, candidate: cand.latency, ...agent, exact, whileIngesting: mixed, whileIngestingByNice: byNice };
        if (opts.gateway && size === largest) {
          opts.log(`[${size}] gateway: ${opts.gateway.requests} requests at concurrency ${opts.gateway.concurrency}, workers ${opts.gateway.workers.join(' then ')}…`);
          try {
            // As many questions as requests, so no request repeats an earlier one by construction.
            const asked = syntheticQueries(opts.gateway.requests, opts.seed + 2);
            result.gateway = { chunks: size, ...(await gatewayBench({ config, queries: asked, ...opts.gateway, log: opts.log })) };
          } catch (err) {
            // Keep every other figure: say why the gateway part has none.
            result.skipped.push(`gateway: ${err instanceof Error ? err.message : String(err)}`);
          }
        }
      } finally {
        await ports.close();
      }
      // Each size has its own data directory; drop it once measured (100k chunks take ~2 GB).
      rmSync(config.dataDir, { recursive: true, force: true });
    }
    if (!opts.sizes.includes(1_000_000)) result.skipped.push(millionNote(result.sizes));
    result.loadAverage.end = round2(loadavg()[0] ?? 0);
  } finally {
    await redis.stop();
    rmSync(root, { recursive: true, force: true });
  }
  return result;
}
