/**
 * One run of the chaos corpus through a fresh cluster: undisturbed, or with a worker SIGKILLed
 * (and restarted) every few seconds and Redis restarted once. Every wait is bounded by the run's
 * deadline: what has not settled by then is reported as stuck, never waited for.
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { openJobs } from '../apps/cli/wait.ts';
import { createQueueClient } from '../queues/queue-client.ts';
import { loadConfig } from '../shared/config/config.ts';
import { createStatusStore } from '../shared/status/status-store.ts';
import { createVectorStore } from '../shared/store/index.ts';
import { startCluster, type ChaosCluster } from './chaos-cluster.ts';
import { CHAOS_PROCESSES, CHAOS_WORKERS, killSchedule, redisRestartDue, type ChaosMode } from './chaos-plan.ts';
import { isSettledState, type ChunkRow, type DocOutcome } from './chaos-report.ts';

/** `undisturbed` is the reference: same code path and corpus, no kills, no Redis restart. */
export type RunKind = ChaosMode | 'undisturbed';

/**
 * Settings every process of every run gets. A short lock lets BullMQ's stalled-job check hand a
 * killed worker's jobs to its restarted successor within seconds (production keeps 30 s).
 */
export const CHAOS_ENV: Readonly<Record<string, string>> = { WORKER_LOCK_MS: '4000', WORKER_CONCURRENCY: '2', LOG_LEVEL: 'warn', FACET_REBUILD_DEBOUNCE_MS: '2000' };

export interface RunResult {
  kind: RunKind;
  outcomes: DocOutcome[];
  rows: ChunkRow[];
  kills: number;
  /** Processes that exited on their own (restarted by the harness), by name: see their logs. */
  crashes: Partial<Record<string, number>>;
  /** Seconds into the run when Redis was restarted, or null. */
  redisRestartAt: number | null;
  /** Seconds from the first process start to the last status read. */
  seconds: number;
  /** False when the deadline came before every document settled. */
  settled: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A client that fails fast while Redis is down (the harness polls again), instead of queueing. */
function pollingClient(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 1000, enableOfflineQueue: false, retryStrategy: () => 250 });
  client.on('error', () => undefined);
  return client;
}

/**
 * Runs the corpus in `corpusDir` once, in `runDir`.
 * @param track receives the cluster as soon as it exists, so an interrupted harness can end it.
 * @throws Error when Redis cannot be started; a process that fails only shows in its log.
 */
