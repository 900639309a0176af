/**
 * CPU time of a process tree from Linux's /proc: this bench process, every process it started
 * (stage workers' extraction children, the private redis-server) and the children they reaped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpuPartsOfStats, cpuTicksOfStat, readStatText, threadOfStat, threadTicksByName, type CpuParts, type ThreadReading } from './ingest-stats.ts';

/** Clock ticks per second (`getconf CLK_TCK`; 100 on Linux when it cannot be asked). */
const TICKS_PER_SEC = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

function readStat(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
}

/** `root` and its live descendants (by each process's parent pid). */
function tree(root: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (!stat) continue;
    const ppid = readStatText(stat).field(4);
    byParent.set(ppid, [...(byParent.get(ppid) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    for (const child of byParent.get(pid) ?? []) walk(child);
  };
  walk(root);
  return out;
}

/**
 * CPU ms used so far by `root`'s tree: each live process's own time and its reaped children's.
 * Sampled before and after a run, the difference is the run's cost, processes that came and went
 * included (a reaped child's time moves to its parent's count). Null where /proc is missing.
 */
export function treeCpuMs(root: number = process.pid): number | null {
  if (process.platform !== 'linux') return null;
  let ticks = 0;
  for (const pid of tree(root)) {
    const stat = readStat(pid);
    if (stat) ticks += cpuTicksOfStat(stat);
  }
  return (ticks / TICKS_PER_SEC) * 1000;
}

/**
 * CPU ms used so far by `root`'s tree, by part ({@link CpuParts}: the root's main thread, its other
 * threads, its other descendants — the extraction children — and Redis). Sampled before and after a
 * run, the difference says where the run's CPU went. Null where /proc is missing.
 */
export function treeCpuPartsMs(root: number = process.pid): CpuParts | null {
  if (process.platform !== 'linux') return null;
  const rootStat = readStat(root);
  let mainStat: string | null = null;
  try {
    mainStat = readFileSync(`/proc/${root}/task/${root}/stat`, 'utf8');
  } catch {
    mainStat = null;
  }
  if (!rootStat || !mainStat) return null;
  const descendants = tree(root)
    .slice(1)
    .map(readStat)
    .filter((s): s is string => s !== null);
  const parts = cpuPartsOfStats(rootStat, mainStat, descendants);
  const ms = (t: number) => (t / TICKS_PER_SEC) * 1000;
  return { mainThread: ms(parts.mainThread), otherThreads: ms(parts.otherThreads), children: ms(parts.children), redis: ms(parts.redis) };
}

/** `after − before`, part by part (null when either is). */
export function cpuPartsSince(before: CpuParts | null, after: CpuParts | null): CpuParts | null {
  if (!before || !after) return null;
  return {
    mainThread: after.mainThread - before.mainThread,
    otherThreads: after.otherThreads - before.otherThreads,
    children: after.children - before.children,
    redis: after.redis - before.redis,
  };
}

/** `pid`'s threads now ({@link ThreadReading}); null where /proc is missing. */
export function readThreads(pid: number = process.pid): ThreadReading | null {
  if (process.platform !== 'linux') return null;
  const stat = readStat(pid);
  if (!stat) return null;
  const threads = new Map<number, { name: string; ticks: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(Number(tid), threadOfStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')));
    } catch {
      // Ended between the listing and the read: its time is in the process's own count.
    }
  }
  return { ownTicks: threadOfStat(stat).ticks, threads };
}

/** CPU ms of `pid`'s threads other than its main one between two {@link readThreads}, by thread name. */
export function threadMsByName(before: ThreadReading | null, after: ThreadReading | null, pid: number = process.pid): Record<string, number> | null {
  if (!before || !after) return null;
  const ticks = threadTicksByName(before, after, pid);
  return Object.fromEntries(Object.entries(ticks).map(([name, t]) => [name, (t / TICKS_PER_SEC) * 1000]));
}
