import { PermanentError } from '../errors.ts';
import { cosine } from '../vector-math.ts';

/**
 * ChunkStats: what helped before (seed 000 §6). Pure math only — no Redis, no clock: every
 * function takes the time it is asked about. The Redis adapter's Lua scripts implement the same
 * formulas with the same operation order, so a stored record equals the fold of these functions
 * over the same outcomes (bit for bit for counts, histograms and the float32 centroid).
 */

/** One week in milliseconds. */
export const WEEK_MS = 7 * 24 * 3600 * 1000;
/** Shortest half-life allowed (seed 000 §6.2: 4–8 weeks). */
export const MIN_HALF_LIFE_WEEKS = 4;
/** Longest half-life allowed. */
export const MAX_HALF_LIFE_WEEKS = 8;
/** Default half-life, in ms. @defaultValue 6 weeks */
export const DEFAULT_HALF_LIFE_MS = 6 * WEEK_MS;
/** Entities kept per chunk (the most frequent). */
export const DEFAULT_ENTITY_CAP = 50;
/** Intents kept per chunk; planners have a handful, the cap only bounds bad input. */
export const DEFAULT_INTENT_CAP = 16;
/** A chunk is pruned only after this long without a win, whatever its utility. @defaultValue 13 weeks */
export const DEFAULT_PRUNE_IDLE_MS = 13 * WEEK_MS;

/** Per-chunk memory. Times are epoch milliseconds; field names are the stored hash fields. */
export interface ChunkStats {
  /** Validated answers this chunk helped (never decays). */
  useful_count: number;
  /** Time of the latest win. */
  last_useful_at: number;
  /** Decayed utility as of `utility_at`; its value at any later time is exact math (`utilityAt`). */
  decayed_utility: number;
  utility_at: number;
  /** intent → wins with that intent (capped to the most frequent). */
  intent_hist: Record<string, number>;
  /** entity → wins whose query named it (capped to the most frequent). */
  entity_hist: Record<string, number>;
  /** Running mean of the successful queries' embeddings; null before the first win. */
  query_centroid: Float32Array | null;
}

/** How stats are updated. */
export interface MemoryPolicy {
  /** Utility halves after this long. @defaultValue 6 weeks (4–8 allowed) */
  halfLifeMs: number;
  /** @defaultValue 50 */
  entityCap: number;
  /** @defaultValue 16 */
  intentCap: number;
}

/** One validated answer that cited a chunk (intent and entities are normalised when counted). */
export interface StatsOutcome {
  queryVector: Float32Array;
  intent: string;
  entities: readonly string[];
  /** When the answer was validated (epoch ms). */
  at: number;
}

/** When the weekly job drops a chunk's stats. */
export interface PruneRule {
  /** Utility (at the decay time) under which a chunk may be dropped; 0 drops nothing. */
  pruneBelow: number;
  /** …and only when its last win is at least this old. @defaultValue 13 weeks */
  pruneIdleMs: number;
}

/** What the ranker reads (seed 000 §6.3: `λ_mem · (utility + cos(q, centroid) + intent match)`). */
export interface MemoryFeatures {
  decayedUtility: number;
  /** Cosine of a query vector with the centroid; 0 without a centroid. @throws PermanentError DIMENSION_MISMATCH */
  centroidCos(queryVector: Float32Array): number;
  /** Share of this chunk's wins that had this intent, 0–1. */
  intentMatch(intent: string): number;
}

/**
 * Half-life in ms from weeks.
 * @throws RangeError outside 4–8 weeks.
 */
export function halfLifeFromWeeks(weeks: number): number {
  if (!(weeks >= MIN_HALF_LIFE_WEEKS && weeks <= MAX_HALF_LIFE_WEEKS)) {
    throw new RangeError(`memory half-life must be ${MIN_HALF_LIFE_WEEKS}–${MAX_HALF_LIFE_WEEKS} weeks, got ${weeks}`);
  }
  return Math.round(weeks * WEEK_MS);
}

/**
 * A complete, validated policy.
 * @throws RangeError for a half-life outside 4–8 weeks or a cap below 1.
 */
