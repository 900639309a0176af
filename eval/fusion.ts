/*
 * Offline score fusions, for comparing fusion rules on the same two candidate lists without
 * touching the store. `rsf` is the store's own relativeScoreFusion (imported, not copied), so a
 * study's alpha-0.5 rsf row must equal the harness's `hybrid` row — a built-in consistency check.
 */
import { relativeScoreFusion, type ScoredId } from '../shared/store/fusion.ts';

export type { ScoredId } from '../shared/store/fusion.ts';

/** A fusion rule: two scored lists (higher is better) and the vector weight → ids best first. */
export type Fusion = (keyword: readonly ScoredId[], vector: readonly ScoredId[], alpha: number, limit: number) => string[];

function ranked(scores: Map<string, number>, limit: number): string[] {
  return [...scores]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([id]) => id);
}

function checkAlpha(alpha: number): void {
  if (!(alpha >= 0 && alpha <= 1)) throw new RangeError(`alpha must be in [0, 1], got ${alpha}`);
}

/** The store's relativeScoreFusion (min-max per list, missing side = 0). */
export const rsf: Fusion = (keyword, vector, alpha, limit) => relativeScoreFusion(keyword, vector, alpha, limit).map((f) => f.id);

/**
 * Weighted reciprocal rank fusion (Cormack et al. 2009): `(1-alpha)/(k+rank_kw) + alpha/(k+rank_vec)`,
 * ranks from 1, a side that missed the id contributes 0. Uses ranks only, so it is immune to how
 * either side's scores are distributed.
 *
 * @param k rank constant. @defaultValue 60
 * @throws RangeError when `alpha` is outside [0, 1].
 */
export function rrfWith(k = 60): Fusion {
  return (keyword, vector, alpha, limit) => {
    checkAlpha(alpha);
    const scores = new Map<string, number>();
    const add = (list: readonly ScoredId[], weight: number): void => {
      if (weight === 0) return;
      [...list]
        .sort((a, b) => b.score - a.score)
        .forEach(({ id }, i) => scores.set(id, (scores.get(id) ?? 0) + weight / (k + i + 1)));
    };
    add(keyword, 1 - alpha);
    add(vector, alpha);
    return ranked(scores, limit);
  };
}

/**
 * Distribution-based score fusion (Qdrant's DBSF, as its client computes it): each list is
 * scaled by its own mean ± 3 sample standard deviations instead of by its min and max, so one
 * outlier at the top or a long flat tail does not decide the scale. No clipping: clipping would
 * tie the best hits of a long list at 1 and lose their order. A side that missed the id
 * contributes 0; a list of one hit, or of equal scores, scales to 1 (as relativeScoreFusion does).
 *
 * @throws RangeError when `alpha` is outside [0, 1].
 */
export const dbsf: Fusion = (keyword, vector, alpha, limit) => {
  checkAlpha(alpha);
  const scores = new Map<string, number>();
  const add = (list: readonly ScoredId[], weight: number): void => {
    if (weight === 0 || list.length === 0) return;
    const values = list.map((h) => h.score);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const variance = values.length > 1 ? values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1) : 0;
    const sd = Math.sqrt(variance);
    for (const { id, score } of list) {
      const norm = sd === 0 ? 1 : (score - (mean - 3 * sd)) / (6 * sd);
      scores.set(id, (scores.get(id) ?? 0) + weight * norm);
    }
  };
  add(keyword, 1 - alpha);
  add(vector, alpha);
  return ranked(scores, limit);
};

/** The fusion rules a study compares, by name. */
export const FUSIONS: Readonly<Record<string, Fusion>> = { rsf, dbsf, rrf: rrfWith(60) };
