/**
 * Soft nudges on top of the content score (seed 000 §5.4, §6.3): a metadata prior from facet
 * weights, a memory bonus from what helped before, and an exploration share so chunks without
 * memory keep surfacing. Every nudge is capped so it can reorder close candidates but never lift
 * an irrelevant one over a clearly relevant one.
 *
 * Scale: the content score is in [0, 1] (see `rank.ts`). With the default caps a candidate can
 * gain less than 0.15 (prior) + 0.2 (memory) = 0.35, so it overtakes only candidates whose
 * content score is less than 0.35 higher; a strong match (content ≈ 0.9) is never passed by a
 * weak one (content < 0.55) however well its metadata or history fit.
 *
 * The caps are soft ({@link softCap}): `cap · tanh(raw / cap)`. A hard `min(cap, raw)` would make
 * every candidate that matches two facets well equal (seed weights: 0.2 · (0.77 + 0.82) = 0.32,
 * already over the cap) and throw the facet-vector signal away; the soft cap stays ≈ raw for
 * small nudges, keeps "matches more" above "matches less", and never reaches the cap.
 */

/**
 * `cap · tanh(raw / cap)`: ≈ `raw` while raw is small against `cap` (0.5·cap → 0.46·cap),
 * strictly increasing, always below `cap`. 0 for a zero cap or non-positive raw.
 */
export function softCap(raw: number, cap: number): number {
  if (!(raw > 0) || !(cap > 0)) return 0;
  return cap * Math.tanh(raw / cap);
}

/** Facet → value → weight in [0, 1], e.g. `{ section: { eligibility: 0.77 }, doc_type: { law: 0.82 } }`. */
export type FacetWeights = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** A candidate's value per facet (section, doc_type, jurisdiction, lang …); missing means unknown. */
export type FacetValues = Readonly<Record<string, string | null | undefined>>;

/** A random number in [0, 1); injected so exploration is reproducible. */
export type Rng = () => number;

/** Options of {@link metadataPrior}. */
export interface PriorOptions {
  /**
   * λ_meta: multiplies the sum of matching weights (seed 000 §7 `facets.soft_vector.weight`).
   * @defaultValue 0.2
   */
  lambda?: number;
  /**
   * Bound of the prior (soft, see {@link softCap}), on the content-score scale [0, 1]. Four
   * facets at weight 1 would give λ·4 = 0.8 — enough to override relevance — hence the cap.
   * @defaultValue 0.15
   */
  maxPrior?: number;
}

/** Defaults of {@link PriorOptions}. */
export const DEFAULT_PRIOR = { lambda: 0.2, maxPrior: 0.15 } as const;

/** One facet that matched, for traces. */
export interface PriorContribution {
  facet: string;
  value: string;
  weight: number;
}

