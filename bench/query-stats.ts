/** Latency statistics for the query benchmark: pure helpers, unit-tested. */

/**
 * The `p`-th percentile (0–100) of `values` by linear interpolation between the closest ranks
 * (the "R-7" definition spreadsheets and NumPy use by default). NaN for an empty list.
 * @throws RangeError when `p` is outside [0, 100].
 */
export function percentile(values: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be in [0, 100], got ${p}`);
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (rank - lo);
}

/** Summary of a latency sample, in the sample's unit, rounded to 0.1. */
export interface LatencySummary {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  max: number;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** n, mean, p50, p95 and max of `values` (NaN fields for an empty sample). */
export function summarise(values: readonly number[]): LatencySummary {
  const n = values.length;
  return {
    n,
    mean: n ? round1(values.reduce((s, v) => s + v, 0) / n) : Number.NaN,
    p50: round1(percentile(values, 50)),
    p95: round1(percentile(values, 95)),
    max: n ? round1(Math.max(...values)) : Number.NaN,
  };
}

/** Mean per key over a list of `{ key → ms }` records (a key missing from a record counts as absent, not 0). */
export function meanByKey(records: readonly Readonly<Record<string, number>>[]): Record<string, number> {
  const sums = new Map<string, { total: number; n: number }>();
  for (const r of records) {
    for (const [k, v] of Object.entries(r)) {
      const s = sums.get(k) ?? { total: 0, n: 0 };
      s.total += v;
      s.n += 1;
      sums.set(k, s);
    }
  }
  return Object.fromEntries([...sums].map(([k, s]) => [k, round1(s.total / s.n)]));
}

/** `--sizes=10000,100000` → [10000, 100000]; `k`/`m` suffixes allowed (`10k`, `1m`). */
export function parseSizes(arg: string | undefined, fallback: readonly number[]): number[] {
  if (arg === undefined || arg.trim() === '') return [...fallback];
  return arg.split(',').map((raw) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*([kKmM]?)\s*$/.exec(raw);
    if (!m) throw new Error(`--sizes: "${raw}" is not a number (e.g. 10000, 100k, 1m)`);
    const n = Math.round(Number(m[1]) * (m[2]?.toLowerCase() === 'k' ? 1e3 : m[2]?.toLowerCase() === 'm' ? 1e6 : 1));
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--sizes: "${raw}" must be a positive whole number`);
    return n;
  });
}
