/**
 * `npm run bench -- coldstart`: how long a Quarry process takes from `spawn` to a health endpoint
 * that answers 200 — one stage worker alone (`workers start --only chunk`), and the whole
 * one-Deployment-per-worker layout (every worker in its own process, plus the gateway) started at
 * once, as a KEDA scale-up or a rollout would. From the compiled build (`dist/`, plain Node), from
 * the compiled build with Node's compile cache filled as the image fills it
 * (`dist/apps/cli/warm-compile-cache.js`), and from sources through tsx, side by side. The tsx
 * runs have tsx's transform cache off
 * (TSX_DISABLE_CACHE), as in a new pod whose /tmp is empty. The OS file cache is warm after the
 * first run, as on a node that already pulled the image: this measures process start-up, not disk reads.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { startRedisServer } from '../apps/cli/local-redis.ts';
import { WORKER_NAMES } from '../workers/index.ts';
import { buildDist, COMPILED_BIN, filledCompileCache, TSX_BIN } from './build-dist.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/** How a process is launched: the compiled build (with the image's compile cache: `cached`) or the sources through tsx. */
export type LaunchMode = 'compiled' | 'cached' | 'tsx';

/** Cold-start figures of one launch mode, in ms of wall time. */
export interface ColdStartFigures {
  /** `workers start --only chunk` to healthy, one sample per run. */
  oneWorkerMs: number[];
  oneWorkerMedianMs: number;
  /** Every process of the per-worker layout started together, to the last one healthy. */
  layoutMs: number;
  /** How many processes the layout started. */
  layoutProcesses: number;
}

/** What `coldstart` prints as JSON. */
export interface ColdStartReport {
  compiled: ColdStartFigures;
  /** The compiled build reading a compile cache filled beforehand, as in the image (infra/Dockerfile). */
  compiledWithCompileCache: ColdStartFigures;
  tsx: ColdStartFigures;
  /** `npm run quarry -- --help` as a person types it, spawn to exit: the median over the runs. */
  helpMs: number;
  helpRunsMs: number[];
  /** The 1-minute load average when the run ended (the machine is shared). */
  loadAverage: number;
}

/** The median of a non-empty list. @throws Error when the list is empty. */
export function median(values: number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : Math.round(((s[mid - 1] as number) + (s[mid] as number)) / 2);
}

/** One process of the per-worker layout: its CLI arguments and the env var carrying its health port. */
export interface LayoutProcess {
  name: string;
  args: string[];
  portVar: 'HEALTH_PORT' | 'GATEWAY_PORT';
}

/** The per-worker layout of k8s/: one `workers start --only <name>` per worker, and the gateway. */
export function perWorkerLayout(workers: readonly string[]): LayoutProcess[] {
  return [
    ...workers.map((w): LayoutProcess => ({ name: w, args: ['workers', 'start', '--only', w], portVar: 'HEALTH_PORT' })),
    { name: 'gateway', args: ['gateway'], portVar: 'GATEWAY_PORT' },
  ];
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function healthy(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(500) });
    return res.ok;
  } catch {
    return false;
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

interface Env {
  redisUrl: string;
  dataDir: string;
  /** The compile cache the `cached` mode reads (filled as the image build fills it). */
  compileCacheDir: string;
}

/** Starts the processes together and resolves with the ms until each answers /healthz. */
async function startAll(mode: LaunchMode, procs: LayoutProcess[], env: Env, deadlineMs: number): Promise<number[]> {
  const bin = mode === 'tsx' ? TSX_BIN : COMPILED_BIN;
  const ports = await Promise.all(procs.map(() => freePort()));
  const started = performance.now();
  const children = procs.map((p, i) =>
    spawn(process.execPath, [bin, ...p.args], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        REDIS_URL: env.redisUrl,
        QUARRY_PREFIX: `coldstart-${process.pid}`,
        QUARRY_DATA_DIR: path.join(env.dataDir, p.name),
        LOG_LEVEL: 'warn',
        OTEL_SDK_DISABLED: 'true',
        ...(mode === 'tsx' ? { TSX_DISABLE_CACHE: '1' } : {}),
        // Only the `cached` mode reads a compile cache (one set in the environment is not used).
        NODE_COMPILE_CACHE: mode === 'cached' ? env.compileCacheDir : '',
        [p.portVar]: String(ports[i]),
      },
    }),
  );
  const stderr = children.map(() => '');
  children.forEach((c, i) => c.stderr?.on('data', (d: Buffer) => (stderr[i] = (stderr[i] + d.toString()).slice(-2000))));
  try {
    return await Promise.all(
      ports.map(async (port, i) => {
        for (;;) {
          if (await healthy(port)) return Math.round(performance.now() - started);
          const child = children[i] as ChildProcess;
          if (child.exitCode !== null) throw new Error(`${procs[i]?.name} (${mode}) exited ${child.exitCode}: ${stderr[i]}`);
          if (performance.now() - started > deadlineMs) throw new Error(`${procs[i]?.name} (${mode}) not healthy within ${deadlineMs} ms: ${stderr[i]}`);
          await new Promise((r) => setTimeout(r, 10));
        }
      }),
    );
  } finally {
    await Promise.all(children.map(stop));
  }
}

