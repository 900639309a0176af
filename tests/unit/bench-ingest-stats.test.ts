import { describe, expect, it } from 'vitest';
import { aggregateBreakdown, commandsPerDoc, cpuPartsOfStats, cpuTicksOfStat, groupResidentMb, threadOfStat, threadTicksByName, latencyP50P95, msPerPage, pageCost, parseChildren, parseCommandStats, redisCpuSeconds, residentMb, sumHwmMb } from '../../bench/ingest-stats.ts';
import { timeCalls } from '../../bench/port-timing.ts';

const STATUS = ['Name:\tnode', 'VmPeak:\t 1234567 kB', 'VmHWM:\t  307200 kB', 'VmRSS:\t  204800 kB', 'RssAnon:\t  153600 kB', 'RssFile:\t   51200 kB', 'RssShmem:\t       0 kB', 'Threads:\t11'].join('\n');

describe('resident memory from /proc/<pid>/status', () => {
  it('reads VmHWM (not VmRSS or VmPeak) and the anonymous, file and shared parts in MB', () => {
    expect(residentMb(STATUS)).toEqual({ hwm: 300, anon: 150, file: 50, shmem: 0 });
  });
  it('reads missing lines as 0', () => {
    expect(residentMb('Name:\tkthreadd\nState:\tS (sleeping)')).toEqual({ hwm: 0, anon: 0, file: 0, shmem: 0 });
  });
  it('sums the peaks of a group, each process counted alone', () => {
    expect(sumHwmMb([residentMb(STATUS), { hwm: 99.6, anon: 0, file: 0, shmem: 0 }])).toBe(400);
    expect(sumHwmMb([])).toBe(0);
  });
  it("counts a group as a container does: every process's own pages, the shared file pages once", () => {
    const parent = { hwm: 120, anon: 64, file: 52, shmem: 1 };
    const child = { hwm: 98, anon: 51, file: 47, shmem: 0 };
    // 64 + 1 + 51 + 51 of their own, the larger file share (52) once — not 52 + 47 + 47.
    expect(groupResidentMb([parent, child, child])).toBe(219);
    expect(groupResidentMb([])).toBe(0);
  });
  it('lists child pids from every task children file', () => {
    expect(parseChildren(['812 813 ', '', '900\n'])).toEqual([812, 813, 900]);
  });
});

describe('per-document latency', () => {
  it('gives p50 and p95 in whole ms', () => {
    expect(latencyP50P95([100, 200, 300, 400, 1000])).toEqual({ p50: 300, p95: 880 });
  });
  it('is null for no documents', () => {
    expect(latencyP50P95([])).toEqual({ p50: null, p95: null });
  });
});

describe('cost breakdown', () => {
  it('sums calls and time per operation per document, most expensive first', () => {
    const rows = aggregateBreakdown(
      [
        { op: 'status.update', ms: 1 },
        { op: 'store.upsertChunks', ms: 30 },
        { op: 'status.update', ms: 3 },
        { op: 'artifacts.getJson', ms: 4 },
        { op: 'status.update', ms: 2 },
        { op: 'artifacts.getJson', ms: 2 },
      ],
      2,
    );
    expect(rows).toEqual([
      { op: 'store.upsertChunks', calls: 1, callsPerDoc: 0.5, msPerDoc: 15 },
      { op: 'artifacts.getJson', calls: 2, callsPerDoc: 1, msPerDoc: 3 },
      { op: 'status.update', calls: 3, callsPerDoc: 1.5, msPerDoc: 3 },
    ]);
  });
  it('refuses a document count that is not a positive integer', () => {
    expect(() => aggregateBreakdown([], 0)).toThrow(RangeError);
  });
});

describe('Redis commands per document', () => {
  const before = '# Commandstats\r\ncmdstat_hset:calls=10,usec=50,usec_per_call=5.00\r\ncmdstat_get:calls=4,usec=4\r\n';
  const after = '# Commandstats\r\ncmdstat_hset:calls=30,usec=90\r\ncmdstat_get:calls=4,usec=4\r\ncmdstat_hgetall:calls=25,usec=9\r\ncmdstat_client|setname:calls=2,usec=1\r\n';
  it('parses INFO commandstats, subcommands included', () => {
    expect(parseCommandStats(after).get('client|setname')).toBe(2);
    expect(parseCommandStats(after).get('hset')).toBe(30);
  });
  it('divides the growth by the documents, leaves unchanged commands and the harness calls out', () => {
    expect(commandsPerDoc(before, after, 2, new Map([['hgetall', 21]]))).toEqual([
      { command: 'hset', perDoc: 10 },
      { command: 'hgetall', perDoc: 2 },
      { command: 'client|setname', perDoc: 1 },
    ]);
  });
});