export function memoryPolicy(opts: Partial<MemoryPolicy> = {}): MemoryPolicy {
  const halfLifeMs = opts.halfLifeMs ?? DEFAULT_HALF_LIFE_MS;
  halfLifeFromWeeks(halfLifeMs / WEEK_MS);
  const entityCap = opts.entityCap ?? DEFAULT_ENTITY_CAP;
  const intentCap = opts.intentCap ?? DEFAULT_INTENT_CAP;
  for (const [name, cap] of [['entityCap', entityCap], ['intentCap', intentCap]] as const) {
    if (!Number.isInteger(cap) || cap < 1) throw new RangeError(`${name} must be a positive integer, got ${cap}`);
  }
  return { halfLifeMs, entityCap, intentCap };
}

/** 2^(−dt/halfLife); never above 1, so a clock behind the writer's does not grow utility. */
export function decayFactor(dtMs: number, halfLifeMs: number): number {
  return dtMs <= 0 ? 1 : Math.pow(2, -dtMs / halfLifeMs);
}

/** Utility at `now`: `u · 2^(−(now − utility_at)/halfLife)`. */
export function utilityAt(stats: Pick<ChunkStats, 'decayed_utility' | 'utility_at'>, now: number, halfLifeMs: number): number {
  return stats.decayed_utility * decayFactor(now - stats.utility_at, halfLifeMs);
}

// Lone surrogates would not survive UTF-8 (Redis, cjson); they become U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const wellFormed = (s: string) => s.replace(LONE_SURROGATE, '\uFFFD');

/** Intent as counted: trimmed, lower-case. */
export function normaliseIntent(intent: string): string {
  return wellFormed(intent).normalize('NFC').trim().toLowerCase();
}

/** Entity as counted: NFC, whitespace folded, lower-case. Spacing variants stay distinct on purpose (they are what users typed). */
export function normaliseEntity(entity: string): string {
  return wellFormed(entity).normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The keys an outcome adds to the histograms: normalised, deduplicated, empty ones dropped. */
export function outcomeKeys(intent: string, entities: readonly string[]): { intent: string; entities: string[] } {
  return { intent: normaliseIntent(intent), entities: [...new Set(entities.map(normaliseEntity))].filter(Boolean) };
}

/** Code-point order (= UTF-8 byte order), which Lua can reproduce; `<` on JS strings compares UTF-16 units. */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const d = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
}

/** A count from a histogram; own keys only, so `constructor` or `__proto__` are ordinary entities. */
export function histCount(hist: Readonly<Record<string, number>>, key: string): number {
  return Object.hasOwn(hist, key) ? (hist[key] ?? 0) : 0;
}

/**
 * Keeps the `cap` most frequent keys. Ties go to keys of the current outcome (fresh evidence
 * displaces equally-counted old entries), then to code-point order, so the result is
 * deterministic and identical to the Lua script's.
 */
export function capHist(hist: Readonly<Record<string, number>>, cap: number, favoured: ReadonlySet<string>): Record<string, number> {
  const entries = Object.entries(hist);
  if (entries.length <= cap) return Object.fromEntries(entries);
  entries.sort(([a, ca], [b, cb]) => {
    if (ca !== cb) return cb - ca;
    const fa = favoured.has(a);
    if (fa !== favoured.has(b)) return fa ? -1 : 1;
    return compareCodePoints(a, b);
  });
  return Object.fromEntries(entries.slice(0, cap));
}

function bump(hist: Readonly<Record<string, number>>, keys: ReadonlySet<string>, cap: number): Record<string, number> {
  const next = new Map(Object.entries(hist));
  for (const k of keys) next.set(k, (next.get(k) ?? 0) + 1);
  return capHist(Object.fromEntries(next), cap, keys);
}

/**
 * Stats after one more win. Utility is brought to T = max(utility_at, at) and the win added at
 * its own time, so outcomes arriving out of order sum to the same value. The centroid is the
 * count-weighted running mean c' = c + (q − c)/n, rounded to float32 per component.
 * @throws PermanentError DIMENSION_MISMATCH when the query vector's size differs from the centroid's.
 */
