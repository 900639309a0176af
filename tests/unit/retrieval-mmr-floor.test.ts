import { describe, expect, it } from 'vitest';
import { mmrSelect, redundancy } from '../../shared/retrieval/mmr.ts';
import { createSeededRng } from '../../shared/retrieval/priors.ts';
import { DEFAULT_MMR_SIMILARITY_FLOOR, rankCandidates, type RankCandidate } from '../../shared/retrieval/rank.ts';
import type { HybridHit } from '../../shared/store/vector-store.ts';

const v = (...xs: number[]) => Float32Array.from(xs);

/** A unit vector at cosine `c` to (1, 0, 0), in the x–y plane. */
const at = (c: number) => v(c, Math.sqrt(1 - c * c), 0);

function hit(id: string, score: number, docId = `doc-${id}`): HybridHit {
  return {
    chunk: {
      chunk_id: id, doc_id: docId, version: 'v'.repeat(64), section: 'general', section_path: 'Doc > general',
      body: `body of ${id}`, embedding_text: `Doc > general\n\nbody of ${id}`, page_start: 1, page_end: 1, chunk_index: 0,
      total_chunks: 1, token_count: 5, entities: [], valid_from: null, valid_to: null, doc_type: 'paper', jurisdiction: 'US',
      lang: 'en', created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z',
    },
    score, keywordScore: score, vectorScore: score, bm25: null, cosine: null,
  };
}

const rank = (cands: RankCandidate[], options?: { mmrSimilarityFloor?: number }) =>
  rankCandidates({ candidates: cands, keep: cands.length, intent: 'general', queryVector: null, rng: createSeededRng(7), ...(options ? { options } : {}) })
    .map((r) => r.terms.chunkId);

describe('redundancy', () => {
  it('is classic max(0, cos) at floor 0 and linear from the floor to 1 above it', () => {
    expect(redundancy(0.4)).toBeCloseTo(0.4);
    expect(redundancy(-0.3)).toBe(0);
    expect(redundancy(0.5, 0.5)).toBe(0);
    expect(redundancy(0.3, 0.5)).toBe(0);
    expect(redundancy(0.75, 0.5)).toBeCloseTo(0.5);
    expect(redundancy(1, 0.5)).toBeCloseTo(1);
  });

  it('refuses a floor outside [0, 1)', () => {
    expect(() => redundancy(0.5, 1)).toThrow(RangeError);
    expect(() => redundancy(0.5, -0.1)).toThrow(RangeError);
    expect(() => mmrSelect([{ relevance: 1, vector: v(1, 0, 0) }], { similarityFloor: 1 })).toThrow(RangeError);
  });
});

describe('mmrSelect with a similarity floor', () => {
  // The top passage, a second relevant one on the same topic (cos 0.45), an unrelated weaker one,
  // and a near-copy of the top.
  const items = [
    { relevance: 0.9, vector: v(1, 0, 0) },
    { relevance: 0.85, vector: at(0.45) },
    { relevance: 0.8, vector: v(0, 0, 1) },
    { relevance: 0.88, vector: at(0.99) },
  ];

  it('classic MMR (floor 0) charges the topic neighbour and lets the unrelated passage pass it', () => {
    expect(mmrSelect(items, { k: 3 }).map((p) => p.index)).toEqual([0, 2, 1]);
  });

  it('items of one group are charged from cosine 0 whatever the floor', () => {
    const grouped = items.map((it, i) => ({ ...it, group: i === 1 ? 'a' : i === 0 ? 'a' : `g${i}` }));
    expect(mmrSelect(grouped, { k: 3, similarityFloor: 0.5 }).map((p) => p.index)).toEqual([0, 2, 1]);
  });

  it('above the floor only copies pay: the topic neighbour keeps its place, the near-copy still drops', () => {
    const picks = mmrSelect(items, { k: 4, similarityFloor: 0.5 });
    expect(picks.map((p) => p.index)).toEqual([0, 1, 2, 3]);
    expect(picks[1]?.penalty).toBe(0);
    expect(picks[3]?.penalty).toBeCloseTo(0.4 * redundancy(0.99, 0.5));
  });
});

describe('rankCandidates diversifies copies, not topic neighbours', () => {
  const cands = (): RankCandidate[] => [
    { hit: hit('top', 0.9), rerank: null, vector: v(1, 0, 0) },
    { hit: hit('neighbour', 0.85), rerank: null, vector: at(0.45) },
    { hit: hit('unrelated', 0.8), rerank: null, vector: v(0, 0, 1) },
    { hit: hit('copy', 0.88), rerank: null, vector: at(0.99) },
  ];

  it('by default a second relevant passage on the same topic keeps its rank; a near-copy goes last', () => {
    expect(DEFAULT_MMR_SIMILARITY_FLOOR).toBeGreaterThan(0);
    expect(rank(cands())).toEqual(['top', 'neighbour', 'unrelated', 'copy']);
  });

  it('passages of one document are still diversified as in classic MMR', () => {
    const sameDoc = cands().map((c) => (c.hit.chunk.chunk_id === 'neighbour' ? { ...c, hit: hit('neighbour', 0.85, 'doc-top') } : c));
    expect(rank(sameDoc)).toEqual(['top', 'unrelated', 'neighbour', 'copy']);
  });

  it('floor 0 is classic MMR', () => {
    expect(rank(cands(), { mmrSimilarityFloor: 0 })).toEqual(['top', 'unrelated', 'neighbour', 'copy']);
  });
});
