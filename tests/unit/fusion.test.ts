import { describe, expect, it } from 'vitest';
import { minMaxNormalise, relativeScoreFusion } from '../../shared/store/fusion.ts';

const kw = [
  { id: 'a', score: 12 },
  { id: 'b', score: 8 },
  { id: 'c', score: 2 },
];
const vec = [
  { id: 'c', score: 0.9 },
  { id: 'd', score: 0.7 },
  { id: 'a', score: 0.5 },
];

describe('minMaxNormalise', () => {
  it('maps the list onto [0, 1]; a single or all-equal list is 1; non-finite is 0', () => {
    expect(minMaxNormalise([12, 8, 2])).toEqual([1, 0.6, 0]);
    expect(minMaxNormalise([0.42])).toEqual([1]);
    expect(minMaxNormalise([3, 3])).toEqual([1, 1]);
    expect(minMaxNormalise([])).toEqual([]);
    expect(minMaxNormalise([Number.NaN, 2, 4])).toEqual([0, 0, 1]);
  });
});

describe('relativeScoreFusion', () => {
  it('alpha 0.5: normalise each side, missing = 0, weighted sum', () => {
    const fused = relativeScoreFusion(kw, vec, 0.5);
    const byId = Object.fromEntries(fused.map((f) => [f.id, f]));
    expect(byId.a).toMatchObject({ keywordScore: 1, vectorScore: 0 });
    expect(byId.c).toMatchObject({ keywordScore: 0, vectorScore: 1 });
    expect(byId.b?.keywordScore).toBeCloseTo(0.6);
    expect(byId.d?.vectorScore).toBeCloseTo(0.5);
    expect(byId.b?.score).toBeCloseTo(0.3);
    expect(byId.d?.score).toBeCloseTo(0.25);
    // a and c tie at 0.5: broken by id.
    expect(fused.map((f) => f.id)).toEqual(['a', 'c', 'b', 'd']);
  });

  it('alpha 0 is pure keyword order and alpha 1 pure vector order; the ignored side adds no hits', () => {
    expect(relativeScoreFusion(kw, vec, 0).map((f) => f.id)).toEqual(['a', 'b', 'c']);
    expect(relativeScoreFusion(kw, vec, 1).map((f) => f.id)).toEqual(['c', 'd', 'a']);
  });

  it('a single hit on a side normalises to 1', () => {
    const fused = relativeScoreFusion([{ id: 'x', score: 0.1 }], [{ id: 'y', score: 0.2 }], 0.25);
    expect(fused).toEqual([
      { id: 'x', score: 0.75, keywordScore: 1, vectorScore: 0 },
      { id: 'y', score: 0.25, keywordScore: 0, vectorScore: 1 },
    ]);
  });

  it('applies the limit, keeps the best score of a duplicated id, is deterministic', () => {
    expect(relativeScoreFusion(kw, vec, 0.5, 2).map((f) => f.id)).toEqual(['a', 'c']);
    expect(relativeScoreFusion([{ id: 'a', score: 1 }, { id: 'a', score: 5 }, { id: 'b', score: 3 }], [], 0)[0]).toMatchObject({
      id: 'a',
      keywordScore: 1,
    });
    const ties = [{ id: 'q', score: 1 }, { id: 'p', score: 1 }, { id: 'r', score: 1 }];
    expect(relativeScoreFusion(ties, [], 0.3).map((f) => f.id)).toEqual(['p', 'q', 'r']);
    expect(relativeScoreFusion([], [], 0.5)).toEqual([]);
  });

  it('rejects alpha outside [0, 1]', () => {
    expect(() => relativeScoreFusion(kw, vec, -0.1)).toThrow(RangeError);
    expect(() => relativeScoreFusion(kw, vec, Number.NaN)).toThrow(RangeError);
  });
});
