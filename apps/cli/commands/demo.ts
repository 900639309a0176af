import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { Redis } from 'ioredis';
import { AgentAnswer } from '../../../shared/runs/index.ts';
import { loadConfig, packageRoot } from '../../../shared/config/index.ts';
import { everyKeyPattern } from '../../../shared/redis/index.ts';
import { agentWorker } from '../../../workers/agent/index.ts';
import { runStageOnce } from '../../../workers/runtime/index.ts';
import { INGEST_WORKERS } from '../../../workers/index.ts';
import { reportFailure } from '../app.ts';
// The demo watches the example folder in this process: a composition root, allowed to start the
// watcher app (tests/helpers/import-graph.ts, COMPOSITION_ROOTS).
import { loadLocalWatcher } from '../../watcher/index.ts';
import { formatStatuses } from '../format.ts';
import { formatAnswer } from './query.ts';
import { ensureRedis } from '../local-redis.ts';
import { startService, type Service } from '../service.ts';
import { stopOnSignals } from '../signals.ts';
import { createLogger } from '../../../shared/telemetry/index.ts';
import { waitForSettled } from '../wait.ts';
import { hybridSearch } from '../../../core/search.ts';
import { formatHit } from './search.ts';
import { describeCommand } from '../command-summaries.ts';


/** The same question now and as of a date when the superseded policy was in force. */
export const DEMO_QUESTIONS: { text: string; asOf?: string }[] = [
  { text: 'How many weeks of paid parental leave do employees get?' },
  { text: 'How many weeks of paid parental leave do employees get?', asOf: '2024-06-01' },
];

/** Questions the example corpus can answer, in both languages. */
export const DEMO_QUERIES = [
  { text: 'How many weeks of paid parental leave do employees get?', alpha: 0.5 },
  { text: '출산 장려금 신청 방법', alpha: 0.5 },
  { text: 'How long are payroll records kept?', alpha: 0.3 },
];

/** Deletes every key under `<prefix>:` so the demo starts from nothing each time. */
export async function clearPrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let removed = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', everyKeyPattern(prefix), 'COUNT', 500);
    cursor = next;
    const unlinked = keys.length ? await redis.unlink(...keys) : 0;
    removed += unlinked;
  } while (cursor !== '0');
  return removed;
}

export function demoCommand(program: Command): void {
  program
    .command('demo')
    .description(describeCommand('demo'))
    .option('--timeout <seconds>', 'how long to wait for ingestion', '300')
    .action(async (o: { timeout: string }) => {
      // The demo keeps to its own prefix, data directory and corpus, and starts clean every time;
      // the rest (REDIS_URL, the embedder, …) comes from the environment as usual.
      // The checkout's root, whether this runs from sources or from dist/.
      const repoRoot = packageRoot(import.meta.dirname);
      const config = loadConfig({
        LOG_LEVEL: 'warn',
        ...process.env,
        QUARRY_PREFIX: 'quarry-demo',
        QUARRY_DATA_DIR: path.join(repoRoot, '.quarry/demo'),
        QUARRY_WATCH_DIR: path.join(repoRoot, 'examples/docs'),
      });
      const out = (s: string) => process.stdout.write(`${s}\n`);
      let stopRedis: (() => Promise<void>) | undefined;
      let service: Service | undefined;
      // Interrupted (Ctrl-C, a supervisor's SIGTERM): stop the workers, then a Redis it started.
      stopOnSignals({ stop: async () => void (await service?.stop()) }, createLogger(config.logLevel, { service: 'quarry-demo' }), {
        exitCode: 130,
        deadlineMs: config.worker.shutdownGraceMs + 15_000,
        after: async () => stopRedis?.(),
      });
      try {
        const redis = await ensureRedis(config.redisUrl, path.join(repoRoot, '.quarry/redis'));
        stopRedis = redis.started?.stop;
        out(redis.started ? `Started a private redis-server at ${redis.url}.` : `Using Redis at ${redis.url}.`);
        await rm(config.dataDir, { recursive: true, force: true });
        service = await startService({ ...config, redisUrl: redis.url }, { workers: Object.values(INGEST_WORKERS), watch: false });
        try {
          await clearPrefix(service.ports.redis, config.prefix);
          const { startLocalWatcher } = await loadLocalWatcher();
          const started = Date.now();
          const watcher = startLocalWatcher({ dir: config.watchDir, ports: { ...service.ports, prefix: config.prefix }, log: service.log, maxBytes: config.extract.maxBytes });
          await watcher.ready;
          out(`Watching ${path.relative(repoRoot, config.watchDir)}: ingesting through the queues…`);
          const statuses = await waitForSettled(service.ports.status, {
            timeoutMs: Number(o.timeout) * 1000,
            onTick: (s) => {
              if (process.stderr.isTTY) process.stderr.write(`\r${s.filter((x) => x.state === 'indexed' || x.state === 'failed').length}/${s.length} documents settled`);
            },
          });
          await watcher.close();
          if (process.stderr.isTTY) process.stderr.write('\n');
          if (statuses.length === 0) throw new Error(`no PDFs found in ${config.watchDir}: run \`npm run examples:generate\``);
          out(`\n${formatStatuses(statuses)}\n(${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
          for (const q of DEMO_QUERIES) {
            out(`Search (alpha ${q.alpha}): ${q.text}`);
            const hits = await hybridSearch(service.ports, q.text, { alpha: q.alpha, limit: 3 });
            out(hits.length ? hits.map((h, i) => formatHit(h, i + 1)).join('\n') : '  (no hits)');
            out('');
          }
          for (const q of DEMO_QUESTIONS) {
            out(`Ask the agent${q.asOf ? ` (as of ${q.asOf})` : ''}: ${q.text}`);
            const answer = AgentAnswer.parse(await runStageOnce(agentWorker, { runId: randomUUID().replace(/-/g, ''), query: q.text, asOf: q.asOf }, service.ports, service.log));
            out(`${formatAnswer(answer)}\n`);
          }
          if (statuses.some((s) => s.state === 'failed')) process.exitCode = 2;
        } finally {
          await service.stop();
        }
      } catch (err) {
        reportFailure(err);
      } finally {
        await stopRedis?.();
      }
    });
}
