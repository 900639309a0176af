/**
 * Where a running `quarry dev` is: its Redis (often one it started, on a random port) and its
 * gateway, written to `<data dir>/dev.json` while it runs. Every CLI command run with the same data
 * directory (the same folder, by default) and no REDIS_URL of its own finds that Redis there.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** The file's name under the data directory. */
export const DEV_STATE_FILE = 'dev.json';

export const DevState = z.object({
  pid: z.number().int().positive(),
  redisUrl: z.string().regex(/^rediss?:\/\//),
  /** True when `dev` started this Redis itself (and stops it when it stops). */
  redisStarted: z.boolean(),
  gatewayUrl: z.string().nullable(),
  startedAt: z.string(),
});
export type DevState = z.infer<typeof DevState>;

export function devStatePath(dataDir: string): string {
  return path.join(dataDir, DEV_STATE_FILE);
}

/** True when a process with this pid exists (signal 0 checks without sending anything). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The state a live `quarry dev` wrote under `dataDir`, or null: no file, a file that does not
 * parse, or one left by a process that is gone (killed without a chance to remove it).
 */
export function readDevState(dataDir: string, alive: (pid: number) => boolean = processAlive): DevState | null {
  let text: string;
  try {
    text = readFileSync(devStatePath(dataDir), 'utf8');
  } catch {
    return null;
  }
  let parsed: DevState;
  try {
    parsed = DevState.parse(JSON.parse(text));
  } catch {
    return null;
  }
  return alive(parsed.pid) ? parsed : null;
}

/** Writes the state (to a temporary file, then renamed: a reader never sees half of it); returns its remover. */
export function writeDevState(dataDir: string, state: DevState): () => void {
  const file = devStatePath(dataDir);
  const tmp = `${file}.${state.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, file);
  return () => {
    // Only this process's own file: a later `dev` may have replaced it.
    const current = readDevState(dataDir, () => true);
    if (current?.pid === state.pid) rmSync(file, { force: true });
  };
}

/**
 * The Redis URL a command should use: REDIS_URL when the environment sets it, else a running
 * `dev`'s (from its state file), else `configured` (the default).
 */
export function redisUrlFor(env: NodeJS.ProcessEnv, configured: string, dev: DevState | null): { url: string; from: 'env' | 'dev' | 'default' } {
  if (env.REDIS_URL) return { url: configured, from: 'env' };
  if (dev) return { url: dev.redisUrl, from: 'dev' };
  return { url: configured, from: 'default' };
}
