import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PermanentError } from '../../shared/errors.ts';
import { withEmbedderCheck } from '../../shared/store/embedder-record.ts';
import type { HybridHit, VectorStore } from '../../shared/store/vector-store.ts';
import { DIM, MODEL, OTHER_MODEL, DOC_A, corpus, rejectsWith, seedStore } from './store-fixtures.ts';

function ids(hits: HybridHit[]): string[] {
  return hits.map((h) => h.chunk.chunk_id);
}

/**
 * The StoreAdmin contract (shared/store/store-admin.ts): schema, embedder record, maintenance.
 * What they do shows in the other parts, so the suite takes the whole store. Every adapter runs
 * it against a fresh, empty store per test; the suite closes it after each test.
 */
export function runStoreAdminContract(name: string, makeStore: () => Promise<VectorStore>): void {
  describe(`StoreAdmin contract: ${name}`, () => {
    let store: VectorStore;
    let c: ReturnType<typeof corpus>;

    beforeEach(async () => {
      store = await makeStore();
      c = corpus();
    });
    afterEach(async () => {
      await store.close();
    });

    const seed = (): Promise<void> => seedStore(store, c);

    describe('schema', () => {
      it('has no dimension before ensureSchema, reads are empty and writes are rejected', async () => {
        expect(await store.dimension()).toBeNull();
        expect(await store.countChunks()).toBe(0);
        expect(await store.getDocument(DOC_A)).toBeNull();
        expect(await store.fetchByIds([c.a1.chunk_id])).toEqual([]);
        expect(await store.hybrid({ text: 'cookie', vector: [0, 0, 1, 0], alpha: 0.5, limit: 5 })).toEqual([]);
        await rejectsWith(store.upsertChunks([c.a1]), 'STORE_REJECTED');
      });

      it('ensureSchema is idempotent and refuses another dimension', async () => {
        await store.ensureSchema({ dimension: DIM, model: MODEL });
        await store.ensureSchema({ dimension: DIM, model: MODEL });
        expect(await store.dimension()).toBe(DIM);
        await rejectsWith(store.ensureSchema({ dimension: DIM * 2, model: MODEL }), 'DIMENSION_MISMATCH');
        expect(await store.dimension()).toBe(DIM);
      });

      it('records the embedder on creation, reopens with it and refuses another one naming both', async () => {
        expect(await store.embedderRecord()).toBeNull();
        await store.ensureSchema({ dimension: DIM, model: MODEL });
        expect(await store.embedderRecord()).toEqual({ model: MODEL, dimension: DIM });
        await store.ensureSchema({ dimension: DIM, model: MODEL });
        const err = await store.ensureSchema({ dimension: DIM, model: OTHER_MODEL }).then(() => null, (e: unknown) => e);
        expect(err).toBeInstanceOf(PermanentError);
        expect((err as PermanentError).code).toBe('EMBEDDER_MISMATCH');
        expect((err as PermanentError).message).toContain(MODEL);
        expect((err as PermanentError).message).toContain(OTHER_MODEL);
        expect((err as PermanentError).message).toMatch(/--force/);
        expect(await store.embedderRecord()).toEqual({ model: MODEL, dimension: DIM });
        await rejectsWith(store.ensureSchema({ dimension: DIM, model: '' }), 'STORE_REJECTED');
      });

      it('searches through withEmbedderCheck fail with EMBEDDER_MISMATCH for another embedder', async () => {
        await seed();
        const warnings: string[] = [];
        const warn = (m: string) => warnings.push(m);
        const other = withEmbedderCheck(store, { model: OTHER_MODEL, where: 'the test store', warn });
        await rejectsWith(other.hybrid({ text: 'cookie', vector: [0, 0, 1, 0], alpha: 0.5, limit: 5 }), 'EMBEDDER_MISMATCH');
        await rejectsWith(other.hybrid({ text: 'cookie', vector: [0, 0, 1, 0], alpha: 0.5, limit: 5 }), 'EMBEDDER_MISMATCH');
        expect(await other.countChunks()).toBe(6);
        const same = withEmbedderCheck(store, { model: MODEL, where: 'the test store', warn });
        expect((await same.hybrid({ text: 'cookie', vector: [0, 0, 1, 0], alpha: 0.5, limit: 5 })).length).toBeGreaterThan(0);
        expect(warnings).toEqual([]);
      });
    });

    describe('maintenance', () => {
      beforeEach(seed);

      it('maintain() reports what it did, changes no result, and has nothing left to do when called again', async () => {
        const q = { text: '출산 장려금 cookie', vector: [0.5, 0.5, 0.5, 0.5], alpha: 0.5, limit: 10 };
        const before = await store.hybrid(q);
        const report = await store.maintain();
        expect(['exact', 'current', 'built', 'rebuilt', 'server']).toContain(report.vectorIndex);
        expect(report.reason).not.toBe('');
        expect(ids(await store.hybrid(q))).toEqual(ids(before));
        expect(['exact', 'current', 'server']).toContain((await store.maintain()).vectorIndex);
      });
    });
  });
}
