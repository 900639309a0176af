/** One hit of one search side: an id and its raw score, higher is better (BM25, cosine similarity). */
export interface ScoredId {
  id: string;
  score: number;
}

/** A fused hit: the final score and each side's normalised contribution (0 when the side missed it). */
export interface FusedScore {
  id: string;
  /** `alpha * vectorScore + (1 - alpha) * keywordScore`. */
  score: number;
  /** Keyword score min-max normalised over the keyword list, in [0, 1]; 0 when absent. */
  keywordScore: number;
  /** Vector score min-max normalised over the vector list, in [0, 1]; 0 when absent. */
  vectorScore: number;
}

/**
 * Min-max normalises `scores` to [0, 1] over the list itself. A list whose scores are all equal
 * (including a single score) normalises to 1: the one hit a side found is its best hit.
 * Non-finite scores are treated as the list minimum so one bad value cannot poison the rest.
 */
export function minMaxNormalise(scores: readonly number[]): number[] {
  const finite = scores.filter(Number.isFinite);
  if (finite.length === 0) return scores.map(() => 0);
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  const span = max - min;
  return scores.map((s) => (!Number.isFinite(s) ? 0 : span === 0 ? 1 : (s - min) / span));
}

function normalisedById(hits: readonly ScoredId[]): Map<string, number> {
  // An id listed twice keeps its best score: sides are expected to be unique, but be safe.
  const best = new Map<string, number>();
  for (const { id, score } of hits) {
    const prev = best.get(id);
    if (prev === undefined || score > prev) best.set(id, score);
  }
  const ids = [...best.keys()];
  const norm = minMaxNormalise(ids.map((id) => best.get(id) as number));
  return new Map(ids.map((id, i) => [id, norm[i] as number]));
}

/**
 * Weaviate's relativeScoreFusion: each side is min-max normalised over its own result list, a
 * hit missing from a side scores 0 there, and the final score is
 * `alpha * vector + (1 - alpha) * keyword`. Ties are broken by id so equal inputs always give
 * the same order. A side with weight 0 (`alpha` 0 or 1) is ignored entirely, as in Weaviate
 * where such a hybrid is a pure keyword or pure vector search: its own hits are not added.
 *
 * @param limit keep only the best `limit` hits.
 * @defaultValue limit = all hits
 * @throws RangeError when `alpha` is outside [0, 1].
 */
export function relativeScoreFusion(
  keyword: readonly ScoredId[],
  vector: readonly ScoredId[],
  alpha: number,
  limit = Number.POSITIVE_INFINITY,
): FusedScore[] {
  if (!(alpha >= 0 && alpha <= 1)) throw new RangeError(`alpha must be in [0, 1], got ${alpha}`);
  const kw = alpha < 1 ? normalisedById(keyword) : new Map<string, number>();
  const vec = alpha > 0 ? normalisedById(vector) : new Map<string, number>();
  const ids = new Set([...kw.keys(), ...vec.keys()]);
  const fused: FusedScore[] = [];
  for (const id of ids) {
    const keywordScore = kw.get(id) ?? 0;
    const vectorScore = vec.get(id) ?? 0;
    fused.push({ id, score: alpha * vectorScore + (1 - alpha) * keywordScore, keywordScore, vectorScore });
  }
  fused.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return Number.isFinite(limit) ? fused.slice(0, Math.max(0, limit)) : fused;
}
