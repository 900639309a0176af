import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FacetValueStore } from '../../shared/store/facet-value-store.ts';
import type { FacetName, FacetValueVector } from '../../shared/store/facet-values.ts';
import type { StoreAdmin } from '../../shared/store/store-admin.ts';
import { DIM, MODEL, rejectsWith } from './store-fixtures.ts';

/** What the facet-values suite touches: the collection, plus the schema that creates it. */
export type FacetValueStoreSubject = FacetValueStore & Pick<StoreAdmin, 'ensureSchema' | 'close'>;

function facetRow(facet: FacetName, value: string, vector: number[], extra: Partial<FacetValueVector> = {}): FacetValueVector {
  return {
    facet,
    value,
    aliases: [],
    description: `This is a ${facet} label: ${value}.`,
    sample_count: 1,
    updated_at: '2025-02-03T04:05:06.789Z',
    vector,
    ...extra,
  };
}

/** Rows with plain-array vectors at float32 precision (what the store keeps). */
const plain = (rows: FacetValueVector[]) => rows.map((r) => ({ ...r, vector: Array.from(r.vector, (x) => Math.fround(x)) }));
const pairs = (rows: FacetValueVector[]) => rows.map((r) => `${r.facet}=${r.value}`);

/**
 * The FacetValueStore contract (shared/store/facet-value-store.ts): every adapter runs this suite
 * against a fresh, empty store per test; the suite closes it after each test.
 */
