import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { startRedisServer } from '../apps/cli/local-redis.ts';
import { startService } from '../apps/cli/service.ts';
import { waitForDrained, waitForSettled } from '../apps/cli/wait.ts';
import type { WatchEvent } from '../apps/watcher/local-watcher.ts';
import { loadConfig, type Config } from '../shared/config/config.ts';
import { WORKER_PROCESS_ENV } from '../k8s/spec.ts';
import { generateCorpus } from '../tests/fixtures/corpus.ts';
import { INGEST_WORKERS } from '../workers/index.ts';
import { createPorts } from '../workers/compose.ts';
import { groupResidentMb, latencyP50P95, msPerPage, parseChildren, residentMb, sumHwmMb, type ResidentMb } from './ingest-stats.ts';
import { buildDist, COMPILED_BIN, filledCompileCache } from './build-dist.ts';
import { registerFiles, registerWarmUp } from './register-files.ts';
import { treeCpuMs } from './process-cpu.ts';

/** At most this many files are dropped one by one for the latency figure: it stays bounded on any corpus. */
export const DROP_SAMPLE = 10;

/**
 * Drop-to-searchable: each file is copied into the watched folder while the queues are idle, and
 * timed until a store query finds its chunks (the watcher's write-settle wait included). The
 * first file is dropped once the process has started: the watcher's initial scan done and every
 * worker's start-up hook run (an extraction child with pdf.js loaded, the tokenizer's tables).
 */
