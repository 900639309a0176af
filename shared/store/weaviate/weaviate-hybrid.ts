/**
 * Reading a Weaviate hybrid result the way the port returns it. Weaviate (relativeScoreFusion)
 * explains each hit's score with one line per result set it came from:
 *
 *   Hybrid (Result Set keyword,bm25) Document <uuid>: original score 2.31, normalized score: 0.35
 *   Hybrid (Result Set vector,hybridVector) Document <uuid>: original score 0.83, normalized score: 0.5
 *
 * where "normalized score" already carries the side's weight (1 − alpha for keyword, alpha for
 * vector) and the vector side's original score is 1 − cosine distance, i.e. the cosine
 * similarity. From these the port's keywordScore/vectorScore/bm25/cosine are recovered; a side
 * without a line did not return the hit (0 and null, as on every store).
 */
import type { HybridHit, StoredChunkWithoutVector } from '../vector-store.ts';

const LINE = /Result Set '?([^)']*)'?\)\s*Document\s+\S+?:\s*original score\s+([^,]+),\s*normalized score:\s*(\S+)/g;

export interface ScoreComponents {
  keywordScore: number;
  vectorScore: number;
  bm25: number | null;
  cosine: number | null;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * The components of one hit's fused score from its explanation. Without one (an older server)
 * they stay 0 and null; the fused score still orders the hits.
 */
export function componentsFromExplain(explain: string | undefined, alpha: number): ScoreComponents {
  const out: ScoreComponents = { keywordScore: 0, vectorScore: 0, bm25: null, cosine: null };
  if (!explain) return out;
  for (const m of explain.matchAll(LINE)) {
    const set = (m[1] ?? '').toLowerCase();
    const original = Number(m[2]);
    const weighted = Number(m[3]);
    if (!Number.isFinite(weighted)) continue;
    if (set.includes('keyword') || set.includes('bm25')) {
      out.bm25 = Number.isFinite(original) ? original : null;
      out.keywordScore = alpha < 1 ? clamp01(weighted / (1 - alpha)) : 0;
    } else {
      out.cosine = Number.isFinite(original) ? original : null;
      out.vectorScore = alpha > 0 ? clamp01(weighted / alpha) : 0;
    }
  }
  return out;
}

/** One object of a hybrid answer, as far as this module needs it. */
export interface HybridObject {
  chunk: StoredChunkWithoutVector;
  score: number | undefined;
  explainScore: string | undefined;
  /** Present when the query asked for vectors. */
  vector?: Float32Array;
}

/**
 * Hits in the port's shape and order: fused score descending, ties by chunk id (the order
 * `relativeScoreFusion` gives on every other store).
 */
export function toHybridHits(objects: readonly HybridObject[], alpha: number): HybridHit[] {
  return objects
    .map((o) => {
      const c = componentsFromExplain(o.explainScore, alpha);
      const fused = o.score ?? alpha * c.vectorScore + (1 - alpha) * c.keywordScore;
      return { chunk: o.chunk, score: fused, ...c, ...(o.vector ? { vector: o.vector } : {}) };
    })
    .sort((a, b) => b.score - a.score || (a.chunk.chunk_id < b.chunk.chunk_id ? -1 : a.chunk.chunk_id > b.chunk.chunk_id ? 1 : 0));
}
