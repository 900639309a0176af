import { PermanentError } from '../errors.ts';
import { FACET_NAMES, type FacetName, type FacetValueVector } from '../store/index.ts';
import { cosine } from '../vector-math.ts';

/** Per facet, per value, a weight in [0, 1]; every facet is present, possibly empty. */
export type FacetWeights = Record<FacetName, Record<string, number>>;

/** Options of {@link facetWeights}. */
export interface FacetWeightOptions {
  /**
   * Values kept per facet (seed 000 §5.3 "top-M"), best first.
   * @defaultValue 2
   */
  topPerFacet?: number;
  /**
   * Cosine at or below which a value gets no weight at all; it is also the zero point of the
   * mapping to [0, 1]. Raise it for embedders whose unrelated texts still score high (many
   * learned models put unrelated sentences at 0.2–0.4).
   * @defaultValue 0
   */
  minCos?: number;
}

/**
 * Maps a cosine to a weight: `clamp((cos − minCos) / (1 − minCos), 0, 1)`. Linear, so ratios
 * between values survive; absolute, so a query unrelated to every value gets small weights
 * everywhere instead of a confident-looking 1 for the least bad one.
 */
export function cosineToWeight(cos: number, minCos = 0): number {
  if (!(cos > minCos)) return 0;
  return Math.min(1, (cos - minCos) / (1 - minCos));
}

/**
 * Soft metadata weights for a query (seed 000 §5.3): the cosine of the query vector to every
 * facet-value vector, the best `topPerFacet` values of each facet kept, each mapped to [0, 1]
 * by {@link cosineToWeight}. Values at or below `minCos` are left out; ties go to the smaller
 * value so the result is deterministic. Pure: no store, no clock.
 *
 * @example
 * facetWeights(q, rows) // { section: { eligibility: 0.77, definitions: 0.31 }, doc_type: { law: 0.82 }, jurisdiction: {}, lang: {} }
 * @throws PermanentError `INVALID_CONFIG` when `topPerFacet` is not a non-negative integer or
 *   `minCos` is not in [-1, 1).
 * @throws PermanentError `DIMENSION_MISMATCH` when a row's vector length differs from the query's.
 */
export function facetWeights(queryVector: ArrayLike<number>, rows: readonly FacetValueVector[], options: FacetWeightOptions = {}): FacetWeights {
  const top = options.topPerFacet ?? 2;
  const minCos = options.minCos ?? 0;
  if (!Number.isInteger(top) || top < 0) throw new PermanentError('INVALID_CONFIG', `topPerFacet must be a non-negative integer, got ${top}`);
  if (!(minCos >= -1 && minCos < 1)) throw new PermanentError('INVALID_CONFIG', `minCos must be in [-1, 1), got ${minCos}`);
  const scored = new Map<FacetName, { value: string; cos: number }[]>(FACET_NAMES.map((f) => [f, []]));
  for (const row of rows) {
    if (row.vector.length !== queryVector.length) {
      throw new PermanentError('DIMENSION_MISMATCH', `facet value ${row.facet}=${row.value}: expected dimension ${queryVector.length}, got ${row.vector.length}`);
    }
    const cos = cosine(queryVector, row.vector);
    if (cos > minCos) scored.get(row.facet)?.push({ value: row.value, cos });
  }
  const out = Object.fromEntries(FACET_NAMES.map((f) => [f, {}])) as FacetWeights;
  for (const [facet, list] of scored) {
    list.sort((a, b) => b.cos - a.cos || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    for (const { value, cos } of list.slice(0, top)) out[facet][value] = cosineToWeight(cos, minCos);
  }
  return out;
}
