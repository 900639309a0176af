import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { besideMemoryNeighbours, startMemoryNeighbours } from '../../bench/memory-neighbours.ts';
import { readRss } from '../../shared/pdf/process-memory.ts';
import { alive, HAVE_PROC, until } from '../helpers/process-tree.ts';

/** The nice value and resident MB of a live process (its main thread's nice: the one doing the work). */
function procOf(pid: number): { nice: number; rssMb: number } {
  return { nice: getPriority(pid), rssMb: (readRss(pid) ?? 0) / (1024 * 1024) };
}

/** Whether the process ends (gone, or a zombie not yet reaped) within `timeoutMs`. */
const gone = (pid: number, timeoutMs = 30_000): Promise<boolean> =>
  until(`process ${pid} to end`, () => alive([pid]).length === 0, timeoutMs).then(
    () => true,
    () => false,
  );

if (!HAVE_PROC) console.warn('skipping the memory-neighbour tests: they read processes from /proc, which only Linux has');

// The query bench's hardware floor: processes at the workers' nice value that only touch memory.
describe.skipIf(!HAVE_PROC)('memory neighbours (bench query)', () => {
  it('run at the nice value asked for, hold their buffer resident, and are gone once stopped', async () => {
    const neighbours = await startMemoryNeighbours({ count: 2, nice: 7, mb: 48, maxMs: 120_000 });
    try {
      expect(neighbours.pids).toHaveLength(2);
      for (const pid of neighbours.pids) {
        const p = procOf(pid);
        expect(p.nice, `neighbour ${pid}`).toBe(7);
        expect(p.rssMb, `neighbour ${pid}`).toBeGreaterThanOrEqual(48);
      }
    } finally {
      await neighbours.stop();
    }
    for (const pid of neighbours.pids) expect(await gone(pid), `neighbour ${pid} still runs`).toBe(true);
  });

  it('end by themselves after their bound', async () => {
    const neighbours = await startMemoryNeighbours({ count: 1, nice: 0, mb: 8, maxMs: 300 });
    const [pid] = neighbours.pids;
    expect(await gone(pid as number), 'the neighbour outlived its bound').toBe(true);
    await neighbours.stop();
  });

  it('are stopped when the work beside them fails, and the failure is passed on', async () => {
    let pids: number[] = [];
    const fail = besideMemoryNeighbours({ count: 1, nice: 3, mb: 8, maxMs: 120_000 }, async (neighbours) => {
      pids = neighbours.pids;
      expect(procOf(pids[0] as number).nice).toBe(3);
      throw new Error('the series failed');
    });
    await expect(fail).rejects.toThrow('the series failed');
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) expect(await gone(pid), `neighbour ${pid} still runs`).toBe(true);
  });

  it('refuse options that are not whole numbers in range, before starting anything', async () => {
    await expect(startMemoryNeighbours({ count: 0, nice: 0, mb: 8, maxMs: 1000 })).rejects.toThrow(/count must be a positive whole number/);
    await expect(startMemoryNeighbours({ count: 1, nice: 20, mb: 8, maxMs: 1000 })).rejects.toThrow(/nice must be a whole number from 0 to 19/);
    await expect(startMemoryNeighbours({ count: 1, nice: 0, mb: 1.5, maxMs: 1000 })).rejects.toThrow(/mb must be a positive whole number/);
  });
});
