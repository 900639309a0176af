import { describe, expect, it } from 'vitest';
import { reusedBranchCounts } from '../../shared/agent/branch-counts.ts';
import type { Filter } from '../../shared/store/index.ts';

const tenQs: Filter = { op: 'eq', field: 'doc_type', value: '10-Q' };
const korea: Filter = { op: 'eq', field: 'jurisdiction', value: 'KR' };

/** A store count that answers from `counts` and records each filter it was asked. */
function fakeCount(counts: Map<string, number | Error>) {
  const asked: string[] = [];
  const count = async (filter: Filter) => {
    const key = JSON.stringify(filter);
    asked.push(key);
    const n = counts.get(key) ?? 0;
    if (n instanceof Error) throw n;
    return n;
  };
  return { count, asked };
}

describe('branch counts reused as estimates', () => {
  it('reuses a positive count until it is older than maxAgeMs, then counts again', async () => {
    let now = 0;
    const store = fakeCount(new Map([[JSON.stringify(tenQs), 240]]));
    const count = reusedBranchCounts(store.count, { maxAgeMs: 10_000, now: () => now });
    expect(await count(tenQs)).toBe(240);
    now = 10_000;
    expect(await count({ ...tenQs })).toBe(240);
    expect(store.asked).toHaveLength(1);
    now = 10_001;
    expect(await count(tenQs)).toBe(240);
    expect(store.asked).toHaveLength(2);
  });

  it('never reuses a zero: the documents may be arriving', async () => {
    const counts = new Map<string, number | Error>([[JSON.stringify(korea), 0]]);
    const store = fakeCount(counts);
    const count = reusedBranchCounts(store.count, { maxAgeMs: 10_000, now: () => 0 });
    expect(await count(korea)).toBe(0);
    counts.set(JSON.stringify(korea), 35);
    expect(await count(korea)).toBe(35);
    expect(await count(korea)).toBe(35);
    expect(store.asked).toHaveLength(2);
  });

  it('forgets a failed count, and shares one store call between counts asked at once', async () => {
    const counts = new Map<string, number | Error>([[JSON.stringify(tenQs), new Error('store down')]]);
    const store = fakeCount(counts);
    const count = reusedBranchCounts(store.count, { maxAgeMs: 10_000, now: () => 0 });
    await expect(count(tenQs)).rejects.toThrow('store down');
    counts.set(JSON.stringify(tenQs), 12);
    const [a, b] = await Promise.all([count(tenQs), count(tenQs)]);
    expect([a, b]).toEqual([12, 12]);
    expect(store.asked).toHaveLength(2);
    // Different filters are counted apart.
    expect(await count(korea)).toBe(0);
    expect(store.asked).toHaveLength(3);
  });
});
