import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../../../shared/config/index.ts';
import { ALL_WORKERS, WORKER_NAMES, type WorkerName } from '../../../workers/index.ts';
import { appConfig, reportFailure } from '../app.ts';
import { readDevState, writeDevState } from '../dev-state.ts';
import { ensureRedis } from '../local-redis.ts';
import { startTelemetry } from '../../../shared/telemetry/index.ts';
import { startService } from '../service.ts';
import { stopOnSignals } from '../signals.ts';
import { describeCommand } from '../command-summaries.ts';

/** `--only extract,chunk` → those workers (ingest stages and memory workers); unknown names are an error that lists the known ones. */
export function parseStages(only: string | undefined): WorkerName[] {
  if (!only) return [...WORKER_NAMES];
  const names = only.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(WORKER_NAMES as readonly string[]).includes(n));
  if (unknown.length) throw new Error(`unknown stage(s): ${unknown.join(', ')}; known: ${WORKER_NAMES.join(', ')}`);
  return names as WorkerName[];
}

/** How long a stop may take: the workers' grace period, then closing, then a Redis `dev` started. */
export function shutdownDeadlineMs(config: Pick<Config, 'worker'>): number {
  return config.worker.shutdownGraceMs + 15_000;
}

/**
 * Creates the folders `dev` needs that are missing (a fresh clone has neither), and says which:
 * without the watched folder every upload and the watcher itself would fail.
 */
export function ensureDevFolders(config: Pick<Config, 'watchDir' | 'dataDir' | 'watchBucket'>, say: (line: string) => void): void {
  const folders = [
    { dir: config.dataDir, what: 'data directory (queues, index and artifacts)' },
    ...(config.watchBucket ? [] : [{ dir: config.watchDir, what: 'watched folder: drop PDFs here' }]),
  ];
  for (const { dir, what } of folders) {
    if (existsSync(dir)) continue;
    mkdirSync(dir, { recursive: true });
    say(`created ${path.relative(process.cwd(), dir) || dir} (${what})`);
  }
}

/** True when a gateway answers /healthz at `url` (a state file's pid may have been reused by another process). */
async function gatewayAnswers(url: string | null): Promise<boolean> {
  if (!url) return false;
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1500) })).ok;
  } catch {
    return false;
  }
}

export function runCommands(program: Command): void {
  program
    .command('dev')
    .description(describeCommand('dev'))
    .action(async () => {
      try {
        const config = appConfig();
        const running = readDevState(config.dataDir);
        if (running && (await gatewayAnswers(running.gatewayUrl))) {
          throw new Error(
            `quarry dev is already running on ${config.dataDir} (pid ${running.pid}${running.gatewayUrl ? `, web app at ${running.gatewayUrl}/` : ''}); stop it first, or set QUARRY_DATA_DIR to run another`,
          );
        }
        const say = (line: string) => process.stderr.write(`quarry dev: ${line}\n`);
        ensureDevFolders(config, say);
        const telemetry = await startTelemetry('quarry-dev');
        const redis = await ensureRedis(config.redisUrl, path.join(config.dataDir, 'redis'));
        if (redis.started) say(`started a local redis-server at ${redis.url} (AOF on, data in ${path.join(config.dataDir, 'redis')})`);
        const service = await startService({ ...config, redisUrl: redis.url }, { workers: Object.values(ALL_WORKERS), watch: true, gateway: true }).catch(async (err: unknown) => {
          await redis.started?.stop();
          throw err;
        });
        const forgetState = writeDevState(config.dataDir, {
          pid: process.pid,
          redisUrl: redis.url,
          redisStarted: redis.started !== null,
          gatewayUrl: service.gatewayUrl,
          startedAt: new Date().toISOString(),
        });
        service.log.info('quarry dev running', { watchDir: config.watchDir, dataDir: config.dataDir, gateway: service.gatewayUrl });
        say(`watching ${config.watchDir}; web app and gateway at ${service.gatewayUrl}/ (OpenAPI at /docs)`);
        // Redis last: the workers hand their jobs back to it while they stop.
        stopOnSignals(service, service.log, {
          deadlineMs: shutdownDeadlineMs(config),
          after: async () => {
            forgetState();
            await redis.started?.stop();
            await telemetry.shutdown();
          },
        });
      } catch (err) {
        reportFailure(err);
      }
    });

  program
    .command('workers')
    .description(describeCommand('workers'))
    .command('start')
    .description('run stage workers in this process (one Kubernetes Deployment each, or all together)')
    .option('--only <stages>', `comma-separated: ${WORKER_NAMES.join(',')}`)
    .action(async (o: { only?: string }) => {
      try {
        const config = appConfig();
        const stages = parseStages(o.only);
        const telemetry = await startTelemetry(`quarry-worker-${stages.join('-')}`);
        const service = await startService(config, { workers: stages.map((s) => ALL_WORKERS[s]), watch: false });
        service.log.info('workers running', { stages });
        stopOnSignals(service, service.log, { deadlineMs: shutdownDeadlineMs(config), after: () => telemetry.shutdown() });
      } catch (err) {
        reportFailure(err);
      }
    });

  program
    .command('gateway')
    .description(describeCommand('gateway'))
    .option('--port <port>', 'overrides GATEWAY_PORT')
    .action(async (o: { port?: string }) => {
      try {
        const config = appConfig();
        const telemetry = await startTelemetry('quarry-gateway');
        const service = await startService(config, { workers: [], watch: false, gateway: o.port ? { port: Number(o.port) } : true });
        process.stderr.write(`gateway at ${service.gatewayUrl} (OpenAPI at /docs)\n`);
        stopOnSignals(service, service.log, { deadlineMs: shutdownDeadlineMs(config), after: () => telemetry.shutdown() });
      } catch (err) {
        reportFailure(err);
      }
    });

  program
    .command('watch')
    .description(describeCommand('watch'))
    .action(async () => {
      try {
        const config = appConfig();
        const telemetry = await startTelemetry('quarry-watcher');
        const service = await startService(config, { workers: [], watch: true });
        service.log.info('watching', { source: config.watchBucket ? `s3://${config.watchBucket.location.bucket}/${config.watchBucket.location.prefix}` : config.watchDir });
        stopOnSignals(service, service.log, { deadlineMs: shutdownDeadlineMs(config), after: () => telemetry.shutdown() });
      } catch (err) {
        reportFailure(err);
      }
    });
}
