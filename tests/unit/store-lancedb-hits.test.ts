import { describe, expect, it } from 'vitest';
import { relativeScoreFusion } from '../../shared/store/fusion.ts';
import { freshContenders, hitsByChunk, mergeKeywordHits, type ReadHit, type SideHit } from '../../shared/store/lancedb/hybrid-search.ts';
import { DOC_A, VERSION, makeChunk } from '../contract/store-fixtures.ts';

const read = (body: string, vector?: number[]): ReadHit => {
  const { vector: v, ...chunk } = makeChunk({ doc: DOC_A, version: VERSION.a1, section: 's', body, vector: vector ?? [1, 0, 0, 0] });
  return vector ? { chunk, vector: Float32Array.from(v) } : { chunk };
};

describe('hybrid hits from rows read by address', () => {
  const [a, b, c] = [read('alpha', [1, 0, 0, 0]), read('beta', [0, 1, 0, 0]), read('gamma', [0, 0, 1, 0])];

  it('one hit per chunk: a chunk found at two addresses (moved between the sides) keeps both side scores', () => {
    // Keyword side saw b at address 1; vector side saw it at 11 (after a compaction), a at 10.
    const keyword = [{ id: '1', score: 9 }, { id: '2', score: 3 }];
    const vector = [{ id: '11', score: 0.9 }, { id: '10', score: 0.7 }, { id: '2', score: 0.5 }];
    const fused = relativeScoreFusion(keyword, vector, 0.5);
    const rows = new Map<bigint, ReadHit>([[1n, b], [11n, b], [10n, a], [2n, c]]);
    const hits = hitsByChunk(fused, rows, { bm25: new Map(keyword.map((k) => [k.id, k.score])), cosine: new Map(vector.map((v) => [v.id, v.score])) }, { alpha: 0.5, limit: 10 });
    expect(hits.map((h) => h.chunk.chunk_id)).toEqual([b.chunk.chunk_id, a.chunk.chunk_id, c.chunk.chunk_id]);
    expect(hits[0]).toMatchObject({ score: 1, keywordScore: 1, vectorScore: 1, bm25: 9, cosine: 0.9 });
    expect(hits[1]).toMatchObject({ bm25: null, cosine: 0.7 });
    expect(hits[1]!.score).toBeCloseTo(0.25);
    expect(hits[2]).toMatchObject({ score: 0, bm25: 3, cosine: 0.5 });
  });

  it('an address whose row is gone gives no hit; ties go by chunk id; at most limit; copies only', () => {
    const fused = [
      { id: '7', score: 0.5, keywordScore: 1, vectorScore: 0 },
      { id: '5', score: 0.5, keywordScore: 0, vectorScore: 1 },
      { id: '6', score: 0.5, keywordScore: 1, vectorScore: 0 },
      { id: '8', score: 0.4, keywordScore: 0.8, vectorScore: 0 },
    ];
    const rows = new Map<bigint, ReadHit>([[5n, a], [6n, b], [7n, c]]);
    const [first, second, third, ...rest] = [a, b, c].map((r) => r.chunk.chunk_id).sort();
    const hits = hitsByChunk(fused, rows, { bm25: new Map(), cosine: new Map() }, { alpha: 0.5, limit: 2, withVectors: true });
    expect(rest).toEqual([]);
    expect(hits.map((h) => h.chunk.chunk_id)).toEqual([first, second]);
    expect(third).toBeDefined();
    hits[0]!.vector!.fill(7);
    hits[0]!.chunk.entities.push('x');
    const again = hitsByChunk(fused, rows, { bm25: new Map(), cosine: new Map() }, { alpha: 0.5, limit: 3, withVectors: true });
    expect(again.map((h) => h.chunk.chunk_id)).toEqual([first, second, third]);
    expect([...rows.values()].every((r) => r.chunk.entities.length === 0 && !r.vector!.includes(7))).toBe(true);
  });
});

describe('the keyword side from the index and the recent rows', () => {
  it('one hit per address with its better score, best first, ties by address, at most limit', () => {
    const indexed = [{ rowId: 5n, score: 4 }, { rowId: 2n, score: 1 }, { rowId: 9n, score: 2 }];
    // 9 was just taken into the index by a fold and is still among the recent rows.
    const fresh = [{ rowId: 9n, score: 3 }, { rowId: 7n, score: 2 }];
    expect(mergeKeywordHits(indexed, fresh, 10)).toEqual([
      { rowId: 5n, score: 4 }, { rowId: 9n, score: 3 }, { rowId: 7n, score: 2 }, { rowId: 2n, score: 1 },
    ]);
    expect(mergeKeywordHits(indexed, fresh, 2).map((h) => h.rowId)).toEqual([5n, 9n]);
    expect(mergeKeywordHits([{ rowId: 3n, score: 1 }], [{ rowId: 1n, score: 1 }], 5).map((h) => h.rowId)).toEqual([1n, 3n]);
    expect(mergeKeywordHits([], [], 5)).toEqual([]);
  });

  it('only the recent hits that can still make the merged top limit are looked up, and the merge is the same', () => {
    const indexed = [{ rowId: 5n, score: 4 }, { rowId: 2n, score: 1.5 }, { rowId: 9n, score: 2 }];
    const fresh = [{ chunkId: 'a', score: 3 }, { chunkId: 'b', score: 1.5 }, { chunkId: 'c', score: 1.2 }];
    // The index filled the limit: its last score (1.5) is the floor, a tie included.
    expect(freshContenders(indexed, fresh, 3).map((h) => h.chunkId)).toEqual(['a', 'b']);
    // It did not: every recent hit may still take a place.
    expect(freshContenders(indexed, fresh, 4).map((h) => h.chunkId)).toEqual(['a', 'b', 'c']);
    expect(freshContenders([], fresh, 1)).toEqual(fresh);

    // Random sides, some recent rows also in the index: pruning never changes the merge.
    let seed = 7;
    const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let round = 0; round < 500; round++) {
      const limit = 1 + Math.floor(next() * 6);
      const rows = Array.from({ length: 12 }, (_, i) => BigInt(i));
      const pick = (n: number) => rows.filter(() => next() < n / 12).slice(0, limit).map((rowId) => ({ rowId, score: Math.round(next() * 8) / 2 }));
      const indexedHits: SideHit[] = pick(limit + 2);
      const freshHits = pick(limit + 2).map((h) => ({ chunkId: String(h.rowId), score: h.score }));
      const resolve = (hits: readonly { chunkId: string; score: number }[]) => hits.map((h) => ({ rowId: BigInt(h.chunkId), score: h.score }));
      const contenders = freshContenders(indexedHits, freshHits, limit);
      expect(mergeKeywordHits(indexedHits, resolve(contenders), limit)).toEqual(mergeKeywordHits(indexedHits, resolve(freshHits), limit));
    }
  });
});
