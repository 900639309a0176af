/**
 * One process per worker plus the folder watcher, each `quarry …` in its own Node process (as one
 * Kubernetes Deployment each would be), around a private redis-server. The harness kills and
 * restarts them; every child is tracked so nothing outlives the run, even on Ctrl-C.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { startRedisServer, type LocalRedis } from '../apps/cli/local-redis.ts';
import { ConfigSchema } from '../shared/config/env-schema.ts';
import type { ChaosProcess } from './chaos-plan.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/** The `quarry` bin: registers tsx in-process, so a SIGKILL reaches the very process doing the work. */
const QUARRY_BIN = path.join(ROOT, 'apps/cli/quarry.mjs');

/** Where one run keeps everything; all of it under the run's temporary directory. */
export interface ClusterPaths {
  dataDir: string;
  watchDir: string;
  redisDir: string;
  logDir: string;
}

export interface ChaosCluster {
  readonly redis: LocalRedis;
  readonly prefix: string;
  /** Starts (or starts again) one process. */
  start(name: ChaosProcess): void;
  /** Processes that exited on their own (and were started again a second later, as a pod would be), by name. */
  crashes(): Partial<Record<ChaosProcess, number>>;
  /** SIGKILLs one process and waits for it to be gone. */
  kill(name: ChaosProcess): Promise<void>;
  /** Stops every process (SIGTERM, SIGKILL after `graceMs`) and then Redis. Idempotent. */
  stop(graceMs?: number): Promise<void>;
  /** Kills everything at once, synchronously: the last resort of an exiting harness. */
  killNow(): void;
}

/**
 * The children's environment: the harness's own, minus every Quarry and OpenTelemetry variable
 * (a developer's REDIS_URL, WEAVIATE_URL or OTLP endpoint must not leak into a loopback-only run),
 * plus the run's settings.
 */
export function childEnv(base: NodeJS.ProcessEnv, settings: Record<string, string>): Record<string, string> {
  const quarryKeys = new Set(Object.keys(ConfigSchema.shape));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined || quarryKeys.has(k) || k.startsWith('OTEL_')) continue;
    out[k] = v;
  }
  return { ...out, ...settings };
}

/** The `quarry` arguments that run one chaos process. */
export function processArgs(name: ChaosProcess): string[] {
  return name === 'watcher' ? ['watch'] : ['workers', 'start', '--only', name];
}

/**
 * Starts Redis (AOF on or off) and every named process.
 * @throws Error when redis-server is missing or does not come up.
 */
export async function startCluster(opts: {
  paths: ClusterPaths;
  prefix: string;
  appendonly: boolean;
  processes: readonly ChaosProcess[];
  /** Extra Quarry variables for every process (lock time, concurrency …). */
  env: Record<string, string>;
}): Promise<ChaosCluster> {
  const { paths } = opts;
  for (const dir of [paths.dataDir, paths.watchDir, paths.logDir]) mkdirSync(dir, { recursive: true });
  const redis = await startRedisServer({ dir: paths.redisDir, appendonly: opts.appendonly });
  const env = childEnv(process.env, {
    ...opts.env,
    REDIS_URL: redis.url,
    QUARRY_PREFIX: opts.prefix,
    QUARRY_DATA_DIR: paths.dataDir,
    QUARRY_WATCH_DIR: paths.watchDir,
    VECTOR_STORE: 'lancedb',
    ARTIFACT_STORE: 'local',
    EMBEDDER: 'hash',
    LLM: 'none',
    RERANKER: 'lexical',
    HEALTH_PORT: '0',
  });
  const running = new Map<ChaosProcess, ChildProcess>();
  const killed = new WeakSet<ChildProcess>();
  const crashes: Partial<Record<ChaosProcess, number>> = {};
  let stopped = false;
  // Once Redis is stopped its port may go to someone else's server: never signal it again.
  let redisDone = false;

  function start(name: ChaosProcess): void {
    if (stopped) return;
    const log = openSync(path.join(paths.logDir, `${name}.log`), 'a');
    const child = spawn(process.execPath, [QUARRY_BIN, ...processArgs(name)], { cwd: ROOT, env, stdio: ['ignore', log, log] });
    closeSync(log);
    running.set(name, child);
    // A process that dies by itself (a crash at start-up, an unhandled error) is restarted, as
    // Kubernetes restarts a pod; its log says why, and the report counts it.
    child.once('exit', () => {
      if (stopped || killed.has(child) || running.get(name) !== child) return;
      crashes[name] = (crashes[name] ?? 0) + 1;
      setTimeout(() => {
        if (running.get(name) === child) start(name);
      }, 1000).unref();
    });
  }

  async function end(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    killed.add(child);
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }

  for (const name of opts.processes) start(name);
  return {
    redis,
    prefix: opts.prefix,
    start,
    crashes: () => ({ ...crashes }),
    async kill(name) {
      const child = running.get(name);
      if (child) await end(child, 'SIGKILL', 0);
    },
    async stop(graceMs = 5000) {
      stopped = true;
      await Promise.all([...running.values()].map((c) => end(c, 'SIGTERM', graceMs)));
      await redis.stop();
      redisDone = true;
    },
    killNow() {
      stopped = true;
      for (const c of running.values()) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      if (redisDone) return;
      redisDone = true;
      // The redis-server child is not ours to signal directly (LocalRedis keeps it); ask it to go.
      spawnSync('redis-cli', ['-p', String(redis.port), 'shutdown', 'nosave'], { stdio: 'ignore', timeout: 2000 });
    },
  };
}
