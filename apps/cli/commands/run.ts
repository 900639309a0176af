import path from 'node:path';
import type { Command } from 'commander';
import { ALL_WORKERS, WORKER_NAMES, type WorkerName } from '../../../workers/index.ts';
import { appConfig, reportFailure } from '../app.ts';
import { ensureRedis } from '../local-redis.ts';
import { startTelemetry } from '../../../shared/telemetry/tracing.ts';
import { startService, stopOnSignals } from '../service.ts';

/** `--only extract,chunk` → those workers (ingest stages and memory workers); unknown names are an error that lists the known ones. */
export function parseStages(only: string | undefined): WorkerName[] {
  if (!only) return [...WORKER_NAMES];
  const names = only.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(WORKER_NAMES as readonly string[]).includes(n));
  if (unknown.length) throw new Error(`unknown stage(s): ${unknown.join(', ')}; known: ${WORKER_NAMES.join(', ')}`);
  return names as WorkerName[];
}

export function runCommands(program: Command): void {
  program
    .command('dev')
    .description('every worker, the folder watcher and the gateway in one process (starts a local Redis when none answers)')
    .action(async () => {
      try {
        const config = appConfig();
        const telemetry = await startTelemetry('quarry-dev');
        const redis = await ensureRedis(config.redisUrl, path.join(config.dataDir, 'redis'));
        if (redis.started) process.stderr.write(`started a local redis-server at ${redis.url} (AOF on, data in ${path.join(config.dataDir, 'redis')})\n`);
        const service = await startService({ ...config, redisUrl: redis.url }, { workers: Object.values(ALL_WORKERS), watch: true, gateway: true });
        service.log.info('quarry dev running', { watchDir: config.watchDir, dataDir: config.dataDir, gateway: service.gatewayUrl });
        process.stderr.write(`quarry dev: watching ${config.watchDir}; web app and gateway at ${service.gatewayUrl}/ (OpenAPI at /docs)\n`);
        stopOnSignals(service, service.log, async () => {
          await redis.started?.stop();
          await telemetry.shutdown();
        });
      } catch (err) {
        reportFailure(err);
      }
    });

  program
    .command('workers')
    .description('stage workers')
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
        stopOnSignals(service, service.log, () => telemetry.shutdown());
      } catch (err) {
        reportFailure(err);
      }
    });

  program
    .command('gateway')
    .description('the HTTP API (no workers): POST /v1/query, runs, feedback, traces, documents, /docs')
    .option('--port <port>', 'overrides GATEWAY_PORT')
    .action(async (o: { port?: string }) => {
      try {
        const config = appConfig();
        const telemetry = await startTelemetry('quarry-gateway');
        const service = await startService(config, { workers: [], watch: false, gateway: o.port ? { port: Number(o.port) } : true });
        process.stderr.write(`gateway at ${service.gatewayUrl} (OpenAPI at /docs)\n`);
        stopOnSignals(service, service.log, () => telemetry.shutdown());
      } catch (err) {
        reportFailure(err);
      }
    });

  program
    .command('watch')
    .description('watch QUARRY_WATCH_DIR (or WATCH_BUCKET) and enqueue ingests and deletes (no workers)')
    .action(async () => {
      try {
        const config = appConfig();
        const telemetry = await startTelemetry('quarry-watcher');
        const service = await startService(config, { workers: [], watch: true });
        service.log.info('watching', { source: config.watchBucket ? `s3://${config.watchBucket.location.bucket}/${config.watchBucket.location.prefix}` : config.watchDir });
        stopOnSignals(service, service.log, () => telemetry.shutdown());
      } catch (err) {
        reportFailure(err);
      }
    });
}
