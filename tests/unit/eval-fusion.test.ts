import { describe, expect, it } from 'vitest';
import { dbsf, rrfWith, rsf } from '../../eval/fusion.ts';
import { relativeScoreFusion } from '../../shared/store/fusion.ts';

describe('offline fusions', () => {
  const keyword = [
    { id: 'a', score: 10 },
    { id: 'b', score: 5 },
    { id: 'c', score: 0 },
  ];
  const vector = [
    { id: 'c', score: 0.9 },
    { id: 'b', score: 0.6 },
    { id: 'd', score: 0.1 },
  ];

  it('rsf is the store relativeScoreFusion', () => {
    for (const alpha of [0, 0.3, 0.5, 1]) {
      expect(rsf(keyword, vector, alpha, 10)).toEqual(relativeScoreFusion(keyword, vector, alpha, 10).map((f) => f.id));
    }
  });

  it('rrf adds weighted 1/(k + rank) per side', () => {
    // k = 1, alpha 0.5: a 0.5/2 = .25; b .5/3 + .5/3 = .333; c .5/4 + .5/2 = .375; d .5/4 = .125
    expect(rrfWith(1)(keyword, vector, 0.5, 10)).toEqual(['c', 'b', 'a', 'd']);
    expect(rrfWith(1)(keyword, vector, 0, 2)).toEqual(['a', 'b']);
  });

  it('dbsf scales by mean ± 3 sample sd, without clipping', () => {
    // keyword: mean 5, sd 5 → a .667, b .5, c .333; vector: mean .533, sd .404 → c .651, b .528, d .321
    // fused at 0.5: b .514, c .492, a .333, d .161
    expect(dbsf(keyword, vector, 0, 10)).toEqual(['a', 'b', 'c']);
    expect(dbsf(keyword, vector, 0.5, 10)).toEqual(['b', 'c', 'a', 'd']);
    expect(() => dbsf(keyword, vector, 2, 10)).toThrow(RangeError);
  });
});
