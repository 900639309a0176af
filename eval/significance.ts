/*
 * Is a difference between two variants more than noise? SciFact train has 809 queries, most with a
 * single relevant document, so per-query nDCG is nearly binary and a 0.005 gap in the mean can be
 * luck. The paired randomization (sign-flip permutation) test is the one IR evaluation favours
 * (Smucker, Allan & Carterette 2007): it needs no normality assumption and uses the pairing.
 */

/** Result of {@link pairedRandomizationTest}. */
export interface PairedTest {
  /** Mean of `a[i] - b[i]`. */
  meanDiff: number;
  /** Two-sided p-value of "the mean difference is 0". */
  p: number;
  /** Number of paired observations. */
  n: number;
}

/** mulberry32: a tiny seeded PRNG, so a report's p-values are the same on every run. */
function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Two-sided paired randomization test on per-query scores: under the null hypothesis each
 * difference is as likely to have either sign, so random sign flips give the null distribution of
 * the mean difference. p = (hits + 1) / (trials + 1), never 0.
 *
 * @param trials sign-flip samples. @defaultValue 10000
 * @param seed PRNG seed. @defaultValue 1
 * @throws RangeError when the lists differ in length or are empty.
 */
export function pairedRandomizationTest(a: readonly number[], b: readonly number[], trials = 10_000, seed = 1): PairedTest {
  if (a.length !== b.length || a.length === 0) throw new RangeError(`need two equal, non-empty lists, got ${a.length} and ${b.length}`);
  const diffs = a.map((x, i) => x - (b[i] as number));
  const n = diffs.length;
  const observed = Math.abs(diffs.reduce((s, d) => s + d, 0));
  const random = mulberry32(seed);
  // Compare sums, not means, and allow for float noise: a flip that reproduces the observed
  // statistic exactly must count as "at least as extreme".
  const tolerance = 1e-12 * Math.max(1, observed);
  let hits = 0;
  for (let t = 0; t < trials; t++) {
    let sum = 0;
    for (const d of diffs) sum += random() < 0.5 ? -d : d;
    if (Math.abs(sum) >= observed - tolerance) hits += 1;
  }
  return { meanDiff: observed === 0 ? 0 : diffs.reduce((s, d) => s + d, 0) / n, p: (hits + 1) / (trials + 1), n };
}
