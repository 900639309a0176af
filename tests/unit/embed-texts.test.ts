import { describe, expect, it } from 'vitest';
import { chunkIdFor, sha256Hex, type EnrichedChunk } from '../../shared/domain/index.ts';
import { PermanentError, RetryableError } from '../../shared/errors.ts';
import type { Embedder } from '../../shared/embed/embedder.ts';
import {
  assertDimension, assertEmbeddingQuality, embedWithCache, embedWithCacheStats,
} from '../../shared/embed/embed-texts.ts';
import { createLruEmbeddingCache, embeddingCacheKey, type EmbeddingCache } from '../../shared/embed/embedding-cache.ts';
import { createHashEmbedder } from '../../shared/embed/hash-embedder.ts';
import { embedStage } from '../../workers/embed/embed.stage.ts';

/** Wraps an embedder to record every batch it is asked for. */
function spy(inner: Embedder): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    model: inner.model,
    dimension: inner.dimension,
    calls,
    embed: (texts, signal) => {
      calls.push(texts);
      return inner.embed(texts, signal);
    },
  };
}

/** An embedder returning a fixed vector per text. */
function fixed(vectors: Record<string, number[]>, dimension = 3): Embedder {
  return {
    model: 'fixed',
    dimension,
    embed: async (texts) => texts.map((t) => Float32Array.from(vectors[t] ?? [1, 0, 0])),
  };
}

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as PermanentError).code;
  }
  return 'none';
}

describe('cache key and LRU cache', () => {
  it('keys are model:sha256(text)', () => {
    expect(embeddingCacheKey('m', 'hello')).toBe(`m:${sha256Hex('hello')}`);
  });

  it('evicts the least recently used entry and copies vectors', async () => {
    const cache = createLruEmbeddingCache({ maxEntries: 2 });
    const v = Float32Array.from([1, 2]);
    await cache.setMany([{ key: 'a', vector: v }, { key: 'b', vector: Float32Array.from([3]) }]);
    v[0] = 99;
    await cache.getMany(['a']); // a is now most recent
    await cache.setMany([{ key: 'c', vector: Float32Array.from([4]) }]);
    const [a, b, c] = await cache.getMany(['a', 'b', 'c']);
    expect(Array.from(a!)).toEqual([1, 2]);
    expect(b).toBeUndefined();
    expect(Array.from(c!)).toEqual([4]);
    expect(cache.size).toBe(2);
    expect(() => createLruEmbeddingCache({ maxEntries: 0 })).toThrow(PermanentError);
  });
});

describe('quality and dimension checks', () => {
  it('assertDimension names both numbers', () => {
    expect(() => assertDimension(512, 768)).toThrow(/expected dimension 512, got 768/);
    expect(code(() => assertDimension(512, 768))).toBe('DIMENSION_MISMATCH');
    expect(() => assertDimension(4, 4)).not.toThrow();
  });

  it('rejects NaN, Infinity, zero and near-zero vectors, naming the text index', () => {
    expect(() => assertEmbeddingQuality(Float32Array.from([0.6, Number.NaN]), 7)).toThrow(/text 7: vector component 1 is NaN/);
    expect(code(() => assertEmbeddingQuality(Float32Array.from([Number.POSITIVE_INFINITY, 0]), 0))).toBe('EMBEDDING_QUALITY');
    expect(() => assertEmbeddingQuality(new Float32Array(4), 2)).toThrow(/text 2: near-zero/);
    expect(() => assertEmbeddingQuality(Float32Array.from([1e-7, 0]), 3)).toThrow(/text 3: vector norm/);
    expect(() => assertEmbeddingQuality(Float32Array.from([0.6, 0.8]), 0)).not.toThrow();
  });
});

