/**
 * Quarry as a supervisor or a terminal runs it: `npm run dev` and `npm run quarry -- gateway`
 * started through npm, stopped with one signal to the process the supervisor holds, and nothing
 * of the tree left running; a second CLI process finds the Redis a running `dev` started.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../apps/cli/local-redis.ts';
import { DEV_STATE_FILE } from '../../apps/cli/dev-state.ts';
import { alive, commandLine, descendants, HAVE_PROC, portInUse, until } from '../helpers/process-tree.ts';
import { REDIS_AVAILABLE, startTestRedis, unusedRedisUrl } from '../helpers/redis.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';

const root = path.resolve(import.meta.dirname, '../..');
const tempDir = tempDirs('quarry-lifecycle-');
if (!HAVE_PROC) console.warn('process lifecycle tests skipped: they read process trees from /proc (Linux only)');

interface Started {
  npm: ChildProcess;
  output: () => string;
  /** Every pid seen in the tree so far (sampled while it runs: children come and go). */
  seen: Set<number>;
  sample(): void;
  /** True once npm's exit and the end of its output have reached this process (events, which a busy machine delivers late). */
  closed(): boolean;
}

/** `npm run <args>` from the checkout, as a user or supervisor starts it; `group` puts it in a process group of its own, as a terminal does. */
function npmRun(args: string[], env: NodeJS.ProcessEnv, group = false): Started {
  const npm = spawn('npm', ['run', '-s', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: group });
  let out = '';
  npm.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  npm.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const seen = new Set<number>();
  let closed = false;
  npm.once('close', () => (closed = true));
  return {
    npm,
    closed: () => closed,
    output: () => out,
    seen,
    sample: () => {
      if (npm.pid) for (const pid of descendants(npm.pid)) seen.add(pid);
    },
  };
}

/** Polls until `url` answers 200, sampling the process tree meanwhile. */
async function waitHealthy(started: Started, url: string): Promise<void> {
  await until(
    `${url} to answer (output so far:\n${started.output()})`,
    async () => {
      started.sample();
      if (started.npm.exitCode !== null) throw new Error(`npm exited with ${started.npm.exitCode}:\n${started.output()}`);
      return fetch(url, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.ok,
        () => false,
      );
    },
    90_000,
  );
}

