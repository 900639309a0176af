import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Threads Lance's CPU pool gets on small hosts when the operator has not chosen a size. */
export const MIN_LANCE_CPU_THREADS = 2;

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * CPUs this process may use: the affinity count, capped by a cgroup CPU quota (a Kubernetes CPU
 * limit) when one is set — Lance counts CPUs the same way, quota included.
 */
export function usableCores(read: (file: string) => string | null = readOrNull, affinity: number = availableParallelism()): number {
  let quota: number | null = null;
  const v2 = read('/sys/fs/cgroup/cpu.max')?.split(/\s+/);
  if (v2 && v2[0] !== 'max' && Number(v2[0]) > 0 && Number(v2[1]) > 0) quota = Number(v2[0]) / Number(v2[1]);
  if (quota === null) {
    const q = Number(read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us'));
    const p = Number(read('/sys/fs/cgroup/cpu/cpu.cfs_period_us'));
    if (q > 0 && p > 0) quota = q / p;
  }
  return quota === null ? affinity : Math.max(1, Math.min(affinity, Math.ceil(quota)));
}

/**
 * Lance sizes its CPU pool at `cores − 2` threads (at least one). Its full-text index writer needs
 * two at once (a producer parked on a full channel, and the page encoder it waits for), so with
 * one thread `optimize()` deadlocks — 0% CPU, the promise never settles, the store's write lock is
 * held forever — as soon as an index write spans more than one posting-list batch: on a 2-core
 * host after ~50k chunks (lance-format/lance#7350, lancedb/lancedb#3568). Unless
 * `LANCE_CPU_THREADS` is already set, this sets it to {@link MIN_LANCE_CPU_THREADS} on hosts
 * where the default pool would have fewer threads.
 *
 * Must run before the first LanceDB operation of the process: the pool is created on first use
 * and reads the variable then. Returns the value now in force (undefined: Lance's default).
 */
export function ensureLanceCpuThreads(env: NodeJS.ProcessEnv = process.env, cores: number = usableCores()): string | undefined {
  const set = env.LANCE_CPU_THREADS;
  if (set !== undefined && set.trim() !== '') return set;
  if (cores - 2 >= MIN_LANCE_CPU_THREADS) return undefined;
  env.LANCE_CPU_THREADS = String(MIN_LANCE_CPU_THREADS);
  return env.LANCE_CPU_THREADS;
}
