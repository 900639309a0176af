import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const alive = (pid: number): boolean => {
  try {
    // A zombie (killed, not yet reaped by its new parent) counts as gone.
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};

/**
 * Runs a process that starts a guard and three `sleep`s: the first listed, the second listed then
 * forgotten, the third never listed; `ending` is how that process ends. Returns the sleeps' pids.
 */
async function run(ending: 'sigkill' | 'close'): Promise<number[]> {
  const guard = pathToFileURL(path.resolve(import.meta.dirname, '../../shared/pdf/orphan-guard.ts')).href;
  const script = [
    `const { spawn } = await import('node:child_process');`,
    `const { startOrphanGuard } = await import(${JSON.stringify(guard)});`,
    `const guard = startOrphanGuard();`,
    `const sleeps = [0, 1, 2].map(() => spawn('sleep', ['30'], { stdio: 'ignore', detached: true }));`,
    `guard.add(sleeps[0].pid); guard.add(sleeps[1].pid); guard.remove(sleeps[1].pid);`,
    `for (const s of sleeps) s.unref();`,
    `console.log(JSON.stringify(sleeps.map((s) => s.pid)));`,
    ending === 'close' ? `setTimeout(() => guard.close(), 200);` : `setInterval(() => undefined, 1000);`,
  ].join('\n');
  const tsxLoader = pathToFileURL(path.resolve(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs')).href;
  const proc = spawn(process.execPath, ['--import', tsxLoader, '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((r) => proc.once('exit', r));
  const pids = await new Promise<number[]>((resolve) => proc.stdout.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()) as number[])));
  await new Promise((r) => setTimeout(r, 500));
  if (ending === 'sigkill') proc.kill('SIGKILL');
  await exited;
  return pids;
}

describe.skipIf(process.platform !== 'linux')('orphan guard', () => {
  it('kills the listed children when its process is SIGKILLed, and only them', async () => {
    const [listed, forgotten, unlisted] = (await run('sigkill')) as [number, number, number];
    try {
      await expect.poll(() => alive(listed), { timeout: 3000, interval: 50 }).toBe(false);
      expect(alive(forgotten)).toBe(true);
      expect(alive(unlisted)).toBe(true);
    } finally {
      for (const pid of [listed, forgotten, unlisted]) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 30_000);

  it('closed, it kills nothing when its process ends', async () => {
    const pids = await run('close');
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(pids.map(alive)).toEqual([true, true, true]);
    } finally {
      for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 30_000);
});
