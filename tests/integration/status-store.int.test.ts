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

  it('registers once; the same version again is unchanged; a new version takes a new, larger generation', async () => {
    const s = createStatusStore(redis, 'st1');
    const first = await s.register({ docId: 'd', sourceKey: 'dir:d.pdf', version: V1 });
    expect(first.action).toBe('registered');
    expect(await s.register({ docId: 'd', sourceKey: 'dir:d.pdf', version: V1 })).toEqual({ action: 'unchanged', gen: first.gen });
    const forced = await s.register({ docId: 'd', sourceKey: 'dir:d.pdf', version: V1, force: true });
    expect(forced.action).toBe('registered');
    expect(forced.gen).toBeGreaterThan(first.gen);
    const next = await s.register({ docId: 'd', sourceKey: 'dir:d.pdf', version: V2 });
    expect(next.gen).toBeGreaterThan(forced.gen);
    expect(Number.isSafeInteger(next.gen)).toBe(true);
    expect((await s.get('d'))?.gen).toBe(next.gen);
  });

  it('after Redis loses a record, registering again does not reuse the lost generation (job ids stay unique)', async () => {
    const s = createStatusStore(redis, 'st5');
    const lost = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const { gen } = await s.register({ docId: `d${i}`, sourceKey: 'k', version: V1 });
      lost.add(gen);
    }
    for (const k of await redis.keys('st5:*')) await redis.del(k);
    for (let i = 0; i < 20; i++) {
      const { gen } = await s.register({ docId: `d${i}`, sourceKey: 'k', version: V1 });
      expect(lost.has(gen)).toBe(false);
      expect(await s.isCurrent(`d${i}`, V1, gen)).toBe(true);
    }
  });

  it('ignores updates from a superseded version or generation', async () => {
    const s = createStatusStore(redis, 'st2');
    const { gen: g1 } = await s.register({ docId: 'd', sourceKey: 'k', version: V1 });
    expect(await s.update('d', V1, g1, { state: 'running', stage: 'chunk', timing: { stage: 'extract', ms: 12.4 } })).toBe(true);
    const { gen: g2 } = await s.register({ docId: 'd', sourceKey: 'k', version: V2 });
    expect(await s.update('d', V1, g1, { state: 'indexed' })).toBe(false);
    const now = await s.get('d');
    expect(now).toMatchObject({ version: V2, gen: g2, state: 'queued', stage: 'extract', timings: {} });
    expect(await s.isCurrent('d', V2, g2)).toBe(true);
    expect(await s.isCurrent('d', V1, g1)).toBe(false);
  });

  it('an update for a stage applies only while the document waits at or runs that stage', async () => {
    const s = createStatusStore(redis, 'st9');
    const { gen } = await s.register({ docId: 'd', sourceKey: 'dir:d.pdf', version: V1 });
    expect(await s.update('d', V1, gen, { state: 'running' }, { atStage: 'extract' })).toBe(true);
    expect(await s.update('d', V1, gen, { stage: 'sectionize', state: 'queued' }, { atStage: 'extract' })).toBe(true);
    // A job of the stage before, delivered again: it neither restarts that stage nor fails the document.
    expect(await s.update('d', V1, gen, { state: 'running', stage: 'extract' }, { atStage: 'extract' })).toBe(false);
    expect(await s.update('d', V1, gen, { state: 'failed', error: { code: 'X', message: 'late' } }, { atStage: 'extract' })).toBe(false);
    expect(await s.get('d')).toMatchObject({ stage: 'sectionize', state: 'queued', errorCode: null });
    // Settled documents are at no stage's disposal.
    expect(await s.update('d', V1, gen, { state: 'indexed' })).toBe(true);
    expect(await s.update('d', V1, gen, { state: 'running' }, { atStage: 'sectionize' })).toBe(false);
    expect((await s.get('d'))?.state).toBe('indexed');
  });

  it('keeps the profile an indexed version was given; a new registration clears it', async () => {
    const s = createStatusStore(redis, 'st-profile');
    const profile = {
      organisations: [{ name: 'Orchard Devices Inc.', aliases: ['orchard devices inc.', 'orchard', 'orcd'] }],
      form: '10-Q',
      period: { end: '2023-07-01', fiscalYear: 2023, fiscalQuarter: 3, calendarYear: 2023, calendarQuarter: 2, edition: null },
      label: 'Orchard Devices Inc. (ORCD) · 10-Q · fiscal 2023 Q3 · calendar 2023 Q2 · period ended 2023-07-01',
    };
    const { gen } = await s.register({ docId: 'd', sourceKey: 'k', version: V1 });
    await s.update('d', V1, gen, { state: 'indexed', profile });
    expect((await s.get('d'))?.profile).toEqual(profile);
    await s.register({ docId: 'd', sourceKey: 'k', version: V2 });
    expect((await s.get('d'))?.profile).toBeUndefined();
  });

  it('records failures and timings', async () => {
    const s = createStatusStore(redis, 'st3');
    const { gen } = await s.register({ docId: 'd', sourceKey: 'k', version: V1 });
    await s.update('d', V1, gen, { timing: { stage: 'extract', ms: 40 }, pageCount: 3 });
    await s.update('d', V1, gen, { state: 'failed', error: { code: 'NO_TEXT_LAYER', message: 'no text on 3 pages' } });
    expect(await s.get('d')).toMatchObject({ state: 'failed', errorCode: 'NO_TEXT_LAYER', timings: { extract: 40 }, pageCount: 3 });
    expect((await s.list()).map((x) => x.docId)).toEqual(['d']);
  });

  it('a deletion takes a new generation; re-registering after it starts afresh', async () => {
    const s = createStatusStore(redis, 'st4');
    expect(await s.markDeleting('nope')).toBeNull();
    const { gen: g0 } = await s.register({ docId: 'd', sourceKey: 'k', version: V1 });
    const gen = await s.markDeleting('d');
    expect(gen).toBeGreaterThan(g0);
    expect(await s.isCurrent('d', V1, g0)).toBe(false);
    const again = await s.register({ docId: 'd', sourceKey: 'k', version: V1 });
    expect(again.action).toBe('registered');
    expect(again.gen).toBeGreaterThan(gen ?? Infinity);
    expect(await s.markDeleted('d', gen ?? -1)).toBe(false); // the stale deletion does not win
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
    // Held until released here, with a 1 s ttl renewed every third of it: the lock is still there
    // after three ttls have passed only because it was renewed (a busy event loop may delay a
    // renewal by most of a second without losing it).
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const held = withDocLock(redis, 'lk3', 'd', () => released, { ttlMs: 1000 });
    await expect.poll(() => redis.get('lk3:lock:doc:d'), { timeout: 10_000, interval: 20 }).not.toBeNull();
    const firstValue = await redis.get('lk3:lock:doc:d');
    await new Promise((r) => setTimeout(r, 3000));
    expect(await redis.get('lk3:lock:doc:d')).toBe(firstValue);
    release();
    await held;
    expect(await redis.get('lk3:lock:doc:d')).toBeNull();
    await redis.set('lk4:lock:doc:d', 'dead-holder', 'PX', 200);
    expect(await withDocLock(redis, 'lk4', 'd', async () => 'got it', { waitMs: 2000 })).toBe('got it');
  });
});
