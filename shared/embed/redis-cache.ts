import type { Redis } from 'ioredis';
import { embeddingCacheKey } from '../redis/index.ts';
import type { EmbeddingCache } from './embedding-cache.ts';

/** Cached vectors live 30 days: long enough for re-ingests, short enough to age out old models. */
const TTL_SECONDS = 30 * 24 * 3600;

/**
 * EmbeddingCache in Redis, shared by every embed worker: keys are `<prefix>:emb:<model>:<sha256>`
 * and values raw float32 bytes.
 */
export function createRedisEmbeddingCache(redis: Redis, prefix: string): EmbeddingCache {
  const k = (key: string) => embeddingCacheKey(prefix, key);
  return {
    async getMany(keys) {
      if (keys.length === 0) return [];
      const values = await redis.mgetBuffer(...keys.map(k));
      return values.map((buf) => {
        if (!buf || buf.byteLength % 4 !== 0) return undefined;
        // Copy: the Buffer may be a view into a shared pool at an unaligned offset.
        return new Float32Array(new Uint8Array(buf).buffer);
      });
    },
    async setMany(entries) {
      if (entries.length === 0) return;
      const pipe = redis.pipeline();
      for (const e of entries) {
        pipe.set(k(e.key), Buffer.from(e.vector.buffer, e.vector.byteOffset, e.vector.byteLength), 'EX', TTL_SECONDS);
      }
      await pipe.exec();
    },
  };
}
