import { describe, expect, it } from 'vitest';
import {
  applyOutcome,
  capHist,
  compareCodePoints,
  decayAndPrune,
  decayTo,
  halfLifeFromWeeks,
  memoryFeatures,
  memoryPolicy,
  shouldPrune,
  utilityAt,
  WEEK_MS,
  type ChunkStats,
  type StatsOutcome,
} from '../../shared/memory/chunk-stats.ts';
import { PermanentError } from '../../shared/errors.ts';

const HL = 6 * WEEK_MS;
const policy = memoryPolicy({ halfLifeMs: HL, entityCap: 3, intentCap: 2 });
const T0 = Date.UTC(2025, 0, 5, 3);
const vec = (...xs: number[]) => Float32Array.from(xs);
const win = (at: number, over: Partial<StatsOutcome> = {}): StatsOutcome => ({ queryVector: vec(1, 0), intent: 'legal', entities: [], at, ...over });
const fold = (outcomes: StatsOutcome[], p = policy) => outcomes.reduce<ChunkStats | null>((s, o) => applyOutcome(s, o, p), null) as ChunkStats;

describe('half-life', () => {
  it('accepts 4–8 weeks and nothing else', () => {
    expect(halfLifeFromWeeks(6)).toBe(6 * WEEK_MS);
    expect(halfLifeFromWeeks(4)).toBe(4 * WEEK_MS);
    expect(halfLifeFromWeeks(8)).toBe(8 * WEEK_MS);
    for (const bad of [3.9, 8.1, 0, Number.NaN]) expect(() => halfLifeFromWeeks(bad)).toThrow(RangeError);
    expect(() => memoryPolicy({ halfLifeMs: WEEK_MS })).toThrow(/4–8 weeks/);
    expect(() => memoryPolicy({ entityCap: 0 })).toThrow(/entityCap/);
    expect(memoryPolicy().halfLifeMs).toBe(6 * WEEK_MS);
  });
});

describe('utility decay', () => {
  it('halves exactly once per half-life, for any number of half-lives', () => {
    const s = fold([win(T0)]);
    expect(s.decayed_utility).toBe(1);
    for (let n = 0; n <= 12; n++) expect(utilityAt(s, T0 + n * HL, HL)).toBe(2 ** -n);
    expect(utilityAt(s, T0 + HL / 2, HL)).toBeCloseTo(Math.SQRT1_2, 15);
  });

  it('never grows for a time before the stored one (a reader whose clock lags)', () => {
    expect(utilityAt(fold([win(T0)]), T0 - WEEK_MS, HL)).toBe(1);
  });

  it('adds each win at full value to the decayed total, in any arrival order', () => {
    const inOrder = fold([win(T0), win(T0 + HL)]);
    expect(inOrder.decayed_utility).toBe(1.5);
    expect(inOrder.utility_at).toBe(T0 + HL);
    const late = fold([win(T0 + HL), win(T0)]);
    expect(late).toEqual(inOrder);
    expect(utilityAt(inOrder, T0 + 2 * HL, HL)).toBe(0.75);
    expect(inOrder.last_useful_at).toBe(T0 + HL);
    expect(inOrder.useful_count).toBe(2);
  });

  it('materialises exactly and idempotently', () => {
    const s = fold([win(T0), win(T0 + WEEK_MS)]);
    const t = T0 + 3 * HL;
    const once = decayTo(s, t, HL);
    expect(once.utility_at).toBe(t);
    expect(once.decayed_utility).toBeCloseTo(utilityAt(s, t, HL), 15);
    expect(decayTo(once, t, HL)).toBe(once);
    expect(decayTo(once, t - 1, HL)).toBe(once);
    // Materialising changes nothing a reader sees later.
    expect(utilityAt(once, t + HL, HL)).toBeCloseTo(utilityAt(s, t + HL, HL), 15);
    expect(once.useful_count).toBe(s.useful_count);
  });
});

describe('query centroid', () => {
  it('is the count-weighted running mean, in float32', () => {
    const s = fold([win(T0, { queryVector: vec(1, 0) }), win(T0, { queryVector: vec(0, 1) }), win(T0, { queryVector: vec(2, 2) })]);
    expect([...s.query_centroid!]).toEqual([1, 1]);
    const thirds = fold([win(T0, { queryVector: vec(1) }), win(T0, { queryVector: vec(0) }), win(T0, { queryVector: vec(0) })]);
    // c' = c + (q − c)/n at every step, each step rounded to float32 (as the Lua script does).
    expect(thirds.query_centroid![0]).toBe(Math.fround(0.5 + (0 - 0.5) / 3));
    expect(thirds.query_centroid![0]).toBeCloseTo(1 / 3, 7);
    expect(thirds.query_centroid).toBeInstanceOf(Float32Array);
  });

  it('matches the plain mean closely over many random queries', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const qs = Array.from({ length: 200 }, () => Float32Array.from({ length: 16 }, rnd));
    const s = fold(qs.map((q) => win(T0, { queryVector: q })));
    for (let i = 0; i < 16; i++) expect(s.query_centroid![i]).toBeCloseTo(qs.reduce((a, q) => a + q[i]!, 0) / qs.length, 5);
  });

  it('rejects a query vector of another dimension', () => {
    const s = fold([win(T0, { queryVector: vec(1, 2, 3) })]);
    let err: unknown;
    try {
      applyOutcome(s, win(T0, { queryVector: vec(1, 2) }), policy);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).code).toBe('DIMENSION_MISMATCH');
    expect(() => memoryFeatures(s, T0, HL).centroidCos(vec(1))).toThrow(/DIMENSION|dimensions/);
  });
});

