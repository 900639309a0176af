/**
 * The two pipeline runs of `bench ingest`, each in a Node process started for it
 * ({@link runInFreshProcess}): the stage handlers called in-process without queues, and one
 * `quarry dev`-like process carrying the documents through the queues. Run in the bench's own
 * process they inherited its state: stage code the previous runs had optimised, and a heap of up
 * to ~1 GB for the garbage collector to walk.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService } from '../apps/cli/service.ts';
import { waitForDrained } from '../apps/cli/wait.ts';
import { loadConfig, type Config } from '../shared/config/config.ts';
import type { DocStatus } from '../shared/status/doc-status.ts';
import { createLogger } from '../shared/telemetry/logger.ts';
import { INGEST_WORKERS } from '../workers/index.ts';
import { createPorts } from '../workers/compose.ts';
import type { Ports } from '../workers/runtime/ports.ts';
import { runStageOnce } from '../workers/runtime/run-once.ts';
import { UPSERT_CONCURRENCY_FACTOR } from '../workers/upsert/upsert.worker.ts';
import { awaitSettled } from './await-settled.ts';
import { answerIfForked, runInFreshProcess } from './fresh-process.ts';
import { redisCpuSeconds, type CpuParts } from './ingest-stats.ts';
import { cpuPartsSince, treeCpuPartsMs } from './process-cpu.ts';
import { registerFiles } from './register-files.ts';

const PIPELINE = ['extract', 'sectionize', 'chunk', 'enrich', 'embed', 'upsert'] as const;

/** The environment of one bench run named `name`: its own Redis prefix and folders under `root`. */
export function benchEnv(root: string, redisUrl: string, name: string): Record<string, string> {
  return {
    REDIS_URL: redisUrl,
    QUARRY_PREFIX: `bench-${name}`,
    QUARRY_DATA_DIR: path.join(root, name),
    QUARRY_WATCH_DIR: path.join(root, `${name}-inbox`),
    LOG_LEVEL: 'error',
    WORKER_CONCURRENCY: '2',
  };
}

/**
 * Laid over the process's environment, as the query bench does, so the configured embedder and
 * store settings (EMBED_*, LANCEDB_*) are honoured; the run's own keys are fixed and private.
 */
export function benchConfig(root: string, redisUrl: string, name: string): Config {
  return loadConfig({ ...process.env, ...benchEnv(root, redisUrl, name) });
}

async function register(ports: Ports, config: Config, files: readonly string[]): Promise<{ docId: string; version: string; gen: number }[]> {
  const out = [];
  for (const r of await registerFiles({ ...ports, prefix: config.prefix }, files)) {
    const s = await ports.status.get(r.docId);
    out.push({ docId: r.docId, version: r.version, gen: s?.gen ?? 0 });
  }
  return out;
}

/**
 * The same stage handlers as the workers, called in this process with no queue. As many documents
 * are in flight as the queued run allows its busiest stage (upsert: WORKER_CONCURRENCY × UPSERT_CONCURRENCY_FACTOR), so
 * the comparison measures the queues, not a difference in parallelism.
 */
async function inProcess(root: string, redisUrl: string, files: readonly string[]): Promise<{ pages: number; chunks: number; ms: number }> {
  const config = benchConfig(root, redisUrl, `inproc-${Date.now()}`);
  const ports = await createPorts(config);
  const log = createLogger('error');
  try {
    // Children started before the clock, as the queued run's extract worker starts them.
    await ports.extractor.warm();
    const t0 = performance.now();
    const docs = await register(ports, config, files);
    let pages = 0;
    let chunks = 0;
    let next = 0;
    const lane = async () => {
      while (next < docs.length) {
        const doc = docs[next++]!;
        try {
          for (const stage of PIPELINE) await runStageOnce(INGEST_WORKERS[stage], doc, ports, log);
        } catch {
          continue; // failed documents count as the queued run counts them: no pages, no chunks
        }
        // Pages and chunks from the status record, as the queued run counts them (no store read
        // inside the timed loop that the queued run does not make).
        const s = await ports.status.get(doc.docId);
        pages += s?.pageCount ?? 0;
        chunks += s?.chunkCount ?? 0;
      }
    };
    await Promise.all(Array.from({ length: config.worker.concurrency * UPSERT_CONCURRENCY_FACTOR }, lane));
    return { pages, chunks, ms: performance.now() - t0 };
  } finally {
    await ports.close();
  }
}

