import { describe, expect, it } from 'vitest';
import type { VectorStore } from '../../shared/store/vector-store.ts';
import { createSchemaOnce } from '../../workers/upsert/schema-once.ts';

/** Only ensureSchema is called by the helper; the rest of the store is never touched. */
function fakeStore(fail: () => boolean): { store: VectorStore; calls: string[] } {
  const calls: string[] = [];
  const store = {
    async ensureSchema({ dimension, model }: { dimension: number; model: string }) {
      calls.push(`${model}/${dimension}`);
      if (fail()) throw new Error('store down');
    },
  } as unknown as VectorStore;
  return { store, calls };
}

describe('ensureSchema once per store', () => {
  it('runs once for many upserts of one dimension, concurrent ones included', async () => {
    const once = createSchemaOnce();
    const { store, calls } = fakeStore(() => false);
    await Promise.all([once(store, 8, 'm'), once(store, 8, 'm'), once(store, 8, 'm')]);
    await once(store, 8, 'm');
    expect(calls).toEqual(['m/8']);
  });
  it('asks again for another dimension, another model and another store', async () => {
    const once = createSchemaOnce();
    const a = fakeStore(() => false);
    const b = fakeStore(() => false);
    await once(a.store, 8, 'm');
    await once(a.store, 16, 'm');
    await once(a.store, 16, 'other');
    await once(b.store, 8, 'm');
    expect(a.calls).toEqual(['m/8', 'm/16', 'other/16']);
    expect(b.calls).toEqual(['m/8']);
  });
  it('forgets a failed attempt, so the next job tries again', async () => {
    const once = createSchemaOnce();
    let down = true;
    const { store, calls } = fakeStore(() => down);
    await expect(once(store, 8, 'm')).rejects.toThrow('store down');
    down = false;
    await once(store, 8, 'm');
    await once(store, 8, 'm');
    expect(calls).toEqual(['m/8', 'm/8']);
  });
});
