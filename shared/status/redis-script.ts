import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A Lua script run by EVALSHA, loaded on first use (and again after a Redis restart). */
export interface RedisScript {
  run(redis: Redis, keys: string[], args: (string | number)[]): Promise<unknown>;
}

export function defineScript(source: string): RedisScript {
  const sha = createHash('sha1').update(source).digest('hex');
  return {
    async run(redis, keys, args) {
      try {
        return await redis.evalsha(sha, keys.length, ...keys, ...args);
      } catch (err) {
        if (err instanceof Error && err.message.includes('NOSCRIPT')) {
          return redis.eval(source, keys.length, ...keys, ...args);
        }
        throw err;
      }
    },
  };
}
