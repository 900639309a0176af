import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ownThreads } from '../../workers/runtime/nice.ts';

const NICE_MODULE = pathToFileURL(path.resolve(import.meta.dirname, '../../workers/runtime/nice.ts')).href;
const TSX = pathToFileURL(path.resolve(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs')).href;

/** Runs `applyWorkerNice(nice)` in a fresh Node process and returns every thread's nice value, before and after. */
function niceOfThreadsAfter(nice: number): { before: number[]; after: number[]; process: number } {
  const script = `
    import { readdirSync, readFileSync } from 'node:fs';
    import { getPriority } from 'node:os';
    const { applyWorkerNice } = await import(${JSON.stringify(NICE_MODULE)});
    // Field 19 of /proc/<pid>/task/<tid>/stat (after the parenthesised name) is the nice value.
    const nices = () => readdirSync('/proc/self/task').map((t) => Number(readFileSync('/proc/self/task/' + t + '/stat', 'utf8').split(') ')[1].split(' ')[16]));
    const before = nices();
    const log = { info() {}, warn(m, f) { process.stderr.write(m + JSON.stringify(f)); }, error() {}, debug() {}, child() { return log; } };
    applyWorkerNice(${nice}, log);
    process.stdout.write(JSON.stringify({ before, after: nices(), process: getPriority(0) }));
  `;
  const r = spawnSync(process.execPath, ['--import', TSX, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { before: number[]; after: number[]; process: number };
}

describe.skipIf(process.platform !== 'linux')('WORKER_NICE', () => {
  it('gives every thread of the process the nice value', () => {
    const r = niceOfThreadsAfter(7);
    // Node runs several threads (V8 platform, libuv) before any worker code: all of them change.
    expect(r.before.length).toBeGreaterThan(1);
    expect(r.before.every((n) => n < 7)).toBe(true);
    expect(r.after.length).toBeGreaterThanOrEqual(r.before.length);
    expect(r.after.every((n) => n === 7)).toBe(true);
    expect(r.process).toBe(7);
  }, 30_000);

  it('leaves the process as it started at 0', () => {
    const r = niceOfThreadsAfter(0);
    expect(r.after).toEqual(r.before);
  }, 30_000);
});

describe('ownThreads', () => {
  it('lists thread ids, and falls back to the process itself where there is no /proc', () => {
    expect(ownThreads(() => ['12', '15', 'x'])).toEqual([12, 15]);
    expect(
      ownThreads(() => {
        throw new Error('ENOENT');
      }),
    ).toEqual([0]);
  });
});
