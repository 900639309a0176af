import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRedisServer } from '../apps/cli/local-redis.ts';
import { loadConfig } from '../shared/config/config.ts';
import { dropToSearchable, stageProcessFigures } from './ingest-latency.ts';
import { pageCost, partsPerPage, type CpuParts, type PageCost } from './ingest-stats.ts';
import { benchConfig, benchEnv, inProcessInFreshProcess, queuedInFreshProcess, type QueuedRun } from './pipeline-runs.ts';
import { unpdfInFreshProcess, type UnpdfRun } from './unpdf-alone.ts';

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
   * process of the pipeline: the stage workers' process, their extraction children, Redis — and
   * of unpdf alone reading the same files, each in processes started for the run
   * (bench/pipeline-runs.ts, bench/unpdf-alone.ts); their ratio; pages per CPU-second. Null
   * without /proc.
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
  /**
   * The same cost once both sides have run a while: unpdf alone and the queued run each carry the
   * `warmup` files first, uncounted, in the process that then reads the corpus. A fresh process
   * pays its JIT's first optimisations in its first few hundred pages, and Quarry has more code to
   * optimise than unpdf; a worker that stays up pays them once. Null without warm-up files or /proc.
   */
  warm: { warmupFiles: number; cpuMsPerPage: { quarry: number; unpdf: number }; cpuRatio: number; pagesPerSecPerCore: number; cpuMsPerPageByPart: CpuParts } | null;
}

const perSec = (n: number, ms: number) => Math.round((n / (ms / 1000)) * 10) / 10;

/** The sum to one decimal, or null when any part is missing. */
function sumOrNull(parts: readonly (number | null)[]): number | null {
  return parts.some((p) => p === null) ? null : Math.round(parts.reduce<number>((n, p) => n + (p ?? 0), 0) * 10) / 10;
}

/** {@link PageCost} of a queued run against unpdf alone, with the queued run's parts per page; null without its CPU parts. */
function costOf(q: QueuedRun, raw: UnpdfRun): (PageCost & { byPart: CpuParts }) | null {
  if (!q.parts || q.pages <= 0) return null;
  const cpuMs = q.parts.mainThread + q.parts.otherThreads + q.parts.children + q.parts.redis;
  return { ...pageCost({ cpuMs, pages: q.pages }, { cpuMs: raw.cpuMs, pages: raw.pages }), byPart: partsPerPage(q.parts, q.pages) };
}

/**
 * Runs the measurements on one set of files; `rss: false` skips the per-stage processes, and
 * `warmup` (other files) adds the {@link CorpusFigures.warm} runs.
 */
export async function benchCorpus(files: readonly string[], opts: { rss?: boolean; warmup?: readonly string[] } = {}): Promise<CorpusFigures> {
  const root = mkdtempSync(path.join(tmpdir(), 'quarry-bench-'));
  const redis = await startRedisServer({ dir: path.join(root, 'redis') });
  try {
    const raw = await unpdfInFreshProcess(files);
    const inproc = await inProcessInFreshProcess(root, redis.url, files);
    const q = await queuedInFreshProcess(root, redis.url, files);
    const drop = await dropToSearchable(benchConfig(root, redis.url, `drop-${Date.now()}`), files);
    const rssEnv = benchEnv(root, redis.url, `rss-${Date.now()}`);
    const staged = opts.rss === false ? null : await stageProcessFigures(loadConfig({ ...process.env, ...rssEnv }), rssEnv, files);
    const cost = costOf(q, raw);
    const warmup = opts.warmup ?? [];
    const warm = warmup.length > 0 ? costOf(await queuedInFreshProcess(root, redis.url, files, warmup), await unpdfInFreshProcess(files, warmup)) : null;
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
      cpuMsPerPageByPart: cost?.byPart ?? null,
      warm: warm && {
        warmupFiles: warmup.length,
        cpuMsPerPage: { quarry: warm.quarryCpuMsPerPage, unpdf: warm.unpdfCpuMsPerPage },
        cpuRatio: warm.cpuRatio,
        pagesPerSecPerCore: warm.pagesPerSecPerCore,
        cpuMsPerPageByPart: warm.byPart,
      },
    };
  } finally {
    await redis.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
