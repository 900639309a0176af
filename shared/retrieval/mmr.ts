/**
 * Maximal Marginal Relevance (Carbonell & Goldstein, 1998) on embeddings: pick, one at a time,
 * the candidate with the best
 *
 *     mmr(d) = λ · relevance(d) − (1 − λ) · max_{s ∈ picked} cos(d, s)
 *
 * λ is the RELEVANCE weight: λ = 1 is plain ranking by relevance, λ = 0 pure diversity. The
 * seed's `rerank.mmr_lambda: 0.4` is read as the diversity share (1 − λ = 0.4), hence the
 * default λ = 0.6: a near-duplicate (cos ≈ 0.95) pays 0.38, so it stays above a distinct
 * candidate only if it is ≥ 0.63 more relevant; an unrelated passage (cos ≈ 0.1) pays 0.04.
 * Relevance should be on a [0, 1]-like scale so the two terms compare (rank.ts passes its final
 * score, content in [0, 1] plus capped nudges).
 */
import { dot, norm } from '../vector-math.ts';

/** Default λ of {@link mmrSelect}: relevance weight in the standard form. */
export const DEFAULT_MMR_LAMBDA = 0.6;

/** A candidate for {@link mmrSelect}. */
export interface MmrItem {
  relevance: number;
  /** Embedding; null counts as similar to nothing (no penalty, no diversification). */
  vector: Float32Array | readonly number[] | null;
  /**
   * The item's group (rank.ts: its document). Two items of one group are charged classic MMR
   * whatever `similarityFloor` says: a document's own passages repeat one another (overlapping
   * chunks, running text on one subject), while passages of two documents on the question's
   * topic are two pieces of evidence.
   */
  group?: string;
}

/** One pick, in pick order. */
export interface MmrPick {
  /** Index into the input. */
  index: number;
  relevance: number;
  /** Highest cosine to an earlier pick (0 for the first pick). */
  maxSimilarity: number;
  /** The redundancy penalty paid: `(1 − λ) ·` the highest {@link redundancy} to an earlier pick. */
  penalty: number;
  /** `λ · relevance − penalty`. */
  score: number;
}

/** Options of {@link mmrSelect}. */
export interface MmrOptions {
  /**
   * Relevance weight λ in [0, 1].
   * @defaultValue 0.6
   */
  lambda?: number;
  /**
   * How many to pick.
   * @defaultValue all items
   */
  k?: number;
  /**
   * Cosine at or below which two items of different groups (or without one) count as not
   * redundant at all; above it the penalty grows linearly to the full `(1 − λ)` at cosine 1 (see
   * {@link redundancy}). 0 is classic MMR.
   * @defaultValue 0
   */
  similarityFloor?: number;
}

/**
 * The redundancy MMR charges for a best similarity `sim` to the picks: `max(0, (sim − floor) /
 * (1 − floor))`, in [0, 1]. With floor 0 it is the classic `max(0, sim)`. A floor lets MMR drop
 * copies and near-copies without charging passages that merely share the question's topic —
 * those are usually the other relevant ones (on SciFact-style claims, classic MMR at λ 0.6 cost
 * the agent 0.011 nDCG@10 against the same candidates undiversified).
 * @throws RangeError when `floor` is outside [0, 1).
 */
export function redundancy(sim: number, floor = 0): number {
  if (!(floor >= 0 && floor < 1)) throw new RangeError(`mmr similarity floor must be in [0, 1), got ${floor}`);
  return Math.max(0, (sim - floor) / (1 - floor));
}


/**
 * Greedy MMR selection. Returns the picks in order with the penalty each paid. Negative cosines
 * give no bonus: being opposite to a pick is not worth more than being unrelated. Ties go to the
 * lower index, so the result is deterministic.
 *
 * Lazy evaluation (as in CELF): a candidate's best similarity to the picks only grows, so a score
 * computed against fewer picks is an upper bound of its current score. Each round takes the best
 * bound; only if that candidate has not been compared with every pick yet is it brought up to
 * date and the round looks again. Candidates that never come near the top are never compared, so
 * most of the O(k·n·d) similarity work is skipped; the picks, their order and every number are
 * exactly those of the eager algorithm (every similarity is the same computation either way).
 *
 * @throws RangeError when `lambda` is outside [0, 1] or `similarityFloor` outside [0, 1).
 */
export function mmrSelect(items: readonly MmrItem[], options: MmrOptions = {}): MmrPick[] {
  const lambda = options.lambda ?? DEFAULT_MMR_LAMBDA;
  if (!(lambda >= 0 && lambda <= 1)) throw new RangeError(`mmr lambda must be in [0, 1], got ${lambda}`);
  const k = Math.min(items.length, Math.max(0, Math.floor(options.k ?? items.length)));
  // Typed arrays keep the inner loop fast; a plain array is copied into float64 (same values).
  const vectors = items.map((it) => (it.vector instanceof Float32Array || !it.vector ? it.vector : Float64Array.from(it.vector)));
  const norms = vectors.map((v) => (v ? norm(v) : 0));
  const relevance = items.map((it) => (Number.isFinite(it.relevance) ? it.relevance : 0));
  const maxSim = new Float64Array(items.length);
  /** Highest redundancy to the picks compared so far (with the floor of each pair). */
  const maxRed = new Float64Array(items.length);
  /** How many picks (in pick order) each candidate's maxSim already accounts for. */
  const compared = new Int32Array(items.length);
  const taken = new Uint8Array(items.length);
  const order: number[] = [];
  const picks: MmrPick[] = [];
  const floor = options.similarityFloor ?? 0;
  // Fails fast on a bad floor even when no pair is ever compared.
  redundancy(0, floor);
  // maxRed only grows with more picks, so a score against fewer picks stays an upper bound (the lazy rounds below).
  const bound = (i: number) => lambda * (relevance[i] as number) - (1 - lambda) * (maxRed[i] as number);

  const catchUp = (i: number) => {
    const v = vectors[i];
    const n = norms[i] as number;
    for (let p = compared[i] as number; p < order.length; p += 1) {
      const pi = order[p] as number;
      const pv = vectors[pi];
      const pn = norms[pi] as number;
      if (!v || n === 0 || !pv || pn === 0 || v.length !== pv.length) continue;
      const c = dot(v, pv) / (n * pn);
      if (c > (maxSim[i] as number)) maxSim[i] = c;
      const g = items[i]?.group;
      const r = redundancy(c, g !== undefined && g === items[pi]?.group ? 0 : floor);
      if (r > (maxRed[i] as number)) maxRed[i] = r;
    }
    compared[i] = order.length;
  };

  while (picks.length < k) {
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < items.length; i += 1) {
      if (taken[i]) continue;
      const s = bound(i);
      if (s > bestScore) {
        bestScore = s;
        best = i;
      }
    }
    if (best < 0) break;
    if ((compared[best] as number) < order.length) {
      catchUp(best);
      continue;
    }
    taken[best] = 1;
    order.push(best);
    const sim = maxSim[best] as number;
    const penalty = (1 - lambda) * (maxRed[best] as number);
    picks.push({ index: best, relevance: (items[best] as MmrItem).relevance, maxSimilarity: sim, penalty, score: bestScore });
  }
  return picks;
}