export function runFacetValuesContract(name: string, makeStore: () => Promise<FacetValueStoreSubject>): void {
  describe(`FacetValueStore contract: ${name}`, () => {
    let store: FacetValueStoreSubject;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('before ensureSchema: nothing to list, writes are rejected', async () => {
      expect(await store.listFacetValues()).toEqual([]);
      await rejectsWith(store.upsertFacetValues([facetRow('section', 'eligibility', [1, 0, 0, 0])]), 'STORE_REJECTED');
      await rejectsWith(store.replaceFacetValues('section', []), 'STORE_REJECTED');
    });

    it('upserts are idempotent on (facet, value) and round-trip every field, sorted by facet then value', async () => {
      await store.ensureSchema({ dimension: DIM, model: MODEL });
      const rows = [
        facetRow('section', '지원 대상', [0.6, 0.8, 0, 0], { aliases: ['지원대상'], description: '이 값은 지원 대상을 뜻하는 절 제목이다.', sample_count: 7 }),
        facetRow('section', 'eligibility', [1, 0, 0, 0], { aliases: ['Eligibility'] }),
        facetRow('doc_type', 'law', [0, 0, 1, 0]),
        // The same value under two facets is two rows.
        facetRow('lang', "it's", [0, 1, 0, 0]),
        facetRow('jurisdiction', "it's", [0, 0, 0, 1]),
      ];
      await store.upsertFacetValues(rows);
      await store.upsertFacetValues(rows);
      const all = await store.listFacetValues();
      expect(pairs(all)).toEqual(['doc_type=law', "jurisdiction=it's", "lang=it's", 'section=eligibility', 'section=지원 대상']);
      expect(plain(all).find((r) => r.value === '지원 대상')).toEqual(plain([rows[0]!])[0]);
      expect(all[0]?.vector).toBeInstanceOf(Float32Array);
      expect(pairs(await store.listFacetValues('section'))).toEqual(['section=eligibility', 'section=지원 대상']);
      expect(await store.listFacetValues('lang')).toHaveLength(1);

      // A second write of a pair replaces the row; within one call the last row of a pair wins.
      await store.upsertFacetValues([
        facetRow('doc_type', 'law', [0, 0, 0, 1], { sample_count: 2 }),
        facetRow('doc_type', 'law', [0, 0, 0.6, 0.8], { sample_count: 3, aliases: ['Law', 'LAW'] }),
      ]);
      const [law] = await store.listFacetValues('doc_type');
      expect(law?.sample_count).toBe(3);
      expect(law?.aliases).toEqual(['Law', 'LAW']);
      expect(Array.from(law?.vector ?? [])).toEqual([0, 0, Math.fround(0.6), Math.fround(0.8)]);
      expect(await store.listFacetValues()).toHaveLength(5);
    });

    it('rejects wrong dimensions, unknown facets and malformed rows', async () => {
      await store.ensureSchema({ dimension: DIM, model: MODEL });
      await rejectsWith(store.upsertFacetValues([facetRow('section', 'x', [1, 0, 0])]), 'DIMENSION_MISMATCH');
      await rejectsWith(store.upsertFacetValues([facetRow('color' as FacetName, 'red', [1, 0, 0, 0])]), 'STORE_REJECTED');
      await rejectsWith(store.upsertFacetValues([facetRow('section', '', [1, 0, 0, 0])]), 'STORE_REJECTED');
      await rejectsWith(store.upsertFacetValues([facetRow('section', 'x', [1, 0, 0, 0], { updated_at: 'yesterday' })]), 'STORE_REJECTED');
      await rejectsWith(store.replaceFacetValues('section', [facetRow('lang', 'en', [1, 0, 0, 0])]), 'STORE_REJECTED');
      await rejectsWith(store.listFacetValues('color' as FacetName), 'INVALID_PAYLOAD');
      expect(await store.listFacetValues()).toEqual([]);
    });

    it('replaceFacetValues makes the rows the whole facet: stale values go, other facets stay', async () => {
      await store.ensureSchema({ dimension: DIM, model: MODEL });
      await store.upsertFacetValues([
        facetRow('section', 'eligibility', [1, 0, 0, 0]),
        facetRow('section', 'scope', [0, 1, 0, 0]),
        facetRow('section', "o'brien's rule", [0, 0, 1, 0]),
        facetRow('lang', 'en', [0, 0, 0, 1]),
      ]);
      const result = await store.replaceFacetValues('section', [
        facetRow('section', 'eligibility', [0.6, 0.8, 0, 0], { sample_count: 9 }),
        facetRow('section', '부칙', [0, 0, 0.6, 0.8]),
      ]);
      expect(result).toEqual({ deleted: 2 });
      expect(pairs(await store.listFacetValues())).toEqual(['lang=en', 'section=eligibility', 'section=부칙']);
      expect((await store.listFacetValues('section'))[0]?.sample_count).toBe(9);
      // Replacing with the same set is a no-op; with nothing, the facet is emptied.
      expect(await store.replaceFacetValues('section', [facetRow('section', 'eligibility', [1, 0, 0, 0]), facetRow('section', '부칙', [0, 1, 0, 0])])).toEqual({ deleted: 0 });
      expect(await store.replaceFacetValues('section', [])).toEqual({ deleted: 2 });
      expect(pairs(await store.listFacetValues())).toEqual(['lang=en']);
    });

    it('many stale values go in one replace; concurrent upserts of different facets all land', async () => {
      await store.ensureSchema({ dimension: DIM, model: MODEL });
      const many = Array.from({ length: 1203 }, (_, i) => facetRow('section', `heading ${i}`, [1, i, 0, 1]));
      await store.upsertFacetValues(many);
      expect(await store.replaceFacetValues('section', many.slice(0, 3))).toEqual({ deleted: 1200 });
      await Promise.all([
        store.upsertFacetValues([facetRow('lang', 'en', [1, 0, 0, 0]), facetRow('lang', 'ko', [0, 1, 0, 0])]),
        store.replaceFacetValues('doc_type', [facetRow('doc_type', 'law', [0, 0, 1, 0])]),
        store.upsertFacetValues([facetRow('jurisdiction', 'KR', [0, 0, 0, 1])]),
      ]);
      expect((await store.listFacetValues()).length).toBe(3 + 2 + 1 + 1);
    });
  });
}
