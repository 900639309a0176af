import { afterEach, describe, expect, it, vi } from 'vitest';
import { PermanentError, RetryableError, isQuarryError } from '../../shared/errors.ts';
import { createGroupCommit, createMutex, lingerWait, mergeBatchRows } from '../../shared/store/lancedb/write-guard.ts';

interface Row {
  key: string;
  value: number;
}

/** A committer over a fake commit that records every batch it is given. */
function harness(opts: { maxRows?: number; lingerMs?: number; fail?: (rows: Row[]) => unknown; afterCommit?: () => Promise<void> } = {}) {
  const commits: Row[][] = [];
  const lock = createMutex();
  const group = createGroupCommit<Row>({
    keyOf: (r) => r.key,
    maxRows: opts.maxRows ?? 100,
    lingerMs: opts.lingerMs,
    schedule: lock,
    isDataError: (err) => isQuarryError(err) && !err.retryable,
    commit: async (rows) => {
      const err = opts.fail?.(rows);
      if (err) throw err;
      commits.push(rows);
    },
    afterCommit: opts.afterCommit,
  });
  return { commits, lock, group };
}

const rows = (tag: string, n: number): Row[] => Array.from({ length: n }, (_, i) => ({ key: `${tag}${i}`, value: i }));

/** Holds the lock until `release` is called: writes queued meanwhile wait, as behind a refresh. */
async function holdLock(lock: ReturnType<typeof createMutex>): Promise<{ release: () => void }> {
  return new Promise((holding) => {
    void lock(() => new Promise<void>((release) => holding({ release })));
  });
}

