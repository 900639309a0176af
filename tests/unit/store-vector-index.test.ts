import { describe, expect, it } from 'vitest';
import { hnswEf, vectorIndexAction } from '../../shared/store/lancedb/vector-index.ts';

describe('vectorIndexAction', () => {
  const policy = { minRows: 20_000, maxSegments: 8 };

  it('a small store is searched exactly; one past minRows gets an index', () => {
    expect(vectorIndexAction({ rows: 19_999, index: null }, policy)).toMatchObject({ action: 'none' });
    expect(vectorIndexAction({ rows: 20_000, index: null }, policy)).toMatchObject({ action: 'build' });
    expect(vectorIndexAction({ rows: 20_000, index: null }, policy).reason).toContain('20000 chunks');
  });

  it('an index is rebuilt only when writes have split it into more than maxSegments segments', () => {
    expect(vectorIndexAction({ rows: 50_000, index: { segments: 8, unindexedRows: 0 } }, policy)).toMatchObject({ action: 'none' });
    expect(vectorIndexAction({ rows: 50_000, index: { segments: 9, unindexedRows: 0 } }, policy)).toMatchObject({ action: 'rebuild' });
    // Unindexed rows are folded in by the next write's refresh, not by a rebuild.
    expect(vectorIndexAction({ rows: 50_000, index: { segments: 1, unindexedRows: 40_000 } }, policy)).toMatchObject({ action: 'none' });
    // A store that shrank below minRows keeps its index: it is still correct, and cheap.
    expect(vectorIndexAction({ rows: 10, index: { segments: 1, unindexedRows: 0 } }, policy)).toMatchObject({ action: 'none' });
  });

  it('searches look at seven times the hits they want, at least 1000', () => {
    expect(hnswEf(300)).toBe(2100);
    expect(hnswEf(20)).toBe(1000);
  });
});