describe('embedWithCache', () => {
  it('embeds each distinct text once, in batches, and serves repeats from the cache', async () => {
    const embedder = spy(createHashEmbedder({ dimension: 32 }));
    const cache = createLruEmbeddingCache();
    const texts = ['a b', 'c d', 'a b', 'e f', 'g h'];
    const first = await embedWithCacheStats(embedder, texts, cache, { batchSize: 2 });
    expect(embedder.calls).toEqual([['a b', 'c d'], ['e f', 'g h']]);
    expect([first.cachedCount, first.embeddedCount]).toEqual([0, 4]);
    expect(Array.from(first.vectors[2]!)).toEqual(Array.from(first.vectors[0]!));
    const second = await embedWithCacheStats(embedder, [...texts, 'new text'], cache, { batchSize: 2 });
    expect(embedder.calls.at(-1)).toEqual(['new text']);
    expect([second.cachedCount, second.embeddedCount]).toEqual([4, 1]);
    expect(second.vectors.slice(0, 5).map((v) => Array.from(v))).toEqual(first.vectors.map((v) => Array.from(v)));
    expect(await embedWithCache(embedder, [], cache, { batchSize: 2 })).toEqual([]);
  });

  it('re-embeds a cached vector of the wrong length instead of returning it', async () => {
    const embedder = spy(createHashEmbedder({ dimension: 16 }));
    const cache = createLruEmbeddingCache();
    await cache.setMany([{ key: embeddingCacheKey(embedder.model, 'x y'), vector: Float32Array.from([1, 0]) }]);
    const [v] = await embedWithCache(embedder, ['x y'], cache, { batchSize: 8 });
    expect(v!.length).toBe(16);
    expect(embedder.calls).toEqual([['x y']]);
  });

  it('names the input index of a bad vector and does not cache it', async () => {
    const cache = createLruEmbeddingCache();
    const err = await embedWithCache(fixed({ bad: [0, 0, 0] }), ['ok', 'fine', 'ok', 'bad'], cache, { batchSize: 10 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).code).toBe('EMBEDDING_QUALITY');
    expect((err as PermanentError).message).toMatch(/^text 3:/);
    expect(cache.size).toBe(0);
  });

  it('fails on a wrong count or dimension from the embedder', async () => {
    const short: Embedder = { model: 's', dimension: 3, embed: async () => [Float32Array.from([1, 0, 0])] };
    const e1 = await embedWithCache(short, ['a', 'b'], createLruEmbeddingCache(), { batchSize: 5 }).catch((e: unknown) => e);
    expect((e1 as PermanentError).code).toBe('DIMENSION_MISMATCH');
    const e2 = await embedWithCache(fixed({ a: [1, 0] }), ['a'], createLruEmbeddingCache(), { batchSize: 5 }).catch((e: unknown) => e);
    expect((e2 as PermanentError).message).toMatch(/text 0: expected dimension 3, got 2/);
    await expect(embedWithCache(short, ['a'], createLruEmbeddingCache(), { batchSize: 0 })).rejects.toThrow(/batchSize/);
  });

  it('treats a failing cache as a miss and reports the error', async () => {
    const errors: unknown[] = [];
    const broken: EmbeddingCache = {
      getMany: async () => {
        throw new RetryableError('STORE_UNAVAILABLE', 'redis down');
      },
      setMany: async () => {
        throw new RetryableError('STORE_UNAVAILABLE', 'redis down');
      },
    };
    const vectors = await embedWithCache(fixed({}), ['a'], broken, { batchSize: 1, onCacheError: (e) => errors.push(e) });
    expect(vectors).toHaveLength(1);
    expect(errors).toHaveLength(2);
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(embedWithCache(fixed({}), ['a'], createLruEmbeddingCache(), { batchSize: 1, signal: controller.signal })).rejects.toThrow('stop');
  });
});

describe('embedStage', () => {
  function chunk(body: string, i: number): EnrichedChunk {
    return {
      chunk_id: chunkIdFor('doc-1', 's', body), doc_id: 'doc-1', version: sha256Hex('v'), section: 's', section_path: 's',
      body, embedding_text: `s\n${body}`, page_start: 1, page_end: 1, chunk_index: i, total_chunks: 3, token_count: 3,
      entities: [], valid_from: null, valid_to: null,
    };
  }

  it('embeds embedding_text in chunk order and reports cache hits', async () => {
    const embedder = createHashEmbedder({ dimension: 32 });
    const cache = createLruEmbeddingCache();
    const chunks = ['one', 'two', 'three'].map(chunk);
    const out = await embedStage(chunks, { embedder, cache, batchSize: 2, expectedDimension: 32 });
    expect(out.model).toBe(embedder.model);
    expect(out.dimension).toBe(32);
    expect(out.cachedCount).toBe(0);
    const direct = await embedder.embed(chunks.map((c) => c.embedding_text));
    expect(out.vectors).toEqual(direct.map((v) => Array.from(v)));
    const again = await embedStage(chunks, { embedder, cache, batchSize: 2, expectedDimension: null });
    expect(again.cachedCount).toBe(3);
    expect((await embedStage([], { embedder, cache, batchSize: 2, expectedDimension: 32 })).vectors).toEqual([]);
  });

  it('fails fast when the store has another dimension', async () => {
    const embedder = spy(createHashEmbedder({ dimension: 32 }));
    const err = await embedStage([chunk('x', 0)], { embedder, cache: createLruEmbeddingCache(), batchSize: 2, expectedDimension: 768 }).catch((e: unknown) => e);
    expect((err as PermanentError).code).toBe('DIMENSION_MISMATCH');
    expect((err as PermanentError).message).toMatch(/768.*32/);
    expect(embedder.calls).toEqual([]);
  });
});
