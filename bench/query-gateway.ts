/**
 * Gateway throughput: the HTTP gateway in this process, agent workers as child processes
 * (`quarry workers start --only agent`, exactly as deployed) on the same data directory and
 * Redis, and a bounded closed-loop load of `POST /v1/query` on 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { startService } from '../apps/cli/service.ts';
import { agentRunQueue } from '../queues/agent.queues.ts';
import type { Config } from '../shared/config/config.ts';
import { runLoad } from './query-load.ts';
import { summarise } from './query-stats.ts';

const QUARRY_BIN = path.resolve(import.meta.dirname, '../apps/cli/quarry.mjs');

export interface GatewayRun {
  workers: number;
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
  ok: number;
  failed: number;
  failures: Record<string, number>;
  seconds: number;
}

export interface GatewayFigures {
  requests: number;
  concurrency: number;
  /** Jobs each worker process runs at once (WORKER_CONCURRENCY). */
  workerConcurrency: number;
  /** CPU cores of this machine (shared by gateway, load generator, Redis and workers). */
  cores: number;
  runs: GatewayRun[];
}

interface Child {
  proc: ChildProcess;
  stderr: string[];
}

function startWorker(config: Config): Child {
  const proc = spawn(process.execPath, [QUARRY_BIN, 'workers', 'start', '--only', 'agent'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env,
      REDIS_URL: config.redisUrl,
      QUARRY_PREFIX: config.prefix,
      QUARRY_DATA_DIR: config.dataDir,
      QUARRY_WATCH_DIR: config.watchDir,
      LOG_LEVEL: 'error',
      LLM: config.llm.provider,
      RERANKER: config.reranker.kind,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: string[] = [];
  proc.stderr?.on('data', (b: Buffer) => {
    if (stderr.length < 50) stderr.push(b.toString());
  });
  return { proc, stderr };
}

async function stopWorker(child: Child): Promise<void> {
  const { proc } = child;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Waits until `n` agent workers are connected to the queue. */
async function waitForWorkers(count: () => Promise<number>, n: number, children: readonly Child[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await count()) < n) {
    const dead = children.find((c) => c.proc.exitCode !== null);
    if (dead) throw new Error(`an agent worker exited with code ${dead.proc.exitCode}: ${dead.stderr.join('').slice(0, 2000)}`);
    if (Date.now() > deadline) throw new Error(`fewer than ${n} agent workers connected after 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Measures requests/s and latency for each worker count in `workers` (ascending: workers are
 * added, never restarted). Every child process is stopped before this returns.
 */
export async function gatewayBench(opts: {
  config: Config;
  queries: readonly string[];
  requests: number;
  concurrency: number;
  workers: readonly number[];
  log: (line: string) => void;
}): Promise<GatewayFigures> {
  const service = await startService(opts.config, { workers: [], watch: false, gateway: { port: 0 } });
  const children: Child[] = [];
  const runs: GatewayRun[] = [];
  try {
    const url = `${service.gatewayUrl}/v1/query`;
    const queue = service.ports.queues.queue(agentRunQueue);
    const bodies = opts.queries.map((query) => ({ query }));
    for (const n of [...opts.workers].sort((a, b) => a - b)) {
      while (children.length < n) children.push(startWorker(opts.config));
      await waitForWorkers(() => queue.getWorkersCount(), n, children);
      // Warm-up: every worker opens the store and compiles its graph on its first job.
      await runLoad({ url, bodies, total: 6 * n, concurrency: 2 * n, deadlineMs: 60_000 });
      const r = await runLoad({ url, bodies, total: opts.requests, concurrency: opts.concurrency, deadlineMs: 300_000 });
      const s = summarise(r.latenciesMs);
      runs.push({ workers: n, requestsPerSecond: r.requestsPerSecond, p50Ms: s.p50, p95Ms: s.p95, meanMs: s.mean, ok: r.ok, failed: r.failed + r.notStarted, failures: r.failures, seconds: r.seconds });
      opts.log(`  ${n} worker(s): ${r.requestsPerSecond} req/s, p50 ${s.p50} ms, p95 ${s.p95} ms (${r.ok} ok, ${r.failed} failed)`);
    }
  } finally {
    await Promise.all(children.map(stopWorker));
    await service.stop();
  }
  return { requests: opts.requests, concurrency: opts.concurrency, workerConcurrency: opts.config.worker.concurrency, cores: availableParallelism(), runs };
}
