import { describe, expect, it } from 'vitest';
import type { VectorStore } from '../../shared/store/vector-store.ts';
import { createSchemaOnce } from '../../workers/upsert/schema-once.ts';

/** Only ensureSchema is called by the helper; the rest of the store is never touched. */
function fakeStore(fail: () => boolean): { store: VectorStore; calls: number[] } {
  const calls: number[] = [];
  const store = {
    async ensureSchema({ dimension }: { dimension: number }) {
      calls.push(dimension);
      if (fail()) throw new Error('store down');
    },
  } as unknown as VectorStore;
  return { store, calls };
}

describe('ensureSchema once per store', () => {
  it('runs once for many upserts of one dimension, concurrent ones included', async () => {
    const once = createSchemaOnce();
    const { store, calls } = fakeStore(() => false);
    await Promise.all([once(store, 8), once(store, 8), once(store, 8)]);
    await once(store, 8);
    expect(calls).toEqual([8]);
  });
  it('asks again for another dimension and for another store', async () => {
    const once = createSchemaOnce();
    const a = fakeStore(() => false);
    const b = fakeStore(() => false);
    await once(a.store, 8);
    await once(a.store, 16);
    await once(b.store, 8);
    expect(a.calls).toEqual([8, 16]);
    expect(b.calls).toEqual([8]);
  });
  it('forgets a failed attempt, so the next job tries again', async () => {
    const once = createSchemaOnce();
    let down = true;
    const { store, calls } = fakeStore(() => down);
    await expect(once(store, 8)).rejects.toThrow('store down');
    down = false;
    await once(store, 8);
    await once(store, 8);
    expect(calls).toEqual([8, 8]);
  });
});