describe('group commit', () => {
  it('commits an idle call at once, without waiting for company', async () => {
    const { commits, group } = harness();
    await group.submit(rows('a', 3));
    expect(commits).toEqual([rows('a', 3)]);
  });

  it('merges the calls made while the lock is held into one commit, and each caller resolves with it', async () => {
    const { commits, lock, group } = harness();
    const { release } = await holdLock(lock);
    const settled: string[] = [];
    const calls = ['a', 'b', 'c', 'd'].map((tag) => group.submit(rows(tag, 2)).then(() => settled.push(tag)));
    await new Promise((r) => setTimeout(r, 10));
    expect(commits).toHaveLength(0);
    release();
    await Promise.all(calls);
    expect(commits).toHaveLength(1);
    expect(commits[0]?.map((r) => r.key)).toEqual(['a0', 'a1', 'b0', 'b1', 'c0', 'c1', 'd0', 'd1']);
    expect(settled.sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps one row per key, the last call winning', () => {
    expect(mergeBatchRows([{ rows: [{ key: 'x', value: 1 }, { key: 'y', value: 1 }] }, { rows: [{ key: 'x', value: 2 }] }], (r: Row) => r.key)).toEqual([
      { key: 'x', value: 2 },
      { key: 'y', value: 1 },
    ]);
  });

  it('starts a new batch past maxRows and never splits a call', async () => {
    const { commits, lock, group } = harness({ maxRows: 5 });
    const { release } = await holdLock(lock);
    const calls = [group.submit(rows('a', 3)), group.submit(rows('b', 2)), group.submit(rows('c', 4)), group.submit(rows('d', 7))];
    release();
    await Promise.all(calls);
    expect(commits.map((c) => c.map((r) => r.key[0]).join(''))).toEqual(['aaabb', 'cccc', 'ddddddd']);
  });

  it('an I/O failure reaches every caller of the batch, and the next batch is unaffected', async () => {
    let failing = true;
    const { commits, lock, group } = harness({ fail: () => (failing ? new RetryableError('STORE_UNAVAILABLE', 'disk went away') : null) });
    const { release } = await holdLock(lock);
    const calls = [group.submit(rows('a', 1)), group.submit(rows('b', 1)), group.submit(rows('c', 1))].map((p) =>
      p.then(() => 'ok', (err: unknown) => (err as Error).message),
    );
    release();
    expect(await Promise.all(calls)).toEqual(['disk went away', 'disk went away', 'disk went away']);
    failing = false;
    await group.submit(rows('d', 1));
    expect(commits).toEqual([rows('d', 1)]);
  });

  it('when the store refuses a merged batch, each call is committed on its own and only the bad one fails', async () => {
    const bad = (r: Row[]) => (r.some((x) => x.key === 'b1') ? new PermanentError('STORE_REJECTED', 'row b1 is malformed') : null);
    const { commits, lock, group } = harness({ fail: bad });
    const { release } = await holdLock(lock);
    const calls = ['a', 'b', 'c'].map((tag) => group.submit(rows(tag, 2)).then(() => 'ok', (err: unknown) => (err as PermanentError).code));
    release();
    expect(await Promise.all(calls)).toEqual(['ok', 'STORE_REJECTED', 'ok']);
    expect(commits.map((c) => c.map((r) => r.key).join())).toEqual(['a0,a1', 'c0,c1']);
  });

  it('runs afterCommit once per batch, and its failure reaches every caller of that batch', async () => {
    let refreshes = 0;
    const { lock, group } = harness({
      afterCommit: async () => {
        refreshes += 1;
        if (refreshes === 2) throw new RetryableError('STORE_UNAVAILABLE', 'refresh failed');
      },
    });
    let hold = await holdLock(lock);
    let calls = [group.submit(rows('a', 1)), group.submit(rows('b', 1))];
    hold.release();
    await Promise.all(calls);
    expect(refreshes).toBe(1);
    hold = await holdLock(lock);
    calls = [group.submit(rows('c', 1)), group.submit(rows('d', 1))];
    hold.release();
    const outcomes = await Promise.allSettled(calls);
    expect(refreshes).toBe(2);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
  });

  it('drain waits for batches still queued', async () => {
    const { commits, lock, group } = harness();
    const { release } = await holdLock(lock);
    const call = group.submit(rows('a', 1));
    let drained = false;
    const draining = group.drain().then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(drained).toBe(false);
    release();
    await draining;
    await call;
    expect(commits).toHaveLength(1);
  });
});

describe('group commit linger', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lingerWait: nothing for an idle store, the rest of the linger after a recent commit', () => {
    expect(lingerWait(250, null, 1_000)).toBe(0);
    expect(lingerWait(0, 900, 1_000)).toBe(0);
    expect(lingerWait(250, 900, 1_000)).toBe(150);
    expect(lingerWait(250, 600, 1_000)).toBe(0);
  });

  it('commits an idle call at once, then gathers the calls of the next linger into one commit', async () => {
    vi.useFakeTimers();
    const { commits, group } = harness({ lingerMs: 250 });
    await group.submit(rows('a', 1));
    expect(commits).toHaveLength(1);
    const settled: string[] = [];
    const later = ['b', 'c', 'd'].map((tag) => group.submit(rows(tag, 1)).then(() => settled.push(tag)));
    await vi.advanceTimersByTimeAsync(200);
    expect(commits).toHaveLength(1);
    expect(settled).toEqual([]);
    await vi.advanceTimersByTimeAsync(60);
    await Promise.all(later);
    expect(commits.map((c) => c.map((r) => r.key).join())).toEqual(['a0', 'b0,c0,d0']);
  });

  it('a batch that fills to maxRows goes at once, without waiting out the linger', async () => {
    vi.useFakeTimers();
    const { commits, group } = harness({ lingerMs: 10_000, maxRows: 4 });
    await group.submit(rows('a', 1));
    const full = [group.submit(rows('b', 2)), group.submit(rows('c', 2))];
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all(full);
    expect(commits.map((c) => c.map((r) => r.key).join())).toEqual(['a0', 'b0,b1,c0,c1']);
  });

  it('after a quiet spell longer than the linger, a call commits at once again', async () => {
    vi.useFakeTimers();
    const { commits, group } = harness({ lingerMs: 250 });
    await group.submit(rows('a', 1));
    await vi.advanceTimersByTimeAsync(1_000);
    await group.submit(rows('b', 1));
    expect(commits).toHaveLength(2);
  });
});