describe('timeCalls', () => {
  it('records each method call once with its name, after a promise settles, and keeps results', async () => {
    const seen: string[] = [];
    const target = {
      n: 3,
      add(a: number) {
        return this.n + a;
      },
      async later() {
        await new Promise((r) => setTimeout(r, 5));
        return 'ok';
      },
      async broken() {
        throw new Error('no');
      },
    };
    const timed = timeCalls('t', target, (s) => seen.push(`${s.op}:${s.ms >= 0}`));
    expect(timed.add(2)).toBe(5);
    const pending = timed.later();
    expect(seen).toEqual(['t.add:true']);
    expect(await pending).toBe('ok');
    await expect(timed.broken()).rejects.toThrow('no');
    expect(timed.n).toBe(3);
    expect(seen).toEqual(['t.add:true', 't.later:true', 't.broken:true']);
  });

  it('reads the CPU seconds Redis has used from INFO cpu', () => {
    const info = '# CPU\r\nused_cpu_sys:1.250000\r\nused_cpu_user:2.500000\r\nused_cpu_sys_children:0.000000\r\n';
    expect(redisCpuSeconds(info)).toBeCloseTo(3.75, 6);
    expect(() => redisCpuSeconds('# CPU\r\n')).toThrow(/used_cpu_sys/);
  });
});

describe('cost per page', () => {
  it('reads a process’s own and reaped children’s CPU ticks from /proc/<pid>/stat, whatever its name holds', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
    const stat = '4242 (node (stage) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 56 7 8 20 0 11 0 100 0';
    expect(cpuTicksOfStat(stat)).toBe(1234 + 56 + 7 + 8);
  });

  it('splits a process tree\'s CPU into the main thread, the other threads, the children and Redis', () => {
    // utime stime cutime cstime are fields 14–17.
    const stat = (pid: number, comm: string, u: number, s: number, cu: number, cs: number) => `${pid} (${comm}) S 1 1 1 0 -1 0 0 0 0 0 ${u} ${s} ${cu} ${cs} 20 0 1 0 1 0`;
    const root = stat(10, 'node', 500, 100, 40, 2); // 600 of its own threads, 42 of reaped children
    const main = stat(10, 'node', 350, 50, 0, 0);
    const parts = cpuPartsOfStats(root, main, [stat(11, 'node', 200, 20, 0, 0), stat(12, 'redis-server', 30, 10, 0, 0), stat(13, 'sh', 1, 0, 3, 0)]);
    expect(parts).toEqual({ mainThread: 400, otherThreads: 200, children: 42 + 220 + 4, redis: 40 });
  });

  it("sums the other threads' CPU by name between two readings, counting new threads from zero and ended ones from the process's total", () => {
    const stat = (tid: number, comm: string, u: number, s: number) => `${tid} (${comm}) S 1 1 1 0 -1 0 0 0 0 0 ${u} ${s} 0 0 20 0 1 0 1 0`;
    expect(threadOfStat(stat(7, 'tokio-rt-worker', 30, 5))).toEqual({ name: 'tokio-rt-worker', ticks: 35 });
    const reading = (own: number, threads: [number, string, number][]) => ({ ownTicks: own, threads: new Map(threads.map(([tid, comm, t]) => [tid, threadOfStat(stat(tid, comm, t, 0))])) });
    // 10 is the main thread; 12 ends between the readings after 4 more ticks; 14 starts.
    const before = reading(100, [[10, 'node', 60], [11, 'libuv-worker', 20], [12, 'tokio-rt-worker', 10], [13, 'tokio-rt-worker', 10]]);
    const after = reading(100 + 50 + 7 + 3 + 4 + 6, [[10, 'node', 110], [11, 'libuv-worker', 27], [13, 'tokio-rt-worker', 13], [14, 'tokio-rt-worker', 6]]);
    expect(threadTicksByName(before, after, 10)).toEqual({ 'libuv-worker': 7, 'tokio-rt-worker': 3 + 6, '(ended)': 4 });
    expect(threadTicksByName(before, before, 10)).toEqual({ 'libuv-worker': 0, 'tokio-rt-worker': 0 });
  });

  it('CPU per page for Quarry and unpdf, their ratio and pages per CPU-second', () => {
    expect(pageCost({ cpuMs: 20_000, pages: 200 }, { cpuMs: 3_000, pages: 200 })).toEqual({ quarryCpuMsPerPage: 100, unpdfCpuMsPerPage: 15, cpuRatio: 6.67, pagesPerSecPerCore: 10 });
    expect(pageCost({ cpuMs: 0, pages: 0 }, { cpuMs: 0, pages: 0 })).toEqual({ quarryCpuMsPerPage: 0, unpdfCpuMsPerPage: 0, cpuRatio: 0, pagesPerSecPerCore: 0 });
  });

  it("a stage process's CPU per page between two readings; null without a reading or a page", () => {
    expect(msPerPage(1_000, 4_540, 590)).toBe(6);
    expect(msPerPage(250, 1_000, 7)).toBe(107.1);
    expect(msPerPage(null, 1_000, 10)).toBeNull();
    expect(msPerPage(0, undefined, 10)).toBeNull();
    expect(msPerPage(0, 1_000, 0)).toBeNull();
  });
});
