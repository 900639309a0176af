import { describe, expect, it } from 'vitest';
import { evaluateRun, meanMetrics, mrrAt, ndcgAt, queryMetrics, recallAt } from '../../eval/metrics.ts';

const judged = (entries: Record<string, number>): Map<string, number> => new Map(Object.entries(entries));

describe('nDCG@k', () => {
  it('matches a hand-computed graded example (linear gain, log2 discount)', () => {
    // d3 judged non-relevant at rank 1, d1 (grade 2) at rank 2, d2 (grade 1) at rank 4:
    // DCG = 2/log2(3) + 1/log2(5) = 1.692536…, IDCG = 2/log2(2) + 1/log2(3) = 2.630930…
    const q = judged({ d1: 2, d2: 1, d3: 0 });
    expect(ndcgAt(['d3', 'd1', 'x', 'd2'], q, 10)).toBeCloseTo(0.6433224083, 9);
  });

  it('is 1 for the ideal order and below 1 for the reverse one', () => {
    const q = judged({ a: 3, b: 2, c: 1 });
    expect(ndcgAt(['a', 'b', 'c'], q, 10)).toBeCloseTo(1, 12);
    // (1 + 2/log2 3 + 3/2) / (3 + 2/log2 3 + 1/2)
    expect(ndcgAt(['c', 'b', 'a'], q, 10)).toBeCloseTo(0.7899980042, 9);
  });

  it('cuts at k and takes the ideal from the judgments, not from what was retrieved', () => {
    const q = judged({ rel: 1, missing: 1 });
    const eleven = [...Array.from({ length: 10 }, (_, i) => `n${i}`), 'rel'];
    expect(ndcgAt(eleven, q, 10)).toBe(0);
    // Only one of two relevant docs retrieved, at rank 1: 1 / (1 + 1/log2 3).
    expect(ndcgAt(['rel'], q, 10)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12);
  });

  it('counts a repeated id once, at its first rank', () => {
    const q = judged({ a: 1, b: 1 });
    expect(ndcgAt(['a', 'a', 'b'], q, 10)).toBeCloseTo(1, 12);
  });

  it('is 0 for a query without relevant judgments, and rejects a bad k', () => {
    expect(ndcgAt(['a'], judged({ a: 0 }), 10)).toBe(0);
    expect(() => ndcgAt(['a'], judged({ a: 1 }), 0)).toThrow(RangeError);
  });
});

describe('Recall@k and MRR@k', () => {
  const q = judged({ d1: 2, d2: 1, d3: 0 });

  it('recall counts grade > 0 only, over all relevant documents', () => {
    expect(recallAt(['d3', 'd1', 'x', 'd2'], q, 10)).toBe(1);
    expect(recallAt(['d3', 'd1', 'x', 'd2'], q, 2)).toBe(0.5);
    expect(recallAt(['d3', 'x'], q, 10)).toBe(0);
    expect(recallAt(['a'], judged({ a: 0 }), 10)).toBe(0);
  });

  it('MRR is the reciprocal rank of the first relevant document within k', () => {
    expect(mrrAt(['d3', 'd1', 'x', 'd2'], q, 10)).toBe(0.5);
    expect(mrrAt(['x', 'y', 'd2'], q, 2)).toBe(0);
    expect(mrrAt(['d2'], q, 10)).toBe(1);
  });

  it('recall@100 sees what recall@10 misses', () => {
    const ranking = [...Array.from({ length: 40 }, (_, i) => `n${i}`), 'd1'];
    expect(queryMetrics(ranking, q)).toEqual({ ndcg10: 0, recall10: 0, recall100: 0.5, mrr10: 0 });
  });
});

describe('evaluateRun', () => {
  it('averages over every judged query and keeps per-query values; a query without a ranking scores 0', () => {
    const qrels = new Map([
      ['q1', judged({ a: 1 })],
      ['q2', judged({ b: 1 })],
    ]);
    const { mean, perQuery } = evaluateRun(qrels, new Map([['q1', ['a']]]));
    expect(perQuery.get('q1')).toEqual({ ndcg10: 1, recall10: 1, recall100: 1, mrr10: 1 });
    expect(perQuery.get('q2')).toEqual({ ndcg10: 0, recall10: 0, recall100: 0, mrr10: 0 });
    expect(mean).toEqual({ ndcg10: 0.5, recall10: 0.5, recall100: 0.5, mrr10: 0.5 });
  });

  it('the mean of nothing is zeros', () => {
    expect(meanMetrics([])).toEqual({ ndcg10: 0, recall10: 0, recall100: 0, mrr10: 0 });
  });
});
