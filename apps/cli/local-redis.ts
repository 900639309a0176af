import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export const REDIS_MISSING_MESSAGE = [
  'redis-server was not found and no Redis answered.',
  'Quarry needs Redis for its queues. Either install it:',
  '  Debian/Ubuntu: sudo apt-get install -y redis-server',
  '  macOS:         brew install redis',
  'or point REDIS_URL at a running Redis (redis://host:6379).',
].join('\n');

/** A free TCP port on 127.0.0.1 (asked of the OS, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** True when a Redis answers PING at `url` within `timeoutMs`. */
export async function redisAnswers(url: string, timeoutMs = 1500): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: timeoutMs, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export function redisServerAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

export interface LocalRedis {
  url: string;
  port: number;
  /** Stops the server (SIGTERM, then SIGKILL after a few seconds) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and directory. */
  restart(): Promise<void>;
}

/**
 * Runs `redis-server` under a small POSIX shell that stops it (SIGTERM, then waits) as soon as its
 * standard input ends, which happens when this process closes the pipe (`stop`) or dies in any way
 * (the kernel closes it, SIGKILL and OOM included): a Redis a `quarry dev` started never outlives it.
 * The shell runs in a session of its own (`detached`), so a terminal's Ctrl-C, which signals the
 * whole foreground process group, reaches Quarry but not its Redis: Quarry stops its workers
 * first, while Redis still answers, and stops Redis last. The shell exits with the server's status.
 */
const REDIS_GUARD = `
exec 3<&0 0</dev/null
"$@" 3<&- &
server=$!
{ read -r _ <&3; kill -TERM "$server" 2>/dev/null; } &
watcher=$!
wait "$server"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"
`;

/** How long a stopping redis-server may take (an AOF rewrite's fsync) before it is SIGKILLed. @defaultValue 5000 */
const REDIS_STOP_GRACE_MS = 5000;

/**
 * Starts a private `redis-server` on a free port. Persistence is off unless `appendonly` is set
 * (tests that restart Redis want their data back). The server stops with this process (see
 * REDIS_GUARD), whatever way it ends.
 * @throws Error with REDIS_MISSING_MESSAGE when redis-server is not installed.
 */
export async function startRedisServer(opts: { dir: string; port?: number; appendonly?: boolean }): Promise<LocalRedis> {
  if (!redisServerAvailable()) throw new Error(REDIS_MISSING_MESSAGE);
  mkdirSync(opts.dir, { recursive: true });
  const port = opts.port ?? (await freePort());
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;

  async function start(): Promise<void> {
    const args = ['redis-server', '--port', String(port), '--bind', '127.0.0.1', '--dir', opts.dir, '--save', '', '--appendonly', opts.appendonly ? 'yes' : 'no', '--maxmemory-policy', 'noeviction'];
    child = spawn('/bin/sh', ['-c', REDIS_GUARD, 'redis-guard', ...args], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    const proc = child;
    // The pipe is how the guard knows this process is alive: it must not keep this process alive.
    proc.unref();
    (proc.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    proc.stdin?.on('error', () => undefined);
    for (let i = 0; i < 100; i++) {
      if (proc.exitCode !== null) throw new Error(`redis-server exited with code ${proc.exitCode} (port ${port})`);
      if (await redisAnswers(url, 200)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    await stop();
    throw new Error(`redis-server did not answer on port ${port}`);
  }

  async function stop(): Promise<void> {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.stdin?.end();
    // The guard's whole process group (the shell and the server): it is a session of its own.
    const timer = setTimeout(() => killGroup(proc, 'SIGKILL'), REDIS_STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }

  await start();
  return { url, port, stop, restart: start };
}

/** Signals a detached child's process group (its pid is the group's id), or the child alone where that fails. */
function killGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (proc.pid) process.kill(-proc.pid, signal);
  } catch {
    proc.kill(signal);
  }
}

/**
 * Finds Redis at `url`, or, when that is the local default and nothing answers, starts a private
 * one under `dir` with AOF on: a restart of `quarry dev` (or of its Redis) must not lose queued
 * jobs and status records, or documents would stay queued with no job behind them.
 * @throws Error with install advice when neither works.
 */
export async function ensureRedis(url: string, dir: string): Promise<{ url: string; started: LocalRedis | null }> {
  if (await redisAnswers(url)) return { url, started: null };
  const local = /^redis:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/?$/.test(url);
  if (!local) throw new Error(`no Redis answers at ${url}: is it running and reachable?`);
  const started = await startRedisServer({ dir, appendonly: true });
  return { url: started.url, started };
}