export async function runChaos(opts: {
  kind: RunKind;
  corpusDir: string;
  runDir: string;
  docIds: readonly string[];
  boundMs: number;
  seed: number;
  runIndex: number;
  /** Kill the watcher as well as the workers. @defaultValue false */
  killWatcher?: boolean;
  log: (line: string) => void;
  track: (cluster: ChaosCluster) => void;
}): Promise<RunResult> {
  const { kind, docIds, log } = opts;
  const paths = {
    dataDir: path.join(opts.runDir, 'data'),
    watchDir: path.join(opts.runDir, 'inbox'),
    redisDir: path.join(opts.runDir, 'redis'),
    logDir: path.join(opts.runDir, 'logs'),
  };
  cpSync(opts.corpusDir, paths.watchDir, { recursive: true });
  const prefix = `chaos-${kind}-${opts.seed}`;
  const t0 = Date.now();
  const deadline = t0 + opts.boundMs;
  const cluster = await startCluster({ paths, prefix, appendonly: kind === 'aof', processes: CHAOS_PROCESSES, env: { ...CHAOS_ENV } });
  opts.track(cluster);
  const redis = pollingClient(cluster.redis.url);
  const status = createStatusStore(redis, prefix);
  const queues = createQueueClient(redis, prefix);
  const disturbed = kind !== 'undisturbed';
  const schedule = killSchedule(opts.seed, opts.runIndex, { victims: opts.killWatcher ? CHAOS_PROCESSES : CHAOS_WORKERS });
  // Kills stop at 60% of the bound so the rest is a calm tail in which recovery can finish.
  const killUntil = t0 + opts.boundMs * 0.6;
  let nextKill = t0 + schedule.nextDelayMs();
  let kills = 0;
  let redisRestartAt: number | null = null;
  let outcomes: DocOutcome[] = [];
  let settled = false;
  let lastReport = 0;
  try {
    while (Date.now() < deadline) {
      const read = await readOutcomes(status, docIds);
      if (read) outcomes = read;
      const done = read !== null && read.every((o) => isSettledState(o.state));
      const settledCount = outcomes.filter((o) => isSettledState(o.state)).length;
      if (Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        log(`  ${kind}: ${Math.round((Date.now() - t0) / 1000)} s, ${settledCount}/${docIds.length} settled, ${kills} kills${redisRestartAt === null ? '' : `, redis restarted at ${redisRestartAt} s`}`);
      }
      // A disturbed run restarts Redis once whatever happens: if everything settled first, now.
      if (done && (!disturbed || redisRestartAt !== null)) {
        // Settled statuses with jobs still open (a duplicate delivery mid-write) would be read
        // too early: wait, within the bound, for the queues to drain as well.
        if ((await openJobs(queues).catch(() => 1)) === 0) {
          settled = true;
          break;
        }
      }
      const restartDone = redisRestartAt !== null;
      if (disturbed && !restartDone && (done || redisRestartDue({ settled: settledCount, total: docIds.length, elapsedMs: Date.now() - t0, boundMs: opts.boundMs, done: restartDone }))) {
        redisRestartAt = Math.round((Date.now() - t0) / 1000);
        log(`  ${kind}: restarting redis (${kind === 'aof' ? 'appendonly yes' : 'no persistence'}) at ${redisRestartAt} s, ${settledCount} settled`);
        await cluster.redis.stop();
        await cluster.redis.restart();
      }
      if (disturbed && !done && Date.now() >= nextKill && Date.now() < killUntil) {
        const victim = schedule.nextVictim();
        await cluster.kill(victim);
        cluster.start(victim);
        kills++;
        nextKill = Date.now() + schedule.nextDelayMs();
      }
      await sleep(500);
    }
    const final = await readOutcomes(status, docIds);
    if (final) outcomes = final;
  } finally {
    await queues.close().catch(() => undefined);
    redis.disconnect();
    await cluster.stop();
  }
  const seconds = Math.round((Date.now() - t0) / 1000);
  // Read only once every writer is gone, so the scan sees the store as the run left it.
  const rows = await readChunkRows(paths.dataDir);
  return { kind, outcomes, rows, kills, crashes: cluster.crashes(), redisRestartAt, seconds, settled };
}

/** The status of every corpus document, or null while Redis does not answer. */
async function readOutcomes(status: ReturnType<typeof createStatusStore>, docIds: readonly string[]): Promise<DocOutcome[] | null> {
  try {
    const byDoc = new Map((await status.list()).map((s) => [s.docId, s]));
    return docIds.map((docId) => {
      const s = byDoc.get(docId);
      return { docId, state: s?.state ?? null, stage: s?.stage ?? null, errorCode: s?.errorCode ?? null };
    });
  } catch {
    return null;
  }
}

/** Every chunk row in the run's LanceDB store, read through the VectorStore port. */
async function readChunkRows(dataDir: string): Promise<ChunkRow[]> {
  const config = loadConfig({ QUARRY_DATA_DIR: dataDir, VECTOR_STORE: 'lancedb' });
  const store = await createVectorStore(config.vectorStore);
  try {
    const rows: ChunkRow[] = [];
    for await (const r of store.scanChunks({ fields: ['chunk_id', 'doc_id', 'version'] })) rows.push({ chunk_id: r.chunk_id, doc_id: r.doc_id, version: r.version });
    return rows;
  } finally {
    await store.close();
  }
}
