import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { describeError } from '../../shared/errors.ts';
import type { Logger } from '../../shared/telemetry/index.ts';

/**
 * The threads of this process that need a new nice value: Linux keeps one per thread, so every
 * thread that already runs (V8's and libuv's pools) is set, and those started later (LanceDB's,
 * extraction children) inherit it from the thread that starts them. Elsewhere the process (0).
 */
export function ownThreads(listTasks: () => string[] = () => readdirSync('/proc/self/task')): number[] {
  try {
    return listTasks()
      .map(Number)
      .filter((tid) => Number.isInteger(tid) && tid > 0);
  } catch {
    return [0];
  }
}

/**
 * Gives this process the nice value `nice` (WORKER_NICE), so that on a host shared with the
 * gateway and the agent, queries get the CPU before ingest. 0 — or a process already at least as
 * nice — is left as it is (raising priority back needs privileges). A thread that refuses is
 * logged, not fatal: the worker still runs, at its old priority.
 */
export function applyWorkerNice(nice: number, log: Logger): void {
  if (nice <= 0 || getPriority(0) >= nice) return;
  for (const tid of ownThreads()) {
    try {
      setPriority(tid, nice);
    } catch (err) {
      // A thread that ended between listing and setting is not an error worth a line.
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') log.warn('could not lower the worker\'s CPU priority', { nice, tid, ...describeError(err) });
    }
  }
  log.info('worker CPU priority lowered', { nice });
}
