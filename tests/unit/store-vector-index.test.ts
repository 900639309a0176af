import { describe, expect, it } from 'vitest';
import { HNSW_EF_CONSTRUCTION, hnswEf, vectorIndexAction, vectorIndexOf } from '../../shared/store/lancedb/vector-index.ts';

describe('vectorIndexAction', () => {
  const policy = { minRows: 20_000, maxSegments: 8 };

  it('a small store is searched exactly; one past minRows gets an index', () => {
    expect(vectorIndexAction({ rows: 19_999, index: null }, policy)).toMatchObject({ action: 'none' });
    expect(vectorIndexAction({ rows: 20_000, index: null }, policy)).toMatchObject({ action: 'build' });
    expect(vectorIndexAction({ rows: 20_000, index: null }, policy).reason).toContain('20000 chunks');
  });

  it('an index is rebuilt only when writes have split it into more than maxSegments segments', () => {
    expect(vectorIndexAction({ rows: 50_000, index: { segments: 8, unindexedRows: 0, efConstruction: 600 } }, policy)).toMatchObject({ action: 'none' });
    expect(vectorIndexAction({ rows: 50_000, index: { segments: 9, unindexedRows: 0, efConstruction: 600 } }, policy)).toMatchObject({ action: 'rebuild' });
    // Unindexed rows are folded in by the next write's refresh, not by a rebuild.
    expect(vectorIndexAction({ rows: 50_000, index: { segments: 1, unindexedRows: 40_000, efConstruction: 600 } }, policy)).toMatchObject({ action: 'none' });
    // A store that shrank below minRows keeps its index: it is still correct, and cheap.
    expect(vectorIndexAction({ rows: 10, index: { segments: 1, unindexedRows: 0, efConstruction: 600 } }, policy)).toMatchObject({ action: 'none' });
  });

  it('an index whose graph an older build made with a shorter candidate list is rebuilt; one that does not say is kept', () => {
    const index = (efConstruction: number | null) => ({ rows: 50_000, index: { segments: 1, unindexedRows: 0, efConstruction } });
    expect(vectorIndexAction(index(300), policy)).toMatchObject({ action: 'rebuild', reason: `graph built with efConstruction 300 < ${HNSW_EF_CONSTRUCTION}: rebuild` });
    expect(vectorIndexAction(index(HNSW_EF_CONSTRUCTION), policy)).toMatchObject({ action: 'none' });
    expect(vectorIndexAction(index(null), policy)).toMatchObject({ action: 'none' });
  });

  it('reads the index state from the table listing, as LanceDB 0.31 reports an HNSW index', () => {
    const listed = (details: unknown) => [
      { name: 'chunk_id_idx', indexType: 'BTree', columns: ['chunk_id'] },
      { name: 'vector_idx', indexType: 'IvfHnswSq', columns: ['vector'], numSegments: 3, numUnindexedRows: 12, indexDetails: details },
    ];
    expect(vectorIndexOf(listed({ compression: { num_bits: 8, type: 'sq' }, hnsw: { construction_ef: 300, max_connections: 20, max_level: 7 } }))).toEqual({ segments: 3, unindexedRows: 12, efConstruction: 300 });
    expect(vectorIndexOf(listed('not json'))).toEqual({ segments: 3, unindexedRows: 12, efConstruction: null });
    expect(vectorIndexOf(listed(undefined).slice(0, 1))).toBeNull();
  });

  it('searches look at seven times the hits they want, at least 1000', () => {
    expect(hnswEf(300)).toBe(2100);
    expect(hnswEf(20)).toBe(1000);
  });
});