/** After a stop: within 30 s no process of the tree is alive and none of `ports` is in use. */
async function expectAllGone(started: Started, ports: number[]): Promise<void> {
  await until(
    'every process of the tree to exit',
    () => alive([...started.seen]).length === 0,
    30_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; still running:\n${alive([...started.seen]).map((p) => `${p} ${commandLine(p)}`).join('\n')}\noutput:\n${started.output()}`);
  });
  for (const port of ports) expect(await portInUse(port), `port ${port} still in use`).toBe(false);
}

/** The environment of a `dev` in fresh folders that starts its own Redis (nothing answers at REDIS_URL). */
async function devEnv(dir: string): Promise<{ env: NodeJS.ProcessEnv; gatewayPort: number }> {
  const gatewayPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Not a port the system hands out: another test's Redis there would be found, not started.
    REDIS_URL: await unusedRedisUrl(),
    QUARRY_DATA_DIR: path.join(dir, 'data'),
    QUARRY_WATCH_DIR: path.join(dir, 'inbox'),
    GATEWAY_PORT: String(gatewayPort),
    QUARRY_API_KEYS: '',
    QUARRY_ADMIN_KEYS: '',
    LOG_LEVEL: 'warn',
  };
  return { env, gatewayPort };
}

/** The Redis port a `dev` says it started. */
function startedRedisPort(output: string): number {
  const port = /started a local redis-server at redis:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
  if (!port) throw new Error(`dev did not say it started a Redis:\n${output}`);
  return Number(port);
}

const running: Started[] = [];
afterAll(() => {
  // A failed test must not leave its tree behind either.
  for (const s of running) for (const pid of alive([...s.seen])) process.kill(pid, 'SIGKILL');
});

describe.skipIf(!REDIS_AVAILABLE || !HAVE_PROC)('starting and stopping Quarry as a supervisor does', () => {
  it('`npm run dev` in a fresh folder: creates it, a second CLI finds its Redis, one SIGTERM to npm stops the whole tree', async () => {
    const dir = tempDir();
    const { env, gatewayPort } = await devEnv(dir);
    const dev = npmRun(['dev'], env);
    running.push(dev);
    await waitHealthy(dev, `http://127.0.0.1:${gatewayPort}/healthz`);
    const redisPort = startedRedisPort(dev.output());
    expect(dev.output()).toMatch(/created .*inbox \(watched folder: drop PDFs here\)/);
    expect(existsSync(path.join(dir, 'data', DEV_STATE_FILE))).toBe(true);

    // A PDF dropped into the folder `dev` created is indexed.
    copyFileSync(path.join(root, 'examples/docs/benefits-faq.pdf'), path.join(dir, 'inbox', 'benefits-faq.pdf'));
    await until(
      'the dropped PDF to be indexed',
      async () => {
        dev.sample();
        const r = await fetch(`http://127.0.0.1:${gatewayPort}/v1/documents`).then((x) => x.json() as Promise<{ documents?: { state: string }[] }>);
        return r.documents?.some((d) => d.state === 'indexed') ?? false;
      },
      120_000,
    );

    // Another process, run with the same data directory and no REDIS_URL, finds dev's Redis.
    const { REDIS_URL: _dropped, ...withoutRedisUrl } = env;
    const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'quarry', '--', 'status', '--json'], { cwd: root, env: withoutRedisUrl, timeout: 120_000 });
    const status = JSON.parse(stdout) as { documents: { state: string; source?: string }[] };
    expect(status.documents).toHaveLength(1);
    expect(status.documents[0]?.state).toBe('indexed');

    dev.sample();
    expect(dev.seen.size).toBeGreaterThanOrEqual(4); // npm, quarry, the Redis guard and its server, extraction children
    process.kill(dev.npm.pid!, 'SIGTERM');
    await expectAllGone(dev, [gatewayPort, redisPort]);
    expect(existsSync(path.join(dir, 'data', DEV_STATE_FILE))).toBe(false);
  }, 240_000);

  it('a Ctrl-C (SIGINT to the foreground process group) stops a `dev` that started its own Redis, Redis last', async () => {
    const dir = tempDir();
    const { env, gatewayPort } = await devEnv(dir);
    const dev = npmRun(['dev'], { ...env, LOG_LEVEL: 'info' }, true);
    running.push(dev);
    await waitHealthy(dev, `http://127.0.0.1:${gatewayPort}/healthz`);
    const redisPort = startedRedisPort(dev.output());
    dev.sample();
    process.kill(-dev.npm.pid!, 'SIGINT');
    await expectAllGone(dev, [gatewayPort, redisPort]);
    // Gone from /proc; its exit status and last output arrive here as events, late on a busy machine.
    await until('npm to report its exit and close its output', () => dev.closed(), 60_000);
    // One request, not two (the terminal's and npm's forwarded copy): a graceful stop, not "exiting at once".
    expect(dev.output()).toContain('shutting down');
    expect(dev.output()).not.toContain('exiting at once');
    // The workers closed while Redis still answered: no connection errors on the way out.
    expect(dev.output()).not.toMatch(/ECONNREFUSED/);
    expect(dev.npm.exitCode ?? dev.npm.signalCode).not.toBeNull();
  }, 180_000);

  it('`npm run quarry -- gateway`: one SIGTERM to npm stops it and frees its port', async () => {
    const redis = await startTestRedis();
    try {
      const port = await freePort();
      const gateway = npmRun(['quarry', '--', 'gateway', '--port', String(port)], { ...process.env, REDIS_URL: redis.url, QUARRY_DATA_DIR: path.join(tempDir(), 'data'), LOG_LEVEL: 'warn' });
      running.push(gateway);
      await waitHealthy(gateway, `http://127.0.0.1:${port}/healthz`);
      gateway.sample();
      process.kill(gateway.npm.pid!, 'SIGTERM');
      await expectAllGone(gateway, [port]);
    } finally {
      await redis.cleanup();
    }
  }, 180_000);
});
