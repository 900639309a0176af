import type { Config } from '../../shared/config/index.ts';
import { watcherLeaseKey } from '../../shared/redis/index.ts';
import { createLogger, type Logger } from '../../shared/telemetry/index.ts';
import { loadHealthServer, loadWorkerStart, type Ports, type Reconciler, type StageWorkerDefinition, type WorkerGroup } from '../../workers/runtime/index.ts';
import { createPorts } from '../../workers/compose.ts';
import { prepareRedis } from './redis-startup.ts';
// startService is the one-process composition root (`quarry dev`, `quarry watch`, `quarry workers`):
// it starts the watcher and the gateway apps beside the workers, so it alone may import them
// (tests/helpers/import-graph.ts, COMPOSITION_ROOTS).
import type { BucketEvent } from '../../core/sources/index.ts';
import { loadBucketWatcher, loadLocalWatcher, startLeaderLease, type BucketWatcher, type LocalWatcher, type WatchEvent } from '../watcher/index.ts';

export interface Service {
  ports: Ports;
  log: Logger;
  workers: WorkerGroup | null;
  /** The folder watcher while this process holds the watcher lease (null otherwise, or without `watch`). */
  readonly watcher: LocalWatcher | null;
  /** The bucket watcher instead, when WATCH_BUCKET is set. */
  readonly bucketWatcher: BucketWatcher | null;
  /** The reconciler, while this process holds the watcher lease (and RECONCILE_INTERVAL_MS is not 0). */
  readonly reconciler: Reconciler | null;
  /** Where the gateway listens, when this service runs it. */
  gatewayUrl: string | null;
  stop(): Promise<void>;
}

/** The watcher's modules, imported only by a process that watches. */
async function loadWatcherModules() {
  const [s3, bucket, sync, local, reconcile] = await Promise.all([
    import('../../shared/s3/index.ts'),
    loadBucketWatcher(),
    import('../../core/sources/index.ts'),
    loadLocalWatcher(),
    import('./reconcile.ts'),
  ]);
  return { ...s3, ...bucket, ...sync, ...local, ...reconcile };
}

/**
 * Starts the given workers and, optionally, the folder watcher in this process: `quarry dev`
 * runs everything, `quarry workers start --only …` a subset, as one Kubernetes pod would.
 */
export async function startService(
  config: Config,
  opts: {
    workers: readonly StageWorkerDefinition[];
    watch: boolean;
    /** Serve the HTTP gateway too (on this port, or the configured one). */
    gateway?: boolean | { port: number };
    log?: Logger;
    onWatchEvent?: (e: WatchEvent) => void;
    onBucketEvent?: (e: BucketEvent) => void;
  },
): Promise<Service> {
  const log = opts.log ?? createLogger(config.logLevel, { service: 'quarry' });
  const ports = await createPorts(config);
  await prepareRedis(ports, log).catch(async (err: unknown) => {
    await ports.close();
    throw err;
  });
  const [{ startWorkers }, { startHealthServer }] = await Promise.all([loadWorkerStart(), loadHealthServer()]);
  const workers = opts.workers.length ? startWorkers(opts.workers, ports, log) : null;
  const health = config.worker.healthPort
    ? await startHealthServer({ port: config.worker.healthPort, redis: ports.redis, isRunning: () => workers?.isRunning() ?? true })
    : null;
  // The watcher runs only while this process holds the watcher lease: one per Redis prefix.
  let watcher: LocalWatcher | null = null;
  let bucketWatcher: BucketWatcher | null = null;
  let reconciler: Reconciler | null = null;
  const watcherLog = log.child({ component: 'watcher' });
  // The watcher's and the gateway's modules (chokidar, the S3 client, Fastify…) are imported only
  // by a process that runs them: a stage worker's start-up does not wait for them.
  const watching = opts.watch ? await loadWatcherModules() : null;
  const lease = watching
    ? await startLeaderLease({
        redis: ports.redis,
        key: watcherLeaseKey(config.prefix),
        log: watcherLog,
        onAcquire: () => {
          const { createS3Client, createS3Bucket, createBucketSource, startBucketWatcher, startLocalWatcher, startServiceReconciler } = watching;
          const registerPorts = { ...ports, prefix: config.prefix };
          if (config.watchBucket) {
            const client = createS3Client(config.s3);
            const { location } = config.watchBucket;
            const source = createBucketSource({ bucket: createS3Bucket(client, location), location, ports: registerPorts, log: watcherLog, maxBytes: config.extract.maxBytes });
            const polling = startBucketWatcher({ source, pollMs: config.watchBucket.pollMs, log: watcherLog, onEvent: opts.onBucketEvent });
            bucketWatcher = { ...polling, close: () => polling.close().finally(() => client.destroy()) };
          }
          const startFolder = () =>
            startLocalWatcher({ dir: config.watchDir, ports: registerPorts, log: watcherLog, maxBytes: config.extract.maxBytes, poll: config.watchPoll, onEvent: opts.onWatchEvent });
          if (!config.watchBucket) watcher = startFolder();
          // A folder rescan is a watcher restart: its initial scan registers what has no status.
          const rescanFolder = async () => {
            await watcher?.close();
            watcher = startFolder();
            await watcher.ready;
          };
          reconciler = startServiceReconciler(config, ports, log, { rescanFolder: config.watchBucket ? null : rescanFolder });
        },
        onLose: async () => {
          await reconciler?.stop();
          reconciler = null;
          await watcher?.close();
          await bucketWatcher?.close();
          watcher = null;
          bucketWatcher = null;
        },
      })
    : null;
  const gateway = opts.gateway
    ? await (await import('../gateway/index.ts')).startGateway(ports, log.child({ component: 'gateway' }), typeof opts.gateway === 'object' ? { port: opts.gateway.port } : {})
    : null;
  let stopped = false;
  return {
    ports,
    log,
    workers,
    get watcher() {
      return watcher;
    },
    get bucketWatcher() {
      return bucketWatcher;
    },
    get reconciler() {
      return reconciler;
    },
    gatewayUrl: gateway?.url ?? null,
    async stop() {
      if (stopped) return;
      stopped = true;
      await gateway?.close();
      await lease?.stop();
      await workers?.close(config.worker.shutdownGraceMs);
      await health?.close();
      await ports.close();
    },
  };
}
