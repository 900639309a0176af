import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDocLock } from '../../shared/status/doc-lock.ts';
import { createStatusStore } from '../../shared/status/status-store.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const V1 = '1'.repeat(64);
const V2 = '2'.repeat(64);

describe.skipIf(!REDIS_AVAILABLE)('status store and document lock (real Redis)', () => {
  let server: Awaited<ReturnType<typeof startTestRedis>>;
  let redis: Redis;

  beforeAll(async () => {
    server = await startTestRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.cleanup();
  });

  it('registers once; the same version again is unchanged; a new version bumps the generation', async () => {
    const s = createStatusStore(redis, 'st1');
    expect(await s.register({ docId: 'd', sourceKey: 'dir:d.pdf', version: V1 })).toEqual({ action: 'registered', gen: 0 });
    expect(await s.register({ docId: 'd', sourceKey: 'dir:d.pdf', version: V1 })).toEqual({ action: 'unchanged', gen: 0 });
    expect(await s.register({ docId: 'd', sourceKey: 'dir:d.pdf', version: V1, force: true })).toEqual({ action: 'registered', gen: 1 });
    expect(await s.register({ docId: 'd', sourceKey: 'dir:d.pdf', version: V2 })).toEqual({ action: 'registered', gen: 2 });
  });

  it('ignores updates from a superseded version or generation', async () => {
    const s = createStatusStore(redis, 'st2');
    await s.register({ docId: 'd', sourceKey: 'k', version: V1 });
    expect(await s.update('d', V1, 0, { state: 'running', stage: 'chunk', timing: { stage: 'extract', ms: 12.4 } })).toBe(true);
    await s.register({ docId: 'd', sourceKey: 'k', version: V2 });
    expect(await s.update('d', V1, 0, { state: 'indexed' })).toBe(false);
    const now = await s.get('d');
    expect(now).toMatchObject({ version: V2, gen: 1, state: 'queued', stage: 'extract', timings: {} });
    expect(await s.isCurrent('d', V2, 1)).toBe(true);
    expect(await s.isCurrent('d', V1, 0)).toBe(false);
  });

  it('records failures and timings', async () => {
    const s = createStatusStore(redis, 'st3');
    await s.register({ docId: 'd', sourceKey: 'k', version: V1 });
    await s.update('d', V1, 0, { timing: { stage: 'extract', ms: 40 }, pageCount: 3 });
    await s.update('d', V1, 0, { state: 'failed', error: { code: 'NO_TEXT_LAYER', message: 'no text on 3 pages' } });
    expect(await s.get('d')).toMatchObject({ state: 'failed', errorCode: 'NO_TEXT_LAYER', timings: { extract: 40 }, pageCount: 3 });
    expect((await s.list()).map((x) => x.docId)).toEqual(['d']);
  });

  it('a deletion takes a new generation; re-registering after it starts afresh', async () => {
    const s = createStatusStore(redis, 'st4');
    expect(await s.markDeleting('nope')).toBeNull();
    await s.register({ docId: 'd', sourceKey: 'k', version: V1 });
    const gen = await s.markDeleting('d');
    expect(gen).toBe(1);
    expect(await s.isCurrent('d', V1, 0)).toBe(false);
    expect(await s.register({ docId: 'd', sourceKey: 'k', version: V1 })).toEqual({ action: 'registered', gen: 2 });
    expect(await s.markDeleted('d', 1)).toBe(false); // the stale deletion does not win
    expect((await s.get('d'))?.state).toBe('queued');
  });

  it('the document lock serialises writers', async () => {
    const order: string[] = [];
    const slow = withDocLock(redis, 'lk', 'd', async () => {
      order.push('a-start');
      await new Promise((r) => setTimeout(r, 150));
      order.push('a-end');
    });
    await new Promise((r) => setTimeout(r, 20));
    await withDocLock(redis, 'lk', 'd', async () => {
      order.push('b');
    });
    await slow;
    expect(order).toEqual(['a-start', 'a-end', 'b']);
    await expect(
      withDocLock(redis, 'lk2', 'd', () => withDocLock(redis, 'lk2', 'd', async () => 1, { waitMs: 100 })),
    ).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
  });

  it('the holder renews the lock past its ttl; an abandoned lock frees itself', async () => {
    const held = withDocLock(redis, 'lk3', 'd', () => new Promise((r) => setTimeout(r, 400)), { ttlMs: 150 });
    await new Promise((r) => setTimeout(r, 250));
    expect(await redis.get('lk3:lock:doc:d')).not.toBeNull(); // renewed beyond 150 ms
    await held;
    expect(await redis.get('lk3:lock:doc:d')).toBeNull();
    await redis.set('lk4:lock:doc:d', 'dead-holder', 'PX', 200);
    expect(await withDocLock(redis, 'lk4', 'd', async () => 'got it', { waitMs: 2000 })).toBe('got it');
  });
});