/** What the queued run measured: pages, chunks, wall ms, and its CPU by part (null without /proc). */
export interface QueuedRun {
  pages: number;
  chunks: number;
  ms: number;
  /**
   * This process's main thread and other threads (every worker, LanceDB's threads), its
   * extraction children, and the Redis server (its own count, `INFO cpu`).
   */
  parts: CpuParts | null;
}

/** Registers `files` and waits until every one has settled and the queues are empty. */
async function ingestAll(ports: Ports, config: Config, files: readonly string[]): Promise<DocStatus[]> {
  const docs = await register(ports, config, files);
  // Polled in registration order, one status read a tick: listing every document every 25 ms
  // (as waitForSettled does) took CPU and Redis time from the run it measured.
  const settled = await awaitSettled(ports.status, docs.map((d) => d.docId), { timeoutMs: 1_800_000, intervalMs: 25 });
  await waitForDrained(ports.queues, 60_000, 10);
  return settled.statuses;
}

/**
 * One `quarry dev`-like process (this one): every worker, documents registered and carried through
 * the queues. With `warmup`, those documents are carried through first and not counted: the figure
 * is then what a page costs a process that has run for a while (its code optimised, its store not
 * empty), not one that has just started.
 */
async function queued(root: string, redisUrl: string, files: readonly string[], warmup: readonly string[]): Promise<QueuedRun> {
  const config = benchConfig(root, redisUrl, `queued-${Date.now()}`);
  const service = await startService(config, { workers: Object.values(INGEST_WORKERS), watch: false });
  try {
    // Counted from the moment every worker is ready (its extraction children started and pdf.js
    // loaded: `bench coldstart` measures that), so the figure is what pages cost, not start-up.
    await service.workers?.ready;
    if (warmup.length > 0) await ingestAll(service.ports, config, warmup);
    const redisCpu = async () => redisCpuSeconds(await service.ports.redis.info('cpu')) * 1000;
    const parts0 = treeCpuPartsMs();
    const redis0 = await redisCpu();
    const t0 = performance.now();
    const done = await ingestAll(service.ports, config, files);
    const ms = performance.now() - t0;
    const parts = cpuPartsSince(parts0, treeCpuPartsMs());
    const redisMs = (await redisCpu()) - redis0;
    return {
      parts: parts && { ...parts, redis: redisMs },
      pages: done.reduce((n, s) => n + (s.state === 'indexed' ? (s.pageCount ?? 0) : 0), 0),
      chunks: done.reduce((n, s) => n + (s.chunkCount ?? 0), 0),
      ms,
    };
  } finally {
    await service.stop();
  }
}

type RunRequest = { run: 'inProcess' | 'queued'; root: string; redisUrl: string; files: string[]; warmup?: string[] };

const SELF = fileURLToPath(import.meta.url);

/** {@link inProcess} in a new Node process. @throws Error when it ends without its figures. */
export function inProcessInFreshProcess(root: string, redisUrl: string, files: readonly string[]): Promise<{ pages: number; chunks: number; ms: number }> {
  return runInFreshProcess(SELF, { run: 'inProcess', root, redisUrl, files: [...files] } satisfies RunRequest);
}

/** {@link queued} in a new Node process, after `warmup` when given. @throws Error when it ends without its figures. */
export function queuedInFreshProcess(root: string, redisUrl: string, files: readonly string[], warmup: readonly string[] = []): Promise<QueuedRun> {
  return runInFreshProcess(SELF, { run: 'queued', root, redisUrl, files: [...files], warmup: [...warmup] } satisfies RunRequest);
}

answerIfForked<RunRequest, unknown>(SELF, (r) => (r.run === 'queued' ? queued(r.root, r.redisUrl, r.files, r.warmup ?? []) : inProcess(r.root, r.redisUrl, r.files)));
