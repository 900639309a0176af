import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getDocumentProxy } from 'unpdf';
import { startRedisServer } from '../apps/cli/local-redis.ts';
import { startService } from '../apps/cli/service.ts';
import { waitForDrained } from '../apps/cli/wait.ts';
import { loadConfig, type Config } from '../shared/config/config.ts';
import { createLogger } from '../shared/telemetry/logger.ts';
import { INGEST_WORKERS } from '../workers/index.ts';
import { createPorts } from '../workers/compose.ts';
import type { Ports } from '../workers/runtime/ports.ts';
import { runStageOnce } from '../workers/runtime/run-once.ts';
import { UPSERT_CONCURRENCY_FACTOR } from '../workers/upsert/upsert.worker.ts';
import { dropToSearchable, stageProcessFigures } from './ingest-latency.ts';
import { awaitSettled } from './await-settled.ts';
import { pageCost, type CpuParts } from './ingest-stats.ts';
import { cpuPartsSince, treeCpuMs, treeCpuPartsMs } from './process-cpu.ts';
import { registerFiles } from './register-files.ts';

export interface CorpusFigures {
  files: number;
  pages: number;
  chunks: number;
  unpdfPagesPerSec: number;
  inProcessPagesPerSec: number;
  inProcessChunksPerSec: number;
  queuedPagesPerSec: number;
  queuedChunksPerSec: number;
  /** queued wall time ÷ in-process wall time − 1: the share the queues add. */
  queueOverheadRatio: number;
  /** File written to the watched folder → its chunks found by a store query, per document (idle queues; at most `DROP_SAMPLE` (10) files of ingest-latency.ts). */
  dropToSearchableP50Ms: number | null;
  dropToSearchableP95Ms: number | null;
  /** Peak RSS (VmHWM) of each stage worker run as its own process; extract includes its extraction children. Null when skipped or not on Linux. */
  peakRssMbByStage: Record<string, number | null> | null;
  /** The same processes' peak as a container's memory limit counts it: anonymous pages of each, the node binary once (see groupResidentMb). Null as above. */
  peakPodMemoryMbByStage: Record<string, number | null> | null;
  /**
   * What a page costs, machine-independent (issue 31): CPU ms per page of the queued run — every
   * process of the pipeline: this process's stage workers, their extraction children, Redis — and
   * of unpdf alone reading the same files; their ratio; pages per CPU-second. Null without /proc.
   */
  cpuMsPerPage: { quarry: number; unpdf: number } | null;
  cpuRatio: number | null;
  pagesPerSecPerCore: number | null;
  /** `cpuMsPerPage.quarry` by part: the main thread, its other threads (LanceDB, file I/O), the extraction children, Redis. */
  cpuMsPerPageByPart: CpuParts | null;
  /**
   * CPU ms a page of the per-worker layout (each stage a process of its own, as the Deployments
   * run them; its extraction children included, Redis not): by stage and their sum. Null when the
   * per-stage processes are skipped or not on Linux.
   */
  stageProcessCpuMsPerPage: { total: number | null; byStage: Record<string, number | null> } | null;
}

const PIPELINE = ['extract', 'sectionize', 'chunk', 'enrich', 'embed', 'upsert'] as const;

