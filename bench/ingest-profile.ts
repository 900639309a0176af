import * as lancedb from '@lancedb/lancedb';
import { prepareRedis } from '../apps/cli/redis-startup.ts';
import { waitForDrained } from '../apps/cli/wait.ts';
import { loadConfig } from '../shared/config/config.ts';
import { CHUNKS_TABLE, DOCUMENTS_TABLE } from '../shared/store/lancedb/schema.ts';
import { createLogger } from '../shared/telemetry/logger.ts';
import { INGEST_WORKERS } from '../workers/index.ts';
import { createPorts } from '../workers/compose.ts';
import { startWorkers } from '../workers/runtime/start-workers.ts';
import { aggregateBreakdown, commandsPerDoc, partsPerPage, perPage, redisCpuSeconds, type BreakdownRow, type CpuParts, type OpSample } from './ingest-stats.ts';
import { timePorts } from './port-timing.ts';
import { awaitSettled } from './await-settled.ts';
import { cpuPartsSince, readThreads, threadMsByName, treeCpuPartsMs } from './process-cpu.ts';
import { registerFiles } from './register-files.ts';

export interface CostProfile {
  docs: number;
  pages: number;
  /** Wall time of the whole run divided by the documents (documents overlap: this is throughput). */
  wallMsPerDoc: number;
  /** Mean handler time per stage, as the status record keeps it (`t_<stage>`). */
  stageMsPerDoc: Record<string, number>;
  /** Port calls made by the workers and the registration, summed per operation, per document. */
  ops: BreakdownRow[];
  /** Redis commands per document, BullMQ's included, the harness's polling left out (the queue-drain check after the last document is in). */
  redisCommandsPerDoc: { command: string; perDoc: number }[];
  /**
   * LanceDB commits (table versions: merge-inserts, index refreshes, compactions) per document,
   * per table, counted from the tables' version lists after the run.
   */
  storeCommitsPerDoc: Record<string, number>;
  /**
   * CPU per document, less sensitive to a busy machine than wall time: this process (every worker,
   * LanceDB's threads included, the harness's few status reads too) and the Redis server. The
   * extraction children are not counted.
   */
  cpuMsPerDoc: { workers: number; redis: number };
  /**
   * CPU per page of the whole tree, by part: this process's main thread (handlers, BullMQ,
   * ioredis, artifacts), its other threads (LanceDB, libuv's file I/O, V8's helpers), the
   * extraction children and Redis. Null without /proc.
   */
  cpuMsPerPageByPart: CpuParts | null;
  /**
   * The other threads' share of that, by thread name: LanceDB's (`tokio-rt-worker`, `lance-cpu`),
   * libuv's file I/O (`libuv-worker`), V8's helpers (garbage collection, compilation: the process's
   * own name). Null without /proc.
   */
  otherThreadsMsPerPage: Record<string, number> | null;
}

/** Table versions of the LanceDB store in `dir`, per table (each commit adds one). */
async function tableVersions(dir: string, names: readonly string[]): Promise<Record<string, number>> {
  const db = await lancedb.connect(dir);
  try {
    const out: Record<string, number> = {};
    for (const name of names) {
      const table = await db.openTable(name);
      out[name] = (await table.listVersions()).length;
      table.close();
    }
    return out;
  } finally {
    db.close();
  }
}

/**
 * Carries `files` through every ingest worker in this process with each port call timed: where a
 * document's time goes. Redis must be a server of its own (its command statistics are read).
 */
export async function profileIngest(files: readonly string[], opts: { redisUrl: string; dataDir: string }): Promise<CostProfile> {
  const config = loadConfig({
    REDIS_URL: opts.redisUrl,
    QUARRY_PREFIX: `bench-profile-${Date.now()}`,
    QUARRY_DATA_DIR: opts.dataDir,
    QUARRY_WATCH_DIR: opts.dataDir,
    LOG_LEVEL: 'error',
    WORKER_CONCURRENCY: '2',
  });
  const log = createLogger('error');
  const ports = await createPorts(config);
  const samples: OpSample[] = [];
  const timed = timePorts(ports, (s) => samples.push(s));
  try {
    await prepareRedis(ports, log);
    const group = startWorkers(Object.values(INGEST_WORKERS), timed, log);
    try {
      await group.ready;
      const before = await ports.redis.info('commandstats');
      const redisCpu0 = redisCpuSeconds(await ports.redis.info('cpu'));
      const cpu0 = process.cpuUsage();
      const parts0 = treeCpuPartsMs();
      const threads0 = readThreads();
      const t0 = performance.now();
      const docIds = (await registerFiles({ ...timed, prefix: config.prefix }, files)).map((r) => r.docId);
      // The harness polls statuses (one HGETALL each, in registration order), counted so the
      // Redis figures can leave them out; the queues are drained before the final reading.
      const { reads } = await awaitSettled(ports.status, docIds, { timeoutMs: 600_000, intervalMs: 25 });
      const wallMs = performance.now() - t0;
      await waitForDrained(ports.queues, 60_000, 10);
      const cpu = process.cpuUsage(cpu0);
      const parts = cpuPartsSince(parts0, treeCpuPartsMs());
      const byThread = threadMsByName(threads0, readThreads());
      const redisCpu = redisCpuSeconds(await ports.redis.info('cpu')) - redisCpu0;
      const after = await ports.redis.info('commandstats');
      const harness = new Map([['hgetall', reads]]);
      // Read again once drained: a stage's timing is recorded just after its document settles.
      const statuses = (await Promise.all(docIds.map((id) => ports.status.get(id)))).filter((x) => x !== null);
      const stageMs: Record<string, number> = {};
      for (const s of statuses) for (const [stage, ms] of Object.entries(s.timings)) stageMs[stage] = (stageMs[stage] ?? 0) + ms;
      const n = docIds.length;
      const pages = statuses.reduce((p, s) => p + (s.state === 'indexed' ? (s.pageCount ?? 0) : 0), 0);
      const versions = await tableVersions(config.lancedbDir, [CHUNKS_TABLE, DOCUMENTS_TABLE]);
      return {
        docs: n,
        pages,
        wallMsPerDoc: Math.round((wallMs / n) * 10) / 10,
        stageMsPerDoc: Object.fromEntries(Object.entries(stageMs).map(([k, v]) => [k, Math.round((v / n) * 10) / 10])),
        ops: aggregateBreakdown(samples, n),
        redisCommandsPerDoc: commandsPerDoc(before, after, n, harness),
        cpuMsPerDoc: { workers: Math.round((cpu.user + cpu.system) / 1000 / n), redis: Math.round((redisCpu * 1000) / n) },
        cpuMsPerPageByPart: parts && partsPerPage(parts, pages),
        otherThreadsMsPerPage: byThread && Object.fromEntries(Object.entries(byThread).map(([name, ms]) => [name, perPage(ms, pages)])),
        storeCommitsPerDoc: Object.fromEntries(Object.entries(versions).map(([t, v]) => [t, Math.round((v / n) * 100) / 100])),
      };
    } finally {
      await group.close(5_000);
    }
  } finally {
    await ports.close();
  }
}