/** Facet values compare NFKC, trimmed and case-folded: "Law", "law " and "ＬＡＷ" are one value. */
export function facetKey(value: string): string {
  return value.normalize('NFKC').trim().toLowerCase();
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

/**
 * `softCap(λ_meta · Σ_facet w(facet = candidate's value), maxPrior)`, weights clamped to [0, 1]
 * (NaN counts as 0). A facet the candidate has no value for, or a value without a weight,
 * contributes nothing: the prior only ever lifts, never punishes.
 *
 * @throws RangeError when `lambda` or `maxPrior` is negative or not finite.
 */
export function metadataPrior(weights: FacetWeights, values: FacetValues, options: PriorOptions = {}): { prior: number; contributions: PriorContribution[] } {
  const lambda = options.lambda ?? DEFAULT_PRIOR.lambda;
  const maxPrior = options.maxPrior ?? DEFAULT_PRIOR.maxPrior;
  if (!(lambda >= 0) || !Number.isFinite(lambda) || !(maxPrior >= 0) || !Number.isFinite(maxPrior)) {
    throw new RangeError(`metadataPrior: lambda and maxPrior must be finite and ≥ 0, got ${lambda}, ${maxPrior}`);
  }
  const contributions: PriorContribution[] = [];
  let sum = 0;
  for (const facet of Object.keys(weights).sort()) {
    const value = values[facet];
    if (value === null || value === undefined || value === '') continue;
    const key = facetKey(value);
    const table = weights[facet] ?? {};
    let weight = 0;
    for (const [v, w] of Object.entries(table)) if (facetKey(v) === key) weight = Math.max(weight, clamp01(w));
    if (weight > 0) {
      contributions.push({ facet, value, weight });
      sum += weight;
    }
  }
  return { prior: softCap(lambda * sum, maxPrior), contributions };
}

/** Inputs of {@link memoryBonus}, each expected in [0, 1] (clamped). */
export interface MemorySignal {
  /** Squashed decayed utility (see {@link squashUtility}). */
  utility: number;
  /** Cosine of the query with the chunk's query centroid; negatives count as 0. */
  centroidCos: number;
  /** Share of the chunk's past wins that had the current intent. */
  intentMatch: number;
}

/** Options of {@link memoryBonus}. */
export interface MemoryBonusOptions {
  /**
   * λ_mem (seed 000 §7 `memory.weight`).
   * @defaultValue 0.15
   */
  lambda?: number;
  /**
   * Bound of the bonus (soft, see {@link softCap}), on the content-score scale. Larger than
   * the prior's cap because a validated
   * answer is stronger evidence than a label's similarity; small enough that a chunk which helped
   * before cannot displace a clearly better match for this question.
   * @defaultValue 0.2
   */
  cap?: number;
}

/** Defaults of {@link MemoryBonusOptions}. */
export const DEFAULT_MEMORY = { lambda: 0.15, cap: 0.2 } as const;

/**
 * Maps a decayed utility (a count of recent wins, unbounded) to [0, 1): `u / (u + halfSaturation)`.
 * One win at the default half-saturation gives 0.5, three give 0.75.
 *
 * @defaultValue halfSaturation = 1
 */
export function squashUtility(decayedUtility: number, halfSaturation = 1): number {
  if (!(decayedUtility > 0) || !Number.isFinite(decayedUtility)) return 0;
  return decayedUtility / (decayedUtility + Math.max(1e-9, halfSaturation));
}

/**
 * `softCap(λ_mem · (utility + max(0, centroidCos) + intentMatch), cap)`, inputs clamped to [0, 1].
 *
 * @throws RangeError when `lambda` or `cap` is negative or not finite.
 */
export function memoryBonus(signal: MemorySignal, options: MemoryBonusOptions = {}): number {
  const lambda = options.lambda ?? DEFAULT_MEMORY.lambda;
  const cap = options.cap ?? DEFAULT_MEMORY.cap;
  if (!(lambda >= 0) || !Number.isFinite(lambda) || !(cap >= 0) || !Number.isFinite(cap)) {
    throw new RangeError(`memoryBonus: lambda and cap must be finite and ≥ 0, got ${lambda}, ${cap}`);
  }
  return softCap(lambda * (clamp01(signal.utility) + clamp01(signal.centroidCos) + clamp01(signal.intentMatch)), cap);
}

/** The number of slots `ratio` reserves out of `keep`, rounded up (0.15 of 30 → 5). */
export function explorationSlots(keep: number, ratio: number): number {
  if (!(ratio > 0) || keep <= 0) return 0;
  // The epsilon keeps 0.15 · 20 = 3.0000000000000004 at 3.
  return Math.min(keep, Math.ceil(Math.min(1, ratio) * keep - 1e-9));
}

/** Options of {@link applyExploration}. */
export interface ExplorationOptions {
  /**
   * How many of the ranked items are kept.
   * @defaultValue all of them
   */
  keep?: number;
  /**
   * Explorers are drawn from the best `poolFactor × needed` memory-less items below the cut, so
   * exploration stays among plausible candidates.
   * @defaultValue 3
   */
  poolFactor?: number;
}

/**
 * Keeps the best `keep` of `ranked` (best first) such that at least `explorationSlots(keep,
 * ratio)` of them have no memory (seed 000 §6.3: "exploration ratio so new chunks can surface").
 * When the top `keep` already has enough memory-less items nothing changes; otherwise the
 * lowest-placed items *with* memory are replaced, in place, by memory-less items drawn with
 * `rng` from the pool below the cut. Deterministic for a deterministic `rng`.
 *
 * @returns the kept items in order and the indices (into `ranked`) of the items drawn in.
 */
export function applyExploration<T extends { hasMemory: boolean }>(ranked: readonly T[], ratio: number, rng: Rng, options: ExplorationOptions = {}): { kept: T[]; explored: number[] } {
  const keep = Math.min(ranked.length, Math.max(0, Math.floor(options.keep ?? ranked.length)));
  const slots = explorationSlots(keep, ratio);
  const keptIdx = Array.from({ length: keep }, (_, i) => i);
  const have = keptIdx.filter((i) => !(ranked[i] as T).hasMemory).length;
  let need = slots - have;
  if (need <= 0) return { kept: keptIdx.map((i) => ranked[i] as T), explored: [] };
  const pool: number[] = [];
  for (let i = keep; i < ranked.length && pool.length < need * (options.poolFactor ?? 3); i += 1) {
    if (!(ranked[i] as T).hasMemory) pool.push(i);
  }
  const explored: number[] = [];
  // Replace from the bottom: the best-placed items keep their places.
  for (let slot = keep - 1; slot >= 0 && need > 0 && pool.length > 0; slot -= 1) {
    if (!(ranked[keptIdx[slot] as number] as T).hasMemory) continue;
    const pick = Math.min(pool.length - 1, Math.floor(clamp01(rng()) * pool.length));
    const [drawn] = pool.splice(pick, 1);
    keptIdx[slot] = drawn as number;
    explored.push(drawn as number);
    need -= 1;
  }
  return { kept: keptIdx.map((i) => ranked[i] as T), explored };
}

/**
 * A seeded pseudo-random generator (mulberry32): the same seed gives the same sequence, so a
 * run's exploration can be replayed from its trace (seed it from the run id).
 */
export function createSeededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