export async function dropToSearchable(config: Config, files: readonly string[]): Promise<{ p50: number | null; p95: number | null; samples: number }> {
  mkdirSync(config.watchDir, { recursive: true });
  const registered = new Map<string, string>();
  const service = await startService(config, {
    workers: Object.values(INGEST_WORKERS),
    watch: true,
    onWatchEvent: (e: WatchEvent) => {
      if (e.kind === 'registered' || e.kind === 'unchanged') registered.set(path.basename(e.file), e.result.docId);
    },
  });
  const ms: number[] = [];
  try {
    await service.watcher?.ready;
    await service.workers?.ready;
    for (const file of files.slice(0, DROP_SAMPLE)) {
      const name = path.basename(file);
      const t0 = performance.now();
      copyFileSync(file, path.join(config.watchDir, name));
      const deadline = Date.now() + 120_000;
      for (;;) {
        if (Date.now() > deadline) throw new Error(`drop-to-searchable: ${name} not searchable after 120 s`);
        const docId = registered.get(name);
        if (docId) {
          if ((await service.ports.store.countChunks({ op: 'eq', field: 'doc_id', value: docId })) > 0) break;
          const s = await service.ports.status.get(docId);
          if (s?.state === 'failed') throw new Error(`drop-to-searchable: ${name} failed (${s.errorCode ?? 'unknown'})`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      ms.push(performance.now() - t0);
      // The next file is dropped on idle queues (facet rebuild and the upsert job's completion included).
      await waitForDrained(service.ports.queues, 60_000, 10);
    }
  } finally {
    await service.stop();
  }
  return { ...latencyP50P95(ms), samples: ms.length };
}

/** Pages of each generated PDF of {@link dropToSearchableTenPages}. */
export const TEN_PAGES = 10;

/** Drop-to-searchable figures of one set of files, ms. */
export interface DropFigures {
  p50Ms: number | null;
  p95Ms: number | null;
  samples: number;
  pages: number;
  /** 1-minute load average when the drops began and ended (the cores are shared). */
  loadAverage: { start: number; end: number };
}

/**
 * Drop-to-searchable of generated {@link TEN_PAGES}-page PDFs (`count` distinct documents, each
 * dropped on idle queues of one `quarry dev`-like process), on a redis-server and data directory
 * of its own, removed afterwards.
 */
export async function dropToSearchableTenPages(count = DROP_SAMPLE): Promise<DropFigures> {
  const root = mkdtempSync(path.join(tmpdir(), 'quarry-bench-drop-'));
  const redis = await startRedisServer({ dir: path.join(root, 'redis') });
  try {
    const { files } = await generateCorpus(path.join(root, 'corpus'), { count, seed: 1000, pagesPerDoc: [TEN_PAGES, TEN_PAGES] });
    const config = loadConfig({
      REDIS_URL: redis.url,
      QUARRY_PREFIX: 'bench-drop10',
      QUARRY_DATA_DIR: path.join(root, 'data'),
      QUARRY_WATCH_DIR: path.join(root, 'inbox'),
      LOG_LEVEL: 'error',
      WORKER_CONCURRENCY: '2',
    });
    const start = round2(loadavg()[0] ?? 0);
    const drop = await dropToSearchable(config, files);
    return { p50Ms: drop.p50, p95Ms: drop.p95, samples: drop.samples, pages: TEN_PAGES, loadAverage: { start, end: round2(loadavg()[0] ?? 0) } };
  } finally {
    await redis.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Resident memory of a process and (recursively) its children, one entry each; empty once it is gone. */
export function processTreeResident(pid: number): ResidentMb[] {
  const read = (p: string) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return ''; // the process ended between listing and reading
    }
  };
  const status = read(`/proc/${pid}/status`);
  if (!status) return [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [residentMb(status)];
  }
  const children = parseChildren(tasks.map((t) => read(`/proc/${pid}/task/${t}/children`)));
  return [residentMb(status), ...children.flatMap(processTreeResident)];
}

const STAGES = ['extract', 'sectionize', 'chunk', 'enrich', 'embed', 'upsert'] as const;

/** How often the stage processes' memory is read while the corpus goes through them. */
const RSS_SAMPLE_MS = 100;

function startStageProcess(stage: string, env: Record<string, string>): ChildProcess {
  // The compiled build with the manifests' process settings, as a worker pod runs it (tsx on the
  // sources holds ~50 MB more per process).
  const child = spawn(process.execPath, [COMPILED_BIN, 'workers', 'start', '--only', stage], {
    env: { ...process.env, ...WORKER_PROCESS_ENV, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.resume(); // drained, never read: errors show up as documents not settling
  return child;
}

/**
 * Per stage: in MB, {@link sumHwmMb} and {@link groupResidentMb} of its process tree, each the
 * largest seen; and the CPU its process tree spent on the files, ms a page.
 */
export interface StageProcessFigures {
  rss: Record<string, number | null>;
  pod: Record<string, number | null>;
  cpuMsPerPage: Record<string, number | null>;
}

/**
 * Each stage worker in a process of its own (one Deployment each), run from the compiled build
 * (built first, once per bench process) with Node's compile cache filled as the image fills it,
 * the files carried through them. Two figures per stage,
 * read every {@link RSS_SAMPLE_MS} ms and at the end, the largest kept: `rss`, the sum over its
 * process and the extraction children alive at that moment of each one's peak RSS (VmHWM) — a
 * child recycled mid-run still counts, and the node binary's pages count once per process — and
 * `pod`, what the processes held at once as a container's memory limit counts it (anonymous
 * pages of each, file-backed pages once; see groupResidentMb), which a sample can miss between
 * two reads. And `cpuMsPerPage`: each stage's process tree's CPU (its extraction children's
 * included) over the files' pages, counted after one more copy of the first file has gone through
 * (so the processes' start-up — modules, the tokenizer, the first extraction child — is not in it):
 * what the per-worker layout (one Deployment per stage) pays a page, stage by stage, without Redis.
 * Only on Linux (`/proc`); elsewhere the figures are null.
 */
export async function stageProcessFigures(config: Config, env: Record<string, string>, files: readonly string[]): Promise<StageProcessFigures> {
  await buildDist();
  // As in the image (infra/Dockerfile): the workers read the compile cache, their extraction children do not.
  const compileCache = await filledCompileCache();
  const procs = STAGES.map((stage) => ({ stage, child: startStageProcess(stage, { ...env, NODE_COMPILE_CACHE: compileCache }) }));
  const linux = process.platform === 'linux';
  const peaks = new Map<string, number>();
  const podPeaks = new Map<string, number>();
  const sample = () => {
    for (const { stage, child } of procs) {
      if (!child.pid || child.exitCode !== null) continue;
      const tree = processTreeResident(child.pid);
      peaks.set(stage, Math.max(peaks.get(stage) ?? 0, sumHwmMb(tree)));
      podPeaks.set(stage, Math.max(podPeaks.get(stage) ?? 0, groupResidentMb(tree)));
    }
  };
  const sampler = linux ? setInterval(sample, RSS_SAMPLE_MS) : null;
  const ports = await createPorts(config);
  try {
    // A stage process that dies (a bad build, a crash) fails the measurement at once instead of
    // leaving the documents to time out.
    let onExit: (reason: Error) => void = () => undefined;
    const died = new Promise<never>((_, reject) => {
      onExit = reject;
    });
    died.catch(() => undefined); // the processes are stopped below on purpose: not an error then
    for (const { stage, child } of procs) child.once('exit', (code, signal) => onExit(new Error(`stage process ${stage} exited (${code ?? signal})`)));
    const settled = (docIds: string[]) => Promise.race([waitForSettled(ports.status, { docIds, timeoutMs: 900_000, intervalMs: 100 }), died]);
    await settled([(await registerWarmUp({ ...ports, prefix: config.prefix }, files[0] as string)).docId]);
    const cpu = () => procs.map(({ child }) => (child.pid ? treeCpuMs(child.pid) : null));
    const cpu0 = cpu();
    const docIds = (await registerFiles({ ...ports, prefix: config.prefix }, files)).map((r) => r.docId);
    const statuses = await settled(docIds);
    await waitForDrained(ports.queues, 60_000, 20);
    const cpu1 = cpu();
    if (linux) sample();
    const pages = statuses.reduce((n, s) => n + (s.state === 'indexed' ? (s.pageCount ?? 0) : 0), 0);
    const byStage = (m: Map<string, number>) => Object.fromEntries(STAGES.map((stage) => [stage, m.get(stage) ?? null]));
    return { rss: byStage(peaks), pod: byStage(podPeaks), cpuMsPerPage: Object.fromEntries(STAGES.map((stage, i) => [stage, msPerPage(cpu0[i], cpu1[i], pages)])) };
  } finally {
    if (sampler) clearInterval(sampler);
    await Promise.all(
      procs.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await ports.close();
  }
}
