import { PermanentError } from '../errors.ts';
import type { Embedder } from './embedder.ts';
import { embeddingCacheKey, type EmbeddingCache } from './embedding-cache.ts';

export type { EmbeddingCache, EmbeddingCacheEntry } from './embedding-cache.ts';

/** Thresholds of {@link assertEmbeddingQuality}. */
export interface EmbeddingQualityOptions {
  /**
   * Smallest acceptable L2 norm. Adapters return unit vectors, so anything near zero means the
   * model produced no direction (empty text, a broken endpoint).
   * @defaultValue 1e-6
   */
  minNorm?: number;
  /**
   * A vector whose every component is below this in magnitude is rejected as "near zero".
   * @defaultValue 1e-9
   */
  zeroEpsilon?: number;
}

/**
 * Throws unless `actual === expected`.
 *
 * @throws PermanentError `DIMENSION_MISMATCH` naming both numbers (and `what`, when given).
 */
export function assertDimension(expected: number, actual: number, what?: string): void {
  if (expected !== actual) {
    const subject = what ? `${what}: ` : '';
    throw new PermanentError('DIMENSION_MISMATCH', `${subject}expected dimension ${expected}, got ${actual}`);
  }
}

/**
 * Rejects vectors no index can use: NaN or ±Infinity components, a norm below `minNorm`, or all
 * components below `zeroEpsilon` in magnitude. `index` is the position of the text in the
 * caller's list, so the error points at the input that produced the bad vector.
 *
 * @throws PermanentError `EMBEDDING_QUALITY` naming the text index and the reason.
 */
export function assertEmbeddingQuality(vector: Float32Array, index: number, options: EmbeddingQualityOptions = {}): void {
  const minNorm = options.minNorm ?? 1e-6;
  const zeroEpsilon = options.zeroEpsilon ?? 1e-9;
  let sum = 0;
  let maxAbs = 0;
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i] as number;
    if (!Number.isFinite(x)) {
      throw new PermanentError('EMBEDDING_QUALITY', `text ${index}: vector component ${i} is ${x}`);
    }
    sum += x * x;
    const abs = Math.abs(x);
    if (abs > maxAbs) maxAbs = abs;
  }
  if (maxAbs < zeroEpsilon) {
    throw new PermanentError('EMBEDDING_QUALITY', `text ${index}: near-zero vector (every |x| < ${zeroEpsilon})`);
  }
  const norm = Math.sqrt(sum);
  if (norm < minNorm) {
    throw new PermanentError('EMBEDDING_QUALITY', `text ${index}: vector norm ${norm} is below ${minNorm}`);
  }
}

/** Options of {@link embedWithCache}. */
export interface EmbedWithCacheOptions {
  /** Texts per `embedder.embed` call; the cache is written after every batch. */
  batchSize: number;
  /** Aborts between batches (and inside adapters that honour it). */
  signal?: AbortSignal;
  /** Quality thresholds applied to every vector, cached or fresh. */
  quality?: EmbeddingQualityOptions;
  /**
   * Called when the cache fails. The cache only saves work, so by default a failing cache is
   * treated as all misses (reads) or skipped (writes) rather than failing the job.
   * @defaultValue ignore the error
   */
  onCacheError?: (err: unknown) => void;
}

/** Vectors of {@link embedWithCacheStats} and where they came from. */
export interface EmbedWithCacheResult {
  /** One vector per input text, in input order (repeated texts share one instance). */
  vectors: Float32Array[];
  /** Distinct texts served from the cache. */
  cachedCount: number;
  /** Distinct texts sent to the embedder. */
  embeddedCount: number;
}

/**
 * Embeds `texts` in order, serving repeats from `cache` (keyed by {@link embeddingCacheKey})
 * and embedding each distinct missing text once, in batches of `batchSize`. Every vector is
 * checked for dimension and quality before it is cached or returned.
 *
 * @throws PermanentError `INVALID_CONFIG` when `batchSize` is not a positive integer.
 * @throws PermanentError `DIMENSION_MISMATCH` when the embedder returns the wrong count or length.
 * @throws PermanentError `EMBEDDING_QUALITY` for NaN/Inf, zero or near-zero vectors.
 * @throws whatever the embedder throws (`EMBEDDER_UNAVAILABLE` …) and the signal's abort reason.
 */
export async function embedWithCache(
  embedder: Embedder,
  texts: readonly string[],
  cache: EmbeddingCache,
  options: EmbedWithCacheOptions,
): Promise<Float32Array[]> {
  return (await embedWithCacheStats(embedder, texts, cache, options)).vectors;
}

/**
 * {@link embedWithCache}, also counting cache hits and embedder calls (for job results/metrics).
 *
 * @throws the same errors as {@link embedWithCache}.
 */
export async function embedWithCacheStats(
  embedder: Embedder,
  texts: readonly string[],
  cache: EmbeddingCache,
  options: EmbedWithCacheOptions,
): Promise<EmbedWithCacheResult> {
  const { batchSize, signal, quality } = options;
  const onCacheError = options.onCacheError ?? (() => undefined);
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new PermanentError('INVALID_CONFIG', `embed batchSize must be a positive integer, got ${batchSize}`);
  }
  if (texts.length === 0) return { vectors: [], cachedCount: 0, embeddedCount: 0 };
  signal?.throwIfAborted();

  // Distinct texts, each remembering the first input position (for error messages).
  const firstIndexOf = new Map<string, number>();
  texts.forEach((text, i) => {
    if (!firstIndexOf.has(text)) firstIndexOf.set(text, i);
  });
  const distinct = [...firstIndexOf.keys()];
  const keys = distinct.map((text) => embeddingCacheKey(embedder.model, text));
  const vectorOf = new Map<string, Float32Array>();

  let cached: (Float32Array | undefined)[] = [];
  try {
    cached = await cache.getMany(keys);
  } catch (err) {
    onCacheError(err);
  }
  const missing: string[] = [];
  distinct.forEach((text, i) => {
    const hit = cached[i];
    // A cached vector of another length is a stale entry (same model name, other settings):
    // re-embed rather than fail or return it.
    if (hit !== undefined && hit.length === embedder.dimension) {
      assertEmbeddingQuality(hit, firstIndexOf.get(text) as number, quality);
      vectorOf.set(text, hit);
    } else {
      missing.push(text);
    }
  });

  for (let start = 0; start < missing.length; start += batchSize) {
    signal?.throwIfAborted();
    const batch = missing.slice(start, start + batchSize);
    const vectors = await embedder.embed(batch, signal);
    if (vectors.length !== batch.length) {
      throw new PermanentError(
        'DIMENSION_MISMATCH',
        `embedder ${embedder.model} returned ${vectors.length} vectors for ${batch.length} texts`,
      );
    }
    const entries = batch.map((text, i) => {
      const vector = vectors[i] as Float32Array;
      const index = firstIndexOf.get(text) as number;
      assertDimension(embedder.dimension, vector.length, `text ${index}`);
      assertEmbeddingQuality(vector, index, quality);
      vectorOf.set(text, vector);
      return { key: embeddingCacheKey(embedder.model, text), vector };
    });
    try {
      await cache.setMany(entries);
    } catch (err) {
      onCacheError(err);
    }
  }
  return {
    vectors: texts.map((text) => vectorOf.get(text) as Float32Array),
    cachedCount: distinct.length - missing.length,
    embeddedCount: missing.length,
  };
}