export function applyOutcome(stats: ChunkStats | null, outcome: StatsOutcome, policy: MemoryPolicy): ChunkStats {
  const q = outcome.queryVector;
  const prev = stats?.query_centroid ?? null;
  if (prev && prev.length !== q.length) {
    throw new PermanentError('DIMENSION_MISMATCH', `stored centroid has ${prev.length} dimensions, query vector ${q.length}`);
  }
  const n = (prev ? (stats?.useful_count ?? 0) : 0) + 1;
  const centroid = new Float32Array(q.length);
  // Same operation order as the Lua script: c + (q − c) / n in doubles, then one float32 rounding.
  for (let i = 0; i < q.length; i++) {
    const c = prev ? (prev[i] ?? 0) : 0;
    centroid[i] = c + ((q[i] ?? 0) - c) / n;
  }
  const at = outcome.at;
  const since = stats?.utility_at ?? at;
  const t = Math.max(since, at);
  const before = stats ? stats.decayed_utility * decayFactor(t - since, policy.halfLifeMs) : 0;
  const keys = outcomeKeys(outcome.intent, outcome.entities);
  return {
    useful_count: (stats?.useful_count ?? 0) + 1,
    last_useful_at: Math.max(stats?.last_useful_at ?? at, at),
    decayed_utility: before + decayFactor(t - at, policy.halfLifeMs),
    utility_at: t,
    intent_hist: bump(stats?.intent_hist ?? {}, new Set([keys.intent]), policy.intentCap),
    entity_hist: bump(stats?.entity_hist ?? {}, new Set(keys.entities), policy.entityCap),
    query_centroid: centroid,
  };
}

/** Utility materialised at `now` (unchanged when `now` is not after `utility_at`): the value at any later time stays the same. */
export function decayTo(stats: ChunkStats, now: number, halfLifeMs: number): ChunkStats {
  if (now <= stats.utility_at) return stats;
  return { ...stats, decayed_utility: utilityAt(stats, now, halfLifeMs), utility_at: now };
}

/** Low utility alone is not enough: the chunk must also have had no win for `pruneIdleMs`. */
export function shouldPrune(stats: ChunkStats, now: number, halfLifeMs: number, rule: PruneRule): boolean {
  return utilityAt(stats, now, halfLifeMs) < rule.pruneBelow && now - stats.last_useful_at >= rule.pruneIdleMs;
}

/** What the weekly job does to one chunk: drop it, materialise its utility at `now`, or leave it. */
export function decayAndPrune(
  stats: ChunkStats,
  now: number,
  halfLifeMs: number,
  rule: PruneRule,
): { stats: ChunkStats | null; updated: boolean; pruned: boolean } {
  if (shouldPrune(stats, now, halfLifeMs, rule)) return { stats: null, updated: false, pruned: true };
  const next = decayTo(stats, now, halfLifeMs);
  return { stats: next, updated: next !== stats, pruned: false };
}

/**
 * The query's cosine to a centroid; 0 when either is all zeros.
 * @throws PermanentError DIMENSION_MISMATCH when their sizes differ (a query of another embedder
 *   must not read as merely unrelated)
 */
export function centroidCosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new PermanentError('DIMENSION_MISMATCH', `vectors of ${a.length} and ${b.length} dimensions`);
  return cosine(a, b);
}

/**
 * The ranker's view of a chunk at `now`.
 * @throws PermanentError DIMENSION_MISMATCH from `centroidCos` when the query's size differs from the centroid's
 * (the embedder changed without resetting memory: loud, because every centroid would be meaningless).
 */
export function memoryFeatures(stats: ChunkStats, now: number, halfLifeMs: number): MemoryFeatures {
  const centroid = stats.query_centroid;
  return {
    decayedUtility: utilityAt(stats, now, halfLifeMs),
    centroidCos: (q) => (centroid ? centroidCosine(q, centroid) : 0),
    // Each win counts exactly one intent, so useful_count is the total even after capping.
    intentMatch: (intent) => (stats.useful_count > 0 ? histCount(stats.intent_hist, normaliseIntent(intent)) / stats.useful_count : 0),
  };
}
