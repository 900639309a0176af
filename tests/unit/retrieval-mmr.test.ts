import { describe, expect, it } from 'vitest';
import { cosine, mmrSelect } from '../../shared/retrieval/mmr.ts';

const v = (...xs: number[]) => Float32Array.from(xs);

describe('cosine', () => {
  it('handles scale, zero, missing and mismatched vectors', () => {
    expect(cosine(v(1, 0), v(3, 0))).toBeCloseTo(1);
    expect(cosine(v(1, 0), v(0, 2))).toBeCloseTo(0);
    expect(cosine(v(0, 0), v(1, 0))).toBe(0);
    expect(cosine(null, v(1, 0))).toBe(0);
    expect(cosine(v(1, 0, 0), v(1, 0))).toBe(0);
  });
});

describe('mmrSelect', () => {
  it('λ = 1 is plain relevance order', () => {
    const items = [0.2, 0.9, 0.5].map((relevance, i) => ({ relevance, vector: v(1, i) }));
    expect(mmrSelect(items, { lambda: 1 }).map((p) => p.index)).toEqual([1, 2, 0]);
  });

  it('removes near-duplicates from the top: a distinct passage beats a slightly better copy', () => {
    const items = [
      { relevance: 0.9, vector: v(1, 0, 0) },
      { relevance: 0.88, vector: v(0.99, 0.01, 0) }, // near-duplicate of 0
      { relevance: 0.86, vector: v(0.99, 0, 0.02) }, // near-duplicate of 0
      { relevance: 0.7, vector: v(0, 1, 0) },
      { relevance: 0.6, vector: v(0, 0, 1) },
    ];
    const picks = mmrSelect(items, { k: 3 });
    expect(picks.map((p) => p.index)).toEqual([0, 3, 4]);
    expect(picks[0]?.penalty).toBe(0);
    // Without diversification the copies would fill the top 3.
    expect(mmrSelect(items, { k: 3, lambda: 1 }).map((p) => p.index)).toEqual([0, 1, 2]);
  });

  it('reports each pick\'s redundancy penalty as (1 − λ)·max similarity', () => {
    const picks = mmrSelect(
      [
        { relevance: 1, vector: v(1, 0) },
        { relevance: 0.9, vector: v(1, 1) },
      ],
      { lambda: 0.6 },
    );
    expect(picks[1]?.maxSimilarity).toBeCloseTo(Math.SQRT1_2, 6);
    expect(picks[1]?.penalty).toBeCloseTo(0.4 * Math.SQRT1_2, 6);
    expect(picks[1]?.score).toBeCloseTo(0.6 * 0.9 - 0.4 * Math.SQRT1_2, 6);
  });

  it('items without vectors are never penalised; ties go to the lower index; k caps the picks', () => {
    const picks = mmrSelect(
      [
        { relevance: 0.5, vector: null },
        { relevance: 0.5, vector: null },
        { relevance: 0.4, vector: null },
      ],
      { k: 2 },
    );
    expect(picks.map((p) => [p.index, p.penalty])).toEqual([
      [0, 0],
      [1, 0],
    ]);
    expect(mmrSelect([], {})).toEqual([]);
  });

  it('refuses λ outside [0, 1]', () => {
    expect(() => mmrSelect([], { lambda: 1.5 })).toThrow(RangeError);
  });
});
