import { describe, expect, it } from 'vitest';
import { meanByKey, parseSizes, percentile, summarise } from '../../bench/query-stats.ts';

describe('percentile', () => {
  it('interpolates between the closest ranks (R-7)', () => {
    const xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(xs, 50)).toBeCloseTo(5.5);
    expect(percentile(xs, 95)).toBeCloseTo(9.55);
    expect(percentile(xs, 0)).toBe(1);
    expect(percentile(xs, 100)).toBe(10);
  });

  it('does not depend on input order and leaves the input alone', () => {
    const xs = [30, 10, 20];
    expect(percentile(xs, 50)).toBe(20);
    expect(xs).toEqual([30, 10, 20]);
  });

  it('is the value itself for one sample, NaN for none', () => {
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('refuses a percentile outside [0, 100]', () => {
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], -1)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });
});

describe('summarise', () => {
  it('gives n, mean, p50, p95 and max rounded to 0.1', () => {
    expect(summarise([10, 20, 30, 40])).toEqual({ n: 4, mean: 25, p50: 25, p95: 38.5, max: 40 });
    expect(summarise([1 / 3])).toEqual({ n: 1, mean: 0.3, p50: 0.3, p95: 0.3, max: 0.3 });
  });

  it('is all NaN for an empty sample', () => {
    const s = summarise([]);
    expect(s.n).toBe(0);
    expect([s.mean, s.p50, s.p95, s.max].every(Number.isNaN)).toBe(true);
  });
});

describe('meanByKey', () => {
  it('averages each key over the records that have it', () => {
    expect(meanByKey([{ a: 1, b: 10 }, { a: 3 }, { b: 20, c: 5 }])).toEqual({ a: 2, b: 15, c: 5 });
    expect(meanByKey([])).toEqual({});
  });
});

describe('parseSizes', () => {
  it('reads plain numbers and k/m suffixes', () => {
    expect(parseSizes('10000,100000', [1])).toEqual([10_000, 100_000]);
    expect(parseSizes('10k, 1M,2.5k', [1])).toEqual([10_000, 1_000_000, 2_500]);
  });

  it('falls back when the option is absent or empty', () => {
    expect(parseSizes(undefined, [10_000, 100_000])).toEqual([10_000, 100_000]);
    expect(parseSizes('', [5])).toEqual([5]);
  });

  it('refuses what is not a positive whole number', () => {
    expect(() => parseSizes('ten', [1])).toThrow(/not a number/);
    expect(() => parseSizes('0', [1])).toThrow(/positive/);
    expect(() => parseSizes('-5', [1])).toThrow(/not a number/);
  });
});
