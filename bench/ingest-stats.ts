/** Pure helpers of the ingest benchmark (per-document latency, memory, cost breakdown), unit-tested. */
import { percentile } from './query-stats.ts';

/** Resident memory of one process in MB, from its `/proc/<pid>/status` (missing lines read as 0). */
export interface ResidentMb {
  /** Peak resident set (`VmHWM`). */
  hwm: number;
  /** Resident anonymous pages (`RssAnon`): heaps, stacks, buffers — this process's own. */
  anon: number;
  /** Resident file-backed pages (`RssFile`): the node binary and libraries, shared between processes. */
  file: number;
  /** Resident shared-memory pages (`RssShmem`). */
  shmem: number;
}

/** {@link ResidentMb} from the text of `/proc/<pid>/status` (unrounded MB). */
export function residentMb(procStatus: string): ResidentMb {
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB$`, 'm').exec(procStatus)?.[1] ?? 0) / 1024;
  return { hwm: kb('VmHWM'), anon: kb('RssAnon'), file: kb('RssFile'), shmem: kb('RssShmem') };
}

/**
 * What a group of processes holds at one moment as a container's memory accounting (cgroup)
 * counts it, in MB: each process's anonymous and shared-memory pages, plus file-backed pages
 * once — the processes of a stage worker all map the same node binary, which a sum of their RSS
 * would count once per process. The group's file pages are taken as the largest process's (they
 * map the same binary and libraries; a parent a few more). Rounded to whole MB; 0 for no process.
 */
export function groupResidentMb(processes: readonly ResidentMb[]): number {
  const own = processes.reduce((n, p) => n + p.anon + p.shmem, 0);
  const file = processes.reduce((n, p) => Math.max(n, p.file), 0);
  return Math.round(own + file);
}

/** The sum of the processes' peak RSS (VmHWM), in whole MB: what they held at most, each counted alone. */
export function sumHwmMb(processes: readonly ResidentMb[]): number {
  return Math.round(processes.reduce((n, p) => n + p.hwm, 0));
}

/** Child pids listed by `/proc/<pid>/task/<tid>/children` files (space-separated, any order). */
export function parseChildren(texts: readonly string[]): number[] {
  return texts.flatMap((t) => t.split(/\s+/).filter(Boolean).map(Number)).filter((n) => Number.isInteger(n) && n > 0);
}

/** p50/p95 (ms, rounded to whole ms) of per-document latencies; null fields for an empty sample. */
export function latencyP50P95(ms: readonly number[]): { p50: number | null; p95: number | null } {
  if (ms.length === 0) return { p50: null, p95: null };
  return { p50: Math.round(percentile(ms, 50)), p95: Math.round(percentile(ms, 95)) };
}

/** One timed call to a port method, e.g. `{ op: 'status.update', ms: 0.41 }`. */
export interface OpSample {
  op: string;
  ms: number;
}

export interface BreakdownRow {
  op: string;
  calls: number;
  callsPerDoc: number;
  /** Summed time of the calls divided by the documents (calls overlap across documents). */
  msPerDoc: number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Sums samples per operation and divides by the number of documents, most expensive first (ties
 * by name, so the table is stable).
 * @throws RangeError when `docs` is not a positive integer.
 */
export function aggregateBreakdown(samples: readonly OpSample[], docs: number): BreakdownRow[] {
  if (!(Number.isInteger(docs) && docs > 0)) throw new RangeError(`docs must be a positive integer, got ${docs}`);
  const byOp = new Map<string, { calls: number; ms: number }>();
  for (const s of samples) {
    const row = byOp.get(s.op) ?? { calls: 0, ms: 0 };
    row.calls += 1;
    row.ms += s.ms;
    byOp.set(s.op, row);
  }
  return [...byOp.entries()]
    .map(([op, r]) => ({ op, calls: r.calls, callsPerDoc: round2(r.calls / docs), msPerDoc: round2(r.ms / docs) }))
    .sort((a, b) => b.msPerDoc - a.msPerDoc || a.op.localeCompare(b.op));
}

/** Calls per command from the text of Redis `INFO commandstats` (`cmdstat_hset:calls=3,usec=…`). */
export function parseCommandStats(info: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) out.set(m[1] as string, Number(m[2]));
  return out;
}

/**
 * Redis commands per document between two `INFO commandstats` readings, less the harness's own,
 * busiest first; commands whose count did not grow are left out.
 * @throws RangeError when `docs` is not a positive integer.
 */
export function commandsPerDoc(
  before: string,
  after: string,
  docs: number,
  /** Calls the harness itself made (its polling), subtracted per command. */
  harness: ReadonlyMap<string, number> = new Map(),
): { command: string; perDoc: number }[] {
  if (!(Number.isInteger(docs) && docs > 0)) throw new RangeError(`docs must be a positive integer, got ${docs}`);
  const a = parseCommandStats(before);
  return [...parseCommandStats(after).entries()]
    .map(([command, calls]) => ({ command, perDoc: round2((calls - (a.get(command) ?? 0) - (harness.get(command) ?? 0)) / docs) }))
    .filter((r) => r.perDoc > 0)
    .sort((x, y) => y.perDoc - x.perDoc || x.command.localeCompare(y.command));
}

/**
 * CPU seconds Redis reports in `INFO cpu` (`used_cpu_sys` + `used_cpu_user`, main thread and
 * children together).
 * @throws Error when the section has neither field.
 */
export function redisCpuSeconds(info: string): number {
  const field = (name: string) => {
    const m = new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info);
    return m ? Number(m[1]) : null;
  };
  const sys = field('used_cpu_sys');
  const user = field('used_cpu_user');
  if (sys === null || user === null) throw new Error('INFO cpu has no used_cpu_sys / used_cpu_user');
  return sys + user;
}

/**
 * A `/proc/<pid>/stat` (or `/proc/<pid>/task/<tid>/stat`) text read: its command name (field 2),
 * a numeric field, and the sum of fields `from`–`to`, numbered as proc(5) numbers them. The name
 * may hold spaces and parentheses, so fields are counted after its last ')'.
 */
export function readStatText(stat: string): { name: string; field(n: number): number; sum(from: number, to: number): number } {
  const close = stat.lastIndexOf(')');
  // After the name: state is field 3, so field n is at index n - 3.
  const fields = stat.slice(close + 2).split(' ');
  const field = (n: number) => Number(fields[n - 3] ?? 0);
  return {
    name: stat.slice(stat.indexOf('(') + 1, close),
    field,
    sum(from, to) {
      let n = 0;
      for (let f = from; f <= to; f += 1) n += field(f);
      return n;
    },
  };
}

/**
 * CPU time a process has used and its reaped children have, in clock ticks, from the text of its
 * `/proc/<pid>/stat`: utime + stime + cutime + cstime (fields 14–17).
 */
export function cpuTicksOfStat(stat: string): number {
  return readStatText(stat).sum(14, 17);
}

/** CPU ticks of a process tree, by the part of the pipeline that spent them. */
export interface CpuParts {
  /** The root process's main thread: the stage handlers, BullMQ, ioredis, the artifact store. */
  mainThread: number;
  /** The root process's other threads: LanceDB's runtime and pools, libuv's file I/O, V8's helpers. */
  otherThreads: number;
  /** Every other process below the root but Redis (the extraction children, live and reaped). */
  children: number;
  /** Redis servers below the root. */
  redis: number;
}

/**
 * Splits a process tree's CPU (ticks) into {@link CpuParts}, from the texts of `/proc/<root>/stat`,
 * `/proc/<root>/task/<root>/stat` (its main thread) and each descendant's `/proc/<pid>/stat`.
 * A reaped child's time is in its parent's cutime/cstime: the root's counts as children (the
 * extraction children it recycled), a descendant's as that descendant's. A descendant is Redis
 * when its command name says so.
 */
export function cpuPartsOfStats(rootStat: string, mainTaskStat: string, descendants: readonly string[]): CpuParts {
  const root = readStatText(rootStat);
  const own = root.sum(14, 15);
  const main = readStatText(mainTaskStat).sum(14, 15);
  let children = root.sum(16, 17);
  let redis = 0;
  for (const text of descendants) {
    const stat = readStatText(text);
    if (/redis/i.test(stat.name)) redis += stat.sum(14, 17);
    else children += stat.sum(14, 17);
  }
  return { mainThread: main, otherThreads: Math.max(0, own - main), children, redis };
}

/** One thread of a process, from `/proc/<pid>/task/<tid>/stat`: its name and its CPU ticks (utime + stime). */
export function threadOfStat(stat: string): { name: string; ticks: number } {
  const { name, sum } = readStatText(stat);
  return { name, ticks: sum(14, 15) };
}

/** A process's threads at one moment (by thread id) and its own ticks, its ended threads' included. */
export interface ThreadReading {
  ownTicks: number;
  threads: ReadonlyMap<number, { name: string; ticks: number }>;
}

/**
 * The CPU ticks a process's threads other than its main one spent between two readings, summed by
 * thread name (LanceDB's `tokio-rt-worker` and `lance-cpu`, libuv's `libuv-worker`; V8's helpers
 * keep the process's name). A thread started meanwhile counts from zero; what a thread that ended
 * meanwhile spent after the first reading is only in the process's own ticks, and is counted as
 * `(ended)`.
 */
export function threadTicksByName(before: ThreadReading, after: ThreadReading, mainTid: number): Record<string, number> {
  const out: Record<string, number> = {};
  let counted = 0;
  for (const [tid, thread] of after.threads) {
    const spent = thread.ticks - (before.threads.get(tid)?.ticks ?? 0);
    counted += spent;
    if (tid !== mainTid) out[thread.name] = (out[thread.name] ?? 0) + spent;
  }
  const ended = after.ownTicks - before.ownTicks - counted;
  if (ended > 0) out['(ended)'] = ended;
  return out;
}

/** What a run cost per page: CPU ms per page for Quarry and for unpdf alone, their ratio, and pages per CPU-second. */
export interface PageCost {
  quarryCpuMsPerPage: number;
  unpdfCpuMsPerPage: number;
  /** Quarry's CPU per page ÷ unpdf's. */
  cpuRatio: number;
  /** Pages Quarry ingests per second of one core's time. */
  pagesPerSecPerCore: number;
}

/** {@link PageCost} from CPU totals (ms) and page counts; rounded for printing. */
export function pageCost(quarry: { cpuMs: number; pages: number }, unpdf: { cpuMs: number; pages: number }): PageCost {
  const per = (cpuMs: number, pages: number) => (pages > 0 ? cpuMs / pages : 0);
  const q = per(quarry.cpuMs, quarry.pages);
  const u = per(unpdf.cpuMs, unpdf.pages);
  const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
  return {
    quarryCpuMsPerPage: round(q, 1),
    unpdfCpuMsPerPage: round(u, 1),
    cpuRatio: u > 0 ? round(q / u, 2) : 0,
    pagesPerSecPerCore: q > 0 ? round(1000 / q, 1) : 0,
  };
}

/** `ms` over `pages`, to one decimal (0 without a page). */
export function perPage(ms: number, pages: number): number {
  return pages > 0 ? Math.round((ms / pages) * 10) / 10 : 0;
}

/** Each of {@link CpuParts} over `pages`, to one decimal. */
export function partsPerPage(parts: CpuParts, pages: number): CpuParts {
  return { mainThread: perPage(parts.mainThread, pages), otherThreads: perPage(parts.otherThreads, pages), children: perPage(parts.children, pages), redis: perPage(parts.redis, pages) };
}

/**
 * CPU ms a page between two readings of a process tree's CPU (ms), to one decimal; null when a
 * reading is missing (no /proc, the process gone) or no page was counted.
 */
export function msPerPage(before: number | null | undefined, after: number | null | undefined, pages: number): number | null {
  if (before == null || after == null || pages <= 0) return null;
  return perPage(after - before, pages);
}
