import { sha256Hex } from '../domain/index.ts';
import { PermanentError } from '../errors.ts';
import { createLru } from '../lru.ts';

/** One cache write: a key from {@link embeddingCacheKey} and its vector. */
export interface EmbeddingCacheEntry {
  key: string;
  vector: Float32Array;
}

/**
 * The embedding-cache port. Keys come from {@link embeddingCacheKey}; an adapter stores opaque
 * vectors and may forget any of them at any time (a miss only costs a re-embed).
 */
export interface EmbeddingCache {
  /**
   * Looks keys up; result `i` is the vector of `keys[i]`, or `undefined` on a miss.
   * @throws RetryableError when the backing service is unavailable (callers may treat it as a miss).
   */
  getMany(keys: readonly string[]): Promise<(Float32Array | undefined)[]>;
  /** Stores entries; a later entry with the same key wins. */
  setMany(entries: readonly EmbeddingCacheEntry[]): Promise<void>;
}

/**
 * Cache key of `text` embedded by `model`: `${model}:${sha256(text)}`. The text is hashed as
 * given (not normalised): normalisation is the embedder's business, and two texts that differ
 * by one space may embed differently for a real model.
 */
export function embeddingCacheKey(model: string, text: string): string {
  return `${model}:${sha256Hex(text)}`;
}

/** Options of the in-memory LRU cache. */
export interface LruEmbeddingCacheOptions {
  /**
   * Entries kept before the least recently used one is dropped. 10,000 vectors of 512 floats
   * is ~20 MB.
   * @defaultValue 10000
   */
  maxEntries?: number;
}

/**
 * Creates an in-process LRU embedding cache (tests, `quarry dev`, one-off CLI runs). Vectors
 * are copied in and out so a caller mutating a returned vector cannot corrupt the cache.
 *
 * @throws PermanentError `INVALID_CONFIG` when `maxEntries` is not a positive integer.
 */
export function createLruEmbeddingCache(options: LruEmbeddingCacheOptions = {}): EmbeddingCache & { readonly size: number } {
  const maxEntries = options.maxEntries ?? 10_000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new PermanentError('INVALID_CONFIG', `LRU cache maxEntries must be a positive integer, got ${maxEntries}`);
  }
  const entries = createLru<string, Float32Array>(maxEntries);
  return {
    get size() {
      return entries.size;
    },
    async getMany(keys) {
      return keys.map((key) => {
        const hit = entries.get(key);
        return hit === undefined ? undefined : new Float32Array(hit);
      });
    },
    async setMany(batch) {
      for (const { key, vector } of batch) entries.set(key, new Float32Array(vector));
    },
  };
}
