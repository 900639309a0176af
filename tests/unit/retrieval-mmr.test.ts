import { describe, expect, it } from 'vitest';
import { mmrSelect, type MmrItem, type MmrPick } from '../../shared/retrieval/mmr.ts';
import { cosine } from '../../shared/vector-math.ts';

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

/** The textbook eager algorithm: every candidate compared with every pick, every round. */
function eagerMmr(items: readonly MmrItem[], lambda: number, k: number): MmrPick[] {
  const unitDot = (a: Float32Array | readonly number[] | null, b: Float32Array | readonly number[] | null) => {
    if (!a || !b || a.length !== b.length) return null;
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let j = 0; j < a.length; j += 1) {
      dot += (a[j] as number) * (b[j] as number);
      na += (a[j] as number) ** 2;
      nb += (b[j] as number) ** 2;
    }
    return na === 0 || nb === 0 ? null : dot / (Math.sqrt(na) * Math.sqrt(nb));
  };
  const maxSim = items.map(() => 0);
  const picks: MmrPick[] = [];
  const taken = new Set<number>();
  while (picks.length < Math.min(k, items.length)) {
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    items.forEach((it, i) => {
      if (taken.has(i)) return;
      const s = lambda * (Number.isFinite(it.relevance) ? it.relevance : 0) - (1 - lambda) * Math.max(0, maxSim[i] as number);
      if (s > bestScore) [best, bestScore] = [i, s];
    });
    taken.add(best);
    const sim = maxSim[best] as number;
    picks.push({ index: best, relevance: (items[best] as MmrItem).relevance, maxSimilarity: sim, penalty: (1 - lambda) * Math.max(0, sim), score: bestScore });
    items.forEach((it, i) => {
      const c = taken.has(i) ? null : unitDot(it.vector, (items[best] as MmrItem).vector);
      if (c !== null && c > (maxSim[i] as number)) maxSim[i] = c;
    });
  }
  return picks;
}

describe('mmrSelect, lazily evaluated', () => {
  it('picks exactly what the eager algorithm picks, in the same order, with the same penalties', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 200; trial += 1) {
      const n = 1 + Math.floor(rand() * 60);
      const dim = 2 + Math.floor(rand() * 6);
      // Few distinct relevances and repeated vectors make ties; some vectors are missing or zero.
      const items: MmrItem[] = Array.from({ length: n }, () => {
        const r = rand();
        const vector = r < 0.1 ? null : r < 0.15 ? new Float32Array(dim) : Float32Array.from({ length: dim }, () => Math.round((rand() - 0.3) * 4) / 4);
        return { relevance: Math.round(rand() * 5) / 5, vector };
      });
      const lambda = [0, 0.3, 0.6, 1][trial % 4] as number;
      const k = 1 + Math.floor(rand() * n);
      const lazy = mmrSelect(items, { lambda, k });
      const eager = eagerMmr(items, lambda, k);
      expect(lazy.map((p) => p.index)).toEqual(eager.map((p) => p.index));
      lazy.forEach((p, i) => {
        expect(p.penalty).toBeCloseTo((eager[i] as MmrPick).penalty, 12);
        expect(p.score).toBeCloseTo((eager[i] as MmrPick).score, 12);
      });
    }
  });
});