describe('histograms', () => {
  it('count once per outcome and keep the top-K most frequent', () => {
    const s = fold([
      win(T0, { entities: ['a', 'b', 'a'] }),
      win(T0, { entities: ['a', 'c'] }),
      win(T0, { entities: ['a', 'b', 'd'] }),
      win(T0, { entities: ['e'] }),
    ]);
    expect(Object.keys(s.entity_hist)).toHaveLength(3);
    expect(s.entity_hist.a).toBe(3);
    expect(s.entity_hist.b).toBe(2);
    // c, d and e all have 1: the current outcome's entity wins the tie.
    expect(s.entity_hist).toEqual({ a: 3, b: 2, e: 1 });
  });

  it('caps intents too, and breaks ties by code point when nothing is favoured', () => {
    const s = fold([win(T0, { intent: 'legal' }), win(T0, { intent: 'how-to' }), win(T0, { intent: 'definition' })]);
    expect(s.intent_hist).toEqual({ definition: 1, 'how-to': 1 });
    expect(capHist({ b: 1, a: 1, c: 1 }, 2, new Set())).toEqual({ a: 1, b: 1 });
    // Code-point order, not UTF-16 order: U+FF5E sorts before U+1F600 although its UTF-16 unit is larger.
    expect(compareCodePoints('\uFF5E', '\u{1F600}')).toBeLessThan(0);
    expect('\uFF5E' < '\u{1F600}').toBe(false);
  });

  it('treats prototype names as ordinary entities', () => {
    const s = fold([win(T0, { entities: ['__proto__', 'constructor'] }), win(T0, { entities: ['constructor'] })], memoryPolicy());
    expect(Object.getPrototypeOf(s.entity_hist)).toBe(Object.prototype);
    expect(Object.entries(s.entity_hist).sort()).toEqual([['__proto__', 1], ['constructor', 2]]);
    expect(memoryFeatures(s, T0, HL).intentMatch('constructor')).toBe(0);
  });
});

describe('pruning', () => {
  const rule = { pruneBelow: 0.05, pruneIdleMs: 13 * WEEK_MS };
  const s = fold([win(T0)]);
  it('drops only stats that are both low and idle', () => {
    // 5 half-lives: utility 1/32 < 0.05 and 30 weeks idle.
    expect(shouldPrune(s, T0 + 5 * HL, HL, rule)).toBe(true);
    expect(shouldPrune(s, T0 + 4 * HL, HL, rule)).toBe(false); // 1/16 > 0.05
    expect(shouldPrune(s, T0 + 5 * HL, HL, { ...rule, pruneIdleMs: 40 * WEEK_MS })).toBe(false); // low but not idle long enough
    expect(shouldPrune(s, T0 + 100 * HL, HL, { ...rule, pruneBelow: 0 })).toBe(false); // 0 keeps everything
  });

  it('the weekly step prunes, materialises or leaves alone, and is idempotent', () => {
    expect(decayAndPrune(s, T0 + 5 * HL, HL, rule)).toEqual({ stats: null, updated: false, pruned: true });
    const once = decayAndPrune(s, T0 + HL, HL, rule);
    expect(once).toMatchObject({ updated: true, pruned: false });
    expect(once.stats?.decayed_utility).toBe(0.5);
    const twice = decayAndPrune(once.stats!, T0 + HL, HL, rule);
    expect(twice).toEqual({ stats: once.stats, updated: false, pruned: false });
  });
});

describe('ranker features', () => {
  it('gives decayed utility, centroid cosine and intent share', () => {
    const s = fold([win(T0, { queryVector: vec(1, 0), intent: 'legal' }), win(T0, { queryVector: vec(1, 0), intent: 'How-To' })], memoryPolicy());
    const f = memoryFeatures(s, T0 + HL, HL);
    expect(f.decayedUtility).toBe(1);
    expect(f.centroidCos(vec(3, 0))).toBeCloseTo(1, 6);
    expect(f.centroidCos(vec(0, 2))).toBeCloseTo(0, 6);
    expect(f.centroidCos(vec(0, 0))).toBe(0);
    expect(f.intentMatch('legal')).toBe(0.5);
    expect(f.intentMatch(' HOW-TO ')).toBe(0.5);
    expect(f.intentMatch('definition')).toBe(0);
  });
});
