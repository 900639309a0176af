import { describe, expect, it } from 'vitest';
import { createCoalescedRun, createMutex, pacedWait, type CoalescedRunPacing } from '../../shared/store/lancedb/write-guard.ts';
import { settlesWithin } from '../helpers/timing-asserts.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('pacedWait', () => {
  const pacing = { minIntervalMs: 250, maxShare: 0.25 };

  it('lets a first run, and a run after a quiet spell, start at once', () => {
    expect(pacedWait(pacing, null, 1_000)).toBe(0);
    expect(pacedWait(pacing, { startedAt: 0, durationMs: 20 }, 5_000)).toBe(0);
  });

  it('spaces runs by the minimum interval, or by the last duration over the share when that is longer', () => {
    expect(pacedWait(pacing, { startedAt: 1_000, durationMs: 20 }, 1_050)).toBe(200);
    // 300 ms runs at a quarter of the time: one start every 1,200 ms.
    expect(pacedWait(pacing, { startedAt: 1_000, durationMs: 300 }, 1_300)).toBe(900);
  });
});

/** A coalesced run that records when each run starts; run `n` (1-based) lasts `holdMs(n)` ms. */
function recordedRuns(pacing?: CoalescedRunPacing, holdMs: (n: number) => number = () => 0) {
  const starts: number[] = [];
  const runs = createCoalescedRun(
    createMutex(),
    async () => {
      starts.push(performance.now());
      const ms = holdMs(starts.length);
      if (ms > 0) await sleep(ms);
    },
    pacing,
  );
  return { runs, starts };
}

describe('coalesced run', () => {
  it('without pacing, a request after a run starts the next run at once', async () => {
    const { runs, starts } = recordedRuns();
    await runs.request(undefined);
    await runs.request(undefined);
    expect(starts).toHaveLength(2);
    expect(starts[1]! - starts[0]!).toBeLessThan(100);
  });

  it('paced, requests one after another are spaced too: the first runs at once, the next after the interval', async () => {
    const { runs, starts } = recordedRuns({ minIntervalMs: 150, maxShare: 1 });
    for (let i = 0; i < 3; i++) await runs.request(undefined);
    expect(starts).toHaveLength(3);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(145);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(145);
  });

  it('paced, a request after a quiet spell longer than the interval starts a run at once', async () => {
    const { runs, starts } = recordedRuns({ minIntervalMs: 50, maxShare: 1 });
    await runs.request(undefined);
    await sleep(80);
    const t0 = performance.now();
    await runs.request(undefined);
    expect(starts[1]! - t0).toBeLessThan(40);
  });

  it('paced, requests that arrive while a run is going join one next run, started no sooner than the interval allows', async () => {
    const { runs, starts } = recordedRuns({ minIntervalMs: 150, maxShare: 1 }, () => 20);
    const first = runs.request(undefined);
    await sleep(5);
    const during = [runs.request(undefined), runs.request(undefined)];
    await first;
    const after = runs.request(undefined); // during the pacing wait: joins the same run
    await Promise.all([...during, after]);
    expect(starts).toHaveLength(2);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(145);
  });

  it('paced by share, a long run holds the next one back by its duration over the share', async () => {
    const { runs, starts } = recordedRuns({ minIntervalMs: 0, maxShare: 0.5 }, (n) => (n === 1 ? 60 : 0));
    const first = runs.request(undefined);
    await sleep(5);
    const second = runs.request(undefined);
    await Promise.all([first, second]);
    // 60 ms at half the time: the second may start 120 ms after the first.
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(115);
  });

  it('a request made while a run is going waits for a run that starts after it', async () => {
    let runsDone = 0;
    let release: () => void = () => undefined;
    const runs = createCoalescedRun(
      createMutex(),
      async () => {
        if (runsDone === 0) await new Promise<void>((r) => (release = r));
        runsDone += 1;
      },
      { minIntervalMs: 50, maxShare: 1 },
    );
    const first = runs.request(undefined);
    await sleep(5);
    const second = runs.request(undefined);
    release();
    await first;
    expect(runsDone).toBe(1);
    await second;
    expect(runsDone).toBe(2);
  });

  it('settled() starts a paced run at once (closing does not wait out the pacing)', async () => {
    let runsDone = 0;
    const runs = createCoalescedRun(
      createMutex(),
      async () => {
        await sleep(10);
        runsDone += 1;
      },
      // An hour apart: waiting out the pacing would outlast the test, not just slow it.
      { minIntervalMs: 3_600_000, maxShare: 1 },
    );
    const first = runs.request(undefined);
    await sleep(2);
    const pending = runs.request(undefined); // arrives while the first runs: paced
    await first;
    await settlesWithin(runs.settled(), 20_000, 'settled() with a run paced an hour away');
    await pending;
    expect(runsDone).toBe(2);
  });

  it('a failed run reaches its requests; the next run still starts', async () => {
    let calls = 0;
    const runs = createCoalescedRun(createMutex(), async () => {
      calls += 1;
      if (calls === 1) throw new Error('disk full');
    });
    await expect(runs.request(undefined)).rejects.toThrow('disk full');
    await expect(runs.request(undefined)).resolves.toBeUndefined();
  });
});