function benchEnv(root: string, redisUrl: string, name: string): Record<string, string> {
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
function benchConfig(root: string, redisUrl: string, name: string): Config {
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

/** unpdf alone: open every file and read every page's text content, nothing else (its CPU: this process's). */
async function unpdfOnly(files: readonly string[]): Promise<{ pages: number; ms: number; cpuMs: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let pages = 0;
  for (const file of files) {
    const pdf = await getDocumentProxy(new Uint8Array(await readFile(file)), { isEvalSupported: false });
    for (let i = 1; i <= pdf.numPages; i++) await (await pdf.getPage(i)).getTextContent();
    pages += pdf.numPages;
    await pdf.destroy();
  }
  const cpu = process.cpuUsage(cpu0);
  return { pages, ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
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

/** One `quarry dev` process: every worker, documents registered and carried through the queues. */
async function queued(root: string, redisUrl: string, files: readonly string[]): Promise<{ pages: number; chunks: number; ms: number; cpuMs: number | null; parts: CpuParts | null }> {
  const config = benchConfig(root, redisUrl, `queued-${Date.now()}`);
  const service = await startService(config, { workers: Object.values(INGEST_WORKERS), watch: false });
  try {
    // Counted from the moment every worker is ready (its extraction children started and pdf.js
    // loaded: `bench coldstart` measures that), so the figure is what pages cost, not start-up.
    await service.workers?.ready;
    // The whole tree: stage workers here, their extraction children, the private redis-server.
    const cpu0 = treeCpuMs();
    const parts0 = treeCpuPartsMs();
    const t0 = performance.now();
    const docs = await register(service.ports, config, files);
    // Polled in registration order, one status read a tick: listing every document every 25 ms
    // (as waitForSettled does) took CPU and Redis time from the run it measured.
    const { statuses: done } = await awaitSettled(service.ports.status, docs.map((d) => d.docId), { timeoutMs: 1_800_000, intervalMs: 25 });
    await waitForDrained(service.ports.queues, 60_000, 10);
    const ms = performance.now() - t0;
    const cpu1 = treeCpuMs();
    const parts = cpuPartsSince(parts0, treeCpuPartsMs());
    return {
      parts,
      cpuMs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0,
      pages: done.reduce((n, s) => n + (s.state === 'indexed' ? (s.pageCount ?? 0) : 0), 0),
      chunks: done.reduce((n, s) => n + (s.chunkCount ?? 0), 0),
      ms,
    };
  } finally {
    await service.stop();
  }
}

const perSec = (n: number, ms: number) => Math.round((n / (ms / 1000)) * 10) / 10;
const perPart = (p: CpuParts, pages: number): CpuParts => {
  const r = (ms: number) => Math.round((ms / pages) * 10) / 10;
  return { mainThread: r(p.mainThread), otherThreads: r(p.otherThreads), children: r(p.children), redis: r(p.redis) };
};

/** The sum to one decimal, or null when any part is missing. */
function sumOrNull(parts: readonly (number | null)[]): number | null {
  return parts.some((p) => p === null) ? null : Math.round(parts.reduce<number>((n, p) => n + (p ?? 0), 0) * 10) / 10;
}

/** Runs the measurements on one set of files; `rss: false` skips the per-stage processes. */
export async function benchCorpus(files: readonly string[], opts: { rss?: boolean } = {}): Promise<CorpusFigures> {
  const root = mkdtempSync(path.join(tmpdir(), 'quarry-bench-'));
  const redis = await startRedisServer({ dir: path.join(root, 'redis') });
  try {
    const raw = await unpdfOnly(files);
    const inproc = await inProcess(root, redis.url, files);
    const q = await queued(root, redis.url, files);
    const drop = await dropToSearchable(benchConfig(root, redis.url, `drop-${Date.now()}`), files);
    const rssEnv = benchEnv(root, redis.url, `rss-${Date.now()}`);
    const staged = opts.rss === false ? null : await stageProcessFigures(loadConfig({ ...process.env, ...rssEnv }), rssEnv, files);
    const cost = q.cpuMs === null ? null : pageCost({ cpuMs: q.cpuMs, pages: q.pages }, { cpuMs: raw.cpuMs, pages: raw.pages });
    return {
      files: files.length,
      pages: q.pages,
      chunks: q.chunks,
      unpdfPagesPerSec: perSec(raw.pages, raw.ms),
      inProcessPagesPerSec: perSec(inproc.pages, inproc.ms),
      inProcessChunksPerSec: perSec(inproc.chunks, inproc.ms),
      queuedPagesPerSec: perSec(q.pages, q.ms),
      queuedChunksPerSec: perSec(q.chunks, q.ms),
      queueOverheadRatio: Math.round((q.ms / inproc.ms - 1) * 1000) / 1000,
      dropToSearchableP50Ms: drop.p50,
      dropToSearchableP95Ms: drop.p95,
      peakRssMbByStage: staged?.rss ?? null,
      peakPodMemoryMbByStage: staged?.pod ?? null,
      stageProcessCpuMsPerPage: staged ? { total: sumOrNull(Object.values(staged.cpuMsPerPage)), byStage: staged.cpuMsPerPage } : null,
      cpuMsPerPage: cost ? { quarry: cost.quarryCpuMsPerPage, unpdf: cost.unpdfCpuMsPerPage } : null,
      cpuRatio: cost?.cpuRatio ?? null,
      pagesPerSecPerCore: cost?.pagesPerSecPerCore ?? null,
      cpuMsPerPageByPart: q.parts && q.pages > 0 ? perPart(q.parts, q.pages) : null,
    };
  } finally {
    await redis.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
