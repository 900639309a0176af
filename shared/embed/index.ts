/**
 * The Embedder port and its adapters (the weightless hash embedder; any OpenAI-compatible
 * /embeddings endpoint, whose module and the openai package are imported on the first call), the
 * embedding cache (in memory, in Redis), embedding with the cache, the embeddings.bin format.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: createEmbedder, createRedisEmbeddingCache, embedWithCache, pack/unpackVectors.
 */

import { PermanentError } from '../errors.ts';
import type { Embedder } from './embedder.ts';
import { createHashEmbedder } from './hash-embedder.ts';
import type { OpenAiEmbedderOptions } from './openai-embedder.ts';

export type { Embedder } from './embedder.ts';
export { l2Normalise } from './embedder.ts';
export { createHashEmbedder, normaliseForHashing, type HashEmbedderOptions } from './hash-embedder.ts';
// The adapter's factory is not re-exported: importing this index must not load the `openai`
// package (see lazyOpenAiEmbedder); import it from './openai-embedder.ts'.
export type { OpenAiEmbedderOptions } from './openai-embedder.ts';
export {
  createLruEmbeddingCache,
  embeddingCacheKey,
  type EmbeddingCache,
  type EmbeddingCacheEntry,
  type LruEmbeddingCacheOptions,
} from './embedding-cache.ts';
export {
  assertDimension,
  assertEmbeddingQuality,
  embedWithCache,
  embedWithCacheStats,
  type EmbedWithCacheOptions,
  type EmbedWithCacheResult,
  type EmbeddingQualityOptions,
} from './embed-texts.ts';

/** Embedder settings as they appear in Quarry's config. */
export interface EmbedderConfig {
  /** `hash` needs no weights and no server; `openai` speaks to any OpenAI-compatible endpoint. */
  provider: 'hash' | 'openai';
  /** Model name; required for `openai`, ignored by `hash` (its name encodes its settings). */
  model?: string;
  /** Vector length: the hash embedder's output size, or what the remote model must return. */
  dimension: number;
  /**
   * Base URL of the OpenAI-compatible API.
   * @defaultValue `https://api.openai.com/v1`
   */
  baseUrl?: string;
  /** Bearer token for the OpenAI-compatible API. */
  apiKey?: string;
  /**
   * Per-request timeout of the `openai` provider, in milliseconds.
   * @defaultValue 30000
   */
  timeoutMs?: number;
  /**
   * Send `dimensions` in `openai` requests so the model shortens its output. Only some models
   * accept it (vLLM rejects it for others), hence the name-based default.
   * @defaultValue true for model names starting with `text-embedding-3`, otherwise false
   */
  sendDimensions?: boolean;
}

/**
 * The OpenAI-compatible embedder, its module (and the `openai` package) imported on the first
 * `embed` call: every worker process builds an embedder, only the embed and agent workers use one,
 * and a stage worker's start-up should not wait for an HTTP client it never calls. Its option
 * checks (`INVALID_CONFIG`) then surface on that first call.
 */
function lazyOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  let adapter: Promise<Embedder> | null = null;
  return {
    model: options.model,
    dimension: options.dimension,
    async embed(texts, signal) {
      adapter ??= import('./openai-embedder.ts').then((m) => m.createOpenAiEmbedder(options));
      return (await adapter).embed(texts, signal);
    },
  };
}

/**
 * Builds the embedder named by `config.provider`.
 *
 * @throws PermanentError `INVALID_CONFIG` for an unknown provider, a missing `openai` model, or
 *   a bad dimension.
 */
export function createEmbedder(config: EmbedderConfig): Embedder {
  switch (config.provider) {
    case 'hash':
      return createHashEmbedder({ dimension: config.dimension });
    case 'openai': {
      if (!config.model) throw new PermanentError('INVALID_CONFIG', 'embedder provider "openai" needs a model name');
      return lazyOpenAiEmbedder({
        model: config.model,
        dimension: config.dimension,
        ...(config.baseUrl !== undefined ? { baseURL: config.baseUrl } : {}),
        ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
        ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
        sendDimensions: config.sendDimensions ?? config.model.startsWith('text-embedding-3'),
      });
    }
    default: {
      const provider: never = config.provider;
      throw new PermanentError('INVALID_CONFIG', `unknown embedder provider ${String(provider)}`);
    }
  }
}

export { createRedisEmbeddingCache } from './redis-cache.ts';
export { packVectors, unpackVectors } from './vector-file.ts';