/**
 * `npm run -s quarry -- --help`, spawn to exit, as a person types it (npm, then the CLI from sources).
 * @throws Error when it fails or prints no usage.
 */
async function helpRunMs(): Promise<number> {
  const started = performance.now();
  const child = spawn('npm', ['run', '-s', 'quarry', '--', '--help'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OTEL_SDK_DISABLED: 'true' } });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ms = Math.round(performance.now() - started);
  if (code !== 0 || !out.includes('Usage: quarry')) throw new Error(`npm run quarry -- --help failed (exit ${code}): ${out.slice(-2000)}`);
  return ms;
}

async function measureMode(mode: LaunchMode, env: Env, runs: number, log: (line: string) => void): Promise<ColdStartFigures> {
  const one = perWorkerLayout(['chunk']).slice(0, 1);
  const oneWorkerMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [ms] = await startAll(mode, one, env, 180_000);
    oneWorkerMs.push(ms as number);
    log(`${mode}: one worker healthy in ${ms} ms`);
  }
  const layout = perWorkerLayout(WORKER_NAMES);
  const layoutMs = Math.max(...(await startAll(mode, layout, env, 300_000)));
  log(`${mode}: ${layout.length} processes healthy in ${layoutMs} ms`);
  return { oneWorkerMs, oneWorkerMedianMs: median(oneWorkerMs), layoutMs, layoutProcesses: layout.length };
}

/**
 * Runs the cold-start measurement on a private redis-server, after `npm run build` (unless
 * `build: false`) so the compiled figures are those of the current sources.
 * @throws Error when dist/ is missing or a process fails to become healthy.
 */
export async function coldStartBench(opts: { runs: number; build: boolean; log: (line: string) => void }): Promise<ColdStartReport> {
  if (opts.build) {
    opts.log('building dist/ (npm run build)…');
    await buildDist();
  }
  if (!existsSync(COMPILED_BIN)) throw new Error('dist/apps/cli/bin.js is missing: run `npm run build` first');
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-coldstart-'));
  const redis = await startRedisServer({ dir: path.join(dir, 'redis') });
  try {
    // First, while nothing of the bench runs beside it; one run to warm the file cache.
    await helpRunMs();
    const helpRunsMs: number[] = [];
    for (let i = 0; i < Math.max(3, opts.runs); i++) helpRunsMs.push(await helpRunMs());
    opts.log(`help: npm run quarry -- --help in ${helpRunsMs.join(', ')} ms`);
    const env = { redisUrl: redis.url, dataDir: path.join(dir, 'data'), compileCacheDir: await filledCompileCache() };
    const compiled = await measureMode('compiled', env, opts.runs, opts.log);
    const compiledWithCompileCache = await measureMode('cached', env, opts.runs, opts.log);
    const tsx = await measureMode('tsx', env, opts.runs, opts.log);
    return { compiled, compiledWithCompileCache, tsx, helpMs: median(helpRunsMs), helpRunsMs, loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100 };
  } finally {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The report as lines for a person. */
export function coldStartTable(r: ColdStartReport): string[] {
  const row = (label: string, f: ColdStartFigures) =>
    `  ${label.padEnd(10)} one worker ${String(f.oneWorkerMedianMs).padStart(6)} ms (median of ${f.oneWorkerMs.length}: ${f.oneWorkerMs.join(', ')})   ${f.layoutProcesses} processes ${String(f.layoutMs).padStart(6)} ms`;
  return [
    'cold start to healthy (spawn → /healthz 200), wall time',
    row('compiled', r.compiled),
    row('+ cache', r.compiledWithCompileCache) + '   (compiled, compile cache filled as in the image)',
    row('tsx', r.tsx) + '   (sources, no transform cache)',
    `  help       npm run quarry -- --help ${r.helpMs} ms (median of ${r.helpRunsMs.length}: ${r.helpRunsMs.join(', ')}; target ≤ 1000 ms)`,
    `  load average ${r.loadAverage} (targets: one worker ≤ 2000 ms, layout ≤ 15000 ms, compiled)`,
  ];
}
