import { describe, expect, it } from 'vitest';
import { packUnits } from '../../shared/chunk/pack.ts';
import type { ChunkPolicy } from '../../shared/chunk/policy.ts';
import type { Unit, UnitKind } from '../../shared/chunk/units.ts';

const policy: ChunkPolicy = { minTokens: 120, targetTokens: 600, maxTokens: 900, overlapTokens: 80 };

/** Units with given token counts laid out one after another (text and offsets are placeholders). */
function units(spec: Array<[UnitKind, number]>): Unit[] {
  let at = 0;
  return spec.map(([kind, tokens]) => {
    const u = { kind, text: 'x', start: at, end: at + 1, tokens };
    at += 2;
    return u;
  });
}

describe('packUnits', () => {
  it('packs towards the target and overlaps whole trailing sentences', () => {
    const u = units(Array.from({ length: 40 }, () => ['sentence', 40] as [UnitKind, number]));
    const ranges = packUnits(u, policy);
    expect(ranges.length).toBeGreaterThan(2);
    expect(ranges[0]?.overlapFrom).toBe(0);
    for (const r of ranges.slice(1)) {
      // Two 40-token sentences (plus a seam) are more than 80: exactly one sentence repeats.
      expect(r.start - r.overlapFrom).toBe(1);
    }
    // Every unit is new in exactly one range, in order.
    expect(ranges.map((r) => [r.start, r.end]).flat()).toEqual(ranges.flatMap((r, i) => [i === 0 ? 0 : (ranges[i - 1]?.end ?? 0), r.end]));
    expect(ranges[ranges.length - 1]?.end).toBe(40);
  });

  it('never repeats a list or table as overlap', () => {
    const ranges = packUnits(units([['sentence', 400], ['list', 60], ['sentence', 400], ['sentence', 300]]), policy);
    for (const r of ranges) expect(r.overlapFrom).toBe(r.start);
  });

  it('folds a stub squeezed before a big table into the previous chunk', () => {
    const ranges = packUnits(units([['sentence', 300], ['sentence', 300], ['sentence', 40], ['table', 880]]), policy);
    expect(ranges.map((r) => [r.start, r.end])).toEqual([[0, 3], [3, 4]]);
  });

  it('rebalances a stub tail with its predecessor', () => {
    // 850 tokens of sentences then a 60-token tail: folding would pass 900, so split evenly.
    const spec: Array<[UnitKind, number]> = [...Array.from({ length: 17 }, () => ['sentence', 50] as [UnitKind, number]), ['sentence', 100]];
    const ranges = packUnits(units(spec), { ...policy, targetTokens: 860, overlapTokens: 0 });
    expect(ranges).toHaveLength(2);
    const sizes = ranges.map((r) => spec.slice(r.overlapFrom, r.end).reduce((s, [, t]) => s + t, 0));
    for (const s of sizes) expect(s).toBeGreaterThanOrEqual(policy.minTokens);
  });

  it('returns one range for units that fit', () => {
    expect(packUnits(units([['sentence', 10]]), policy)).toEqual([{ overlapFrom: 0, start: 0, end: 1 }]);
  });
});
