import { describe, expect, it } from 'vitest';
import { pairedRandomizationTest } from '../../eval/significance.ts';

describe('paired randomization test', () => {
  it('finds a consistent improvement significant and a null one not', () => {
    const base: number[] = Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? 1 : 0));
    const better = base.map((x, i) => (i % 4 === 1 ? 1 : x));
    const strong = pairedRandomizationTest(better, base, 2000);
    expect(strong.meanDiff).toBeCloseTo(better.reduce((a, b) => a + b, 0) / 200 - base.reduce((a, b) => a + b, 0) / 200, 12);
    expect(strong.p).toBeLessThan(0.01);
    expect(strong.n).toBe(200);

    const same = pairedRandomizationTest(base, base, 2000);
    expect(same).toEqual({ meanDiff: 0, p: 1, n: 200 });

    // Gains and losses of every size that nearly cancel out: nothing to see.
    const half = base.map(() => 0.5);
    const mixed = half.map((x, i) => x + (((i * 37) % 11) - 5) / 10);
    expect(pairedRandomizationTest(mixed, half, 2000).p).toBeGreaterThan(0.5);
  });

  it('is deterministic for a seed, symmetric in its arguments, and rejects unequal lists', () => {
    const a = [0.1, 0.5, 0.9, 0.3, 0.7, 0.2];
    const b = [0.2, 0.4, 0.6, 0.3, 0.5, 0.1];
    const t = pairedRandomizationTest(a, b, 5000, 7);
    expect(pairedRandomizationTest(a, b, 5000, 7)).toEqual(t);
    const r = pairedRandomizationTest(b, a, 5000, 7);
    expect(r.meanDiff).toBeCloseTo(-t.meanDiff, 12);
    expect(r.p).toBe(t.p);
    // Exact two-sided p for 6 pairs is 1 - P(|sum| smaller) over 64 equally likely flips.
    expect(t.p).toBeGreaterThan(0.05);
    expect(() => pairedRandomizationTest([1], [1, 2])).toThrow(RangeError);
    expect(() => pairedRandomizationTest([], [])).toThrow(RangeError);
  });
});
