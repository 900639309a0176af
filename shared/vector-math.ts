/**
 * Vector arithmetic the ranking, the facets and chunk memory share: one cosine, so every score
 * that compares two embeddings means the same thing. Pure.
 */

/** Euclidean length. */
export function norm(v: ArrayLike<number>): number {
  return Math.sqrt(dot(v, v));
}

/** Cosine similarity; 0 when either vector is zero, missing or of another length. */
export function cosine(a: ArrayLike<number> | null, b: ArrayLike<number> | null): number {
  if (!a || !b || a.length !== b.length || a.length === 0) return 0;
  const d = dot(a, b);
  const n = norm(a) * norm(b);
  return n > 0 && Number.isFinite(d) ? d / n : 0;
}

/**
 * Dot product of two vectors of equal length, in four running sums: MMR's similarity work is
 * almost all here (up to 2·keep picks × 300 candidates × the dimension), and independent sums
 * let the CPU overlap the multiply-adds that one sum would chain (about twice as fast).
 */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const n = a.length;
  const end = n - (n % 4);
  for (let j = 0; j < end; j += 4) {
    s0 += (a[j] as number) * (b[j] as number);
    s1 += (a[j + 1] as number) * (b[j + 1] as number);
    s2 += (a[j + 2] as number) * (b[j + 2] as number);
    s3 += (a[j + 3] as number) * (b[j + 3] as number);
  }
  for (let j = end; j < n; j += 1) s0 += (a[j] as number) * (b[j] as number);
  return s0 + s1 + (s2 + s3);
}
