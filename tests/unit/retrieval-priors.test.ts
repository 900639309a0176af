import { describe, expect, it } from 'vitest';
import { applyExploration, createSeededRng, explorationSlots, memoryBonus, metadataPrior, softCap, squashUtility } from '../../shared/retrieval/priors.ts';

describe('softCap', () => {
  it('≈ raw when small, increasing, always below the cap', () => {
    expect(softCap(0.01, 0.15)).toBeCloseTo(0.01, 4);
    expect(softCap(0.3, 0.15)).toBeLessThan(0.15);
    expect(softCap(0.3, 0.15)).toBeGreaterThan(softCap(0.2, 0.15));
    expect(softCap(100, 0.15)).toBeLessThanOrEqual(0.15);
    expect(softCap(-1, 0.15)).toBe(0);
    expect(softCap(1, 0)).toBe(0);
  });
});

describe('metadataPrior', () => {
  const weights = { section: { eligibility: 0.77, definitions: 0.31 }, doc_type: { law: 0.82 }, lang: { ko: 0.5 } };

  it('softCap(λ_meta · Σ matching weights, maxPrior), with the facets that matched', () => {
    const { prior, contributions } = metadataPrior(weights, { section: 'definitions', doc_type: 'policy', lang: 'ko' }, { lambda: 0.2, maxPrior: 0.15 });
    expect(prior).toBeCloseTo(softCap(0.2 * (0.31 + 0.5), 0.15), 12);
    expect(metadataPrior(weights, { section: 'definitions' }, { lambda: 0.2, maxPrior: 10 }).prior).toBeCloseTo(0.2 * 0.31, 4);
    expect(contributions).toEqual([
      { facet: 'lang', value: 'ko', weight: 0.5 },
      { facet: 'section', value: 'definitions', weight: 0.31 },
    ]);
  });

  it('the cap holds however many facets match at full weight, and more matches still rank higher', () => {
    const all = { a: { x: 1 }, b: { y: 1 }, c: { z: 1 }, d: { w: 1 } };
    const four = metadataPrior(all, { a: 'x', b: 'y', c: 'z', d: 'w' }).prior;
    const three = metadataPrior(all, { a: 'x', b: 'y', c: 'z' }).prior;
    expect(four).toBeLessThanOrEqual(0.15);
    expect(four).toBeGreaterThan(0.149);
    expect(three).toBeLessThan(four);
    expect(metadataPrior(all, { a: 'x', b: 'y', c: 'z', d: 'w' }, { maxPrior: 0.05 }).prior).toBeLessThanOrEqual(0.05);
  });

  it('compares values case- and width-insensitively; ignores missing values and bad weights', () => {
    expect(metadataPrior({ doc_type: { LAW: 0.5 } }, { doc_type: 'ｌａｗ ' }, { maxPrior: 10 }).prior).toBeCloseTo(0.1, 4);
    expect(metadataPrior({ doc_type: { law: Number.NaN } }, { doc_type: 'law' }).prior).toBe(0);
    expect(metadataPrior({ doc_type: { law: 7 } }, { doc_type: 'law' }, { maxPrior: 10 }).prior).toBeCloseTo(0.2, 3);
    expect(metadataPrior(weights, { section: null, doc_type: undefined }).prior).toBe(0);
    expect(() => metadataPrior(weights, {}, { lambda: -1 })).toThrow(RangeError);
  });
});

describe('memoryBonus', () => {
  it('softCap(λ_mem · (utility + cos + intent), cap); negative cosine gives nothing', () => {
    expect(memoryBonus({ utility: 0.5, centroidCos: 0.2, intentMatch: 0 }, { lambda: 0.1, cap: 10 })).toBeCloseTo(0.07, 4);
    expect(memoryBonus({ utility: 0.5, centroidCos: -0.9, intentMatch: 0 }, { lambda: 0.1, cap: 10 })).toBeCloseTo(0.05, 4);
    expect(memoryBonus({ utility: 1, centroidCos: 1, intentMatch: 1 })).toBeCloseTo(softCap(0.45, 0.2), 12);
    expect(memoryBonus({ utility: 9, centroidCos: 9, intentMatch: 9 }, { cap: 0.1 })).toBeLessThanOrEqual(0.1);
    // More evidence is always worth more, up to the cap.
    expect(memoryBonus({ utility: 0.75, centroidCos: 0.9, intentMatch: 1 })).toBeGreaterThan(memoryBonus({ utility: 0.5, centroidCos: 0.9, intentMatch: 1 }));
  });

  it('squashUtility maps wins to [0, 1)', () => {
    expect(squashUtility(0)).toBe(0);
    expect(squashUtility(1)).toBe(0.5);
    expect(squashUtility(3)).toBe(0.75);
    expect(squashUtility(-1)).toBe(0);
    expect(squashUtility(Number.NaN)).toBe(0);
  });
});

describe('exploration', () => {
  const ranked = (pattern: string) => [...pattern].map((c, i) => ({ id: i, hasMemory: c === 'M' }));

  it('reserves ceil(ratio · keep) slots', () => {
    expect(explorationSlots(30, 0.15)).toBe(5);
    expect(explorationSlots(20, 0.15)).toBe(3);
    expect(explorationSlots(20, 0)).toBe(0);
  });

  it('keeps the ratio: replaces the lowest-placed items with memory by memory-less ones from below the cut', () => {
    const list = ranked('MMMMMMMMMMMMMMMMMMMM' + 'MMNNNNNNNN');
    const { kept, explored } = applyExploration(list, 0.15, createSeededRng(7), { keep: 20 });
    expect(kept).toHaveLength(20);
    expect(kept.filter((k) => !k.hasMemory)).toHaveLength(3);
    expect(explored).toHaveLength(3);
    // The best 17 keep their places; explorers come from the pool below the cut.
    expect(kept.slice(0, 17).map((k) => k.id)).toEqual(Array.from({ length: 17 }, (_, i) => i));
    for (const i of explored) expect(i).toBeGreaterThanOrEqual(22);
  });

  it('changes nothing when the top already has enough new chunks, or nothing below can be drawn', () => {
    const enough = ranked('NMMNMMNMMM' + 'NNNN');
    expect(applyExploration(enough, 0.2, createSeededRng(1), { keep: 10 }).explored).toEqual([]);
    const none = ranked('MMMMMMMMMM' + 'MMM');
    expect(applyExploration(none, 0.2, createSeededRng(1), { keep: 10 }).kept.map((k) => k.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('is deterministic for a seed and varies with it', () => {
    const list = ranked('M'.repeat(20) + 'N'.repeat(20));
    const a = applyExploration(list, 0.15, createSeededRng(42), { keep: 20 }).explored;
    const b = applyExploration(list, 0.15, createSeededRng(42), { keep: 20 }).explored;
    expect(a).toEqual(b);
    const seeds = new Set([1, 2, 3, 4, 5, 6].map((s) => applyExploration(list, 0.15, createSeededRng(s), { keep: 20 }).explored.join(',')));
    expect(seeds.size).toBeGreaterThan(1);
  });

  it('the seeded rng is in [0, 1)', () => {
    const rng = createSeededRng(123);
    for (let i = 0; i < 1000; i += 1) {
      const x = rng();
      expect(x >= 0 && x < 1).toBe(true);
    }
  });
});
