import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentError } from '../../shared/errors.ts';
import { applyOutcome, memoryPolicy, WEEK_MS, type ChunkStats, type StatsOutcome } from '../../shared/memory/chunk-stats.ts';
import { createInMemoryMemoryStore } from '../../shared/memory/in-memory-memory-store.ts';
import { createRedisMemoryStore, type MemoryOutcome, type MemoryStore } from '../../shared/memory/memory-store.ts';
import { memoryKeys } from '../../shared/redis/keys.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const HL = 6 * WEEK_MS;
const T0 = Date.UTC(2025, 0, 5, 3);

/** A small deterministic generator, so a failure replays. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const randomVector = (r: () => number, dim: number) => Float32Array.from({ length: dim }, () => r() * 2 - 1);
const outcome = (chunkId: string, at: number, over: Partial<MemoryOutcome> = {}): MemoryOutcome => ({
  chunkId,
  queryVector: Float32Array.from([1, 0, 0, 0]),
  intent: 'legal',
  entities: [],
  at: new Date(at),
  ...over,
});
const asStats = (o: MemoryOutcome): StatsOutcome => ({ queryVector: o.queryVector, intent: o.intent, entities: o.entities, at: o.at.getTime() });

describe.skipIf(!REDIS_AVAILABLE)('memory store (real Redis)', () => {
  let server: Awaited<ReturnType<typeof startTestRedis>>;
  let redis: Redis;
  const extra: Redis[] = [];
  let n = 0;
  const prefix = () => `mem${n++}`;

  beforeAll(async () => {
    server = await startTestRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    for (const c of [redis, ...extra]) c?.disconnect();
    await server?.cleanup();
  });

  // The same behaviour from both adapters: the pure functions in a Map and the Lua on Redis.
  const adapters: [string, () => MemoryStore][] = [
    ['in-memory', () => createInMemoryMemoryStore({ halfLifeMs: HL })],
    ['redis', () => createRedisMemoryStore(redis, prefix(), { halfLifeMs: HL })],
  ];
  describe.each(adapters)('%s adapter', (_name, make) => {
    it('applies outcomes, reports deltas, counts a run once per chunk', async () => {
      const store = make();
      const c = randomUUID();
      const [d1] = await store.applyOutcomes([outcome(c, T0, { entities: ['gdpr'] })], { runId: 'r1' });
      expect(d1).toEqual({ chunkId: c, applied: true, before: { usefulCount: 0, utility: 0 }, after: { usefulCount: 1, utility: 1 } });
      const [again] = await store.applyOutcomes([outcome(c, T0)], { runId: 'r1' });
      expect(again).toMatchObject({ applied: false, after: { usefulCount: 1 } });
      const [d2] = await store.applyOutcomes([outcome(c, T0 + HL, { intent: 'how-to' })], { runId: 'r2' });
      expect(d2).toEqual({ chunkId: c, applied: true, before: { usefulCount: 1, utility: 0.5 }, after: { usefulCount: 2, utility: 1.5 } });
      const view = (await store.getMany([c, randomUUID()], new Date(T0 + 2 * HL))).get(c);
      expect(view?.stats).toMatchObject({ useful_count: 2, last_useful_at: T0 + HL, decayed_utility: 1.5, utility_at: T0 + HL });
      expect(view?.stats.intent_hist).toEqual({ legal: 1, 'how-to': 1 });
      expect(view?.stats.entity_hist).toEqual({ gdpr: 1 });
      expect(view?.features.decayedUtility).toBe(0.75);
      expect(view?.features.intentMatch('legal')).toBe(0.5);
      expect(view?.features.centroidCos(Float32Array.from([2, 0, 0, 0]))).toBeCloseTo(1, 6);
    });

    it('decays idempotently and prunes only low, idle chunks', async () => {
      const store = make();
      const old = randomUUID();
      const recent = randomUUID();
      await store.applyOutcomes([outcome(old, T0), outcome(recent, T0 + 30 * WEEK_MS)]);
      const now = new Date(T0 + 31 * WEEK_MS);
      expect(await store.decayAll(now, { pruneBelow: 0.05 })).toEqual({ scanned: 2, updated: 1, pruned: 1 });
      expect(await store.decayAll(now, { pruneBelow: 0.05 })).toEqual({ scanned: 1, updated: 0, pruned: 0 });
      const left = await store.getMany([old, recent], now);
      expect([...left.keys()]).toEqual([recent]);
      expect(left.get(recent)?.stats.utility_at).toBe(now.getTime());
      expect(left.get(recent)?.stats.decayed_utility).toBeCloseTo(2 ** (-1 / 6), 12);
    });

    it('refuses a query vector of another dimension, applying the rest', async () => {
      const store = make();
      const [a, b] = [randomUUID(), randomUUID()];
      await store.applyOutcomes([outcome(a, T0)]);
      const err = await store
        .applyOutcomes([outcome(a, T0, { queryVector: Float32Array.from([1, 2]) }), outcome(b, T0)])
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PermanentError);
      expect((err as PermanentError).code).toBe('DIMENSION_MISMATCH');
      const got = await store.getMany([a, b]);
      expect(got.get(a)?.stats.useful_count).toBe(1);
      expect(got.get(b)?.stats.useful_count).toBe(1);
    });
  });

  it('stores exactly what the pure functions compute (same order of operations in Lua)', async () => {
    const policy = memoryPolicy({ halfLifeMs: HL, entityCap: 5, intentCap: 3 });
    const store = createRedisMemoryStore(redis, prefix(), policy);
    const r = rng(42);
    const chunk = randomUUID();
    const words = ['gdpr', '출산 장려금', 'leave', 'payroll', 'é', '\u{1F600}', '\uFF5E', 'constructor', '__proto__', 'a', 'b', 'c'];
    let expected: ChunkStats | null = null;
    for (let i = 0; i < 60; i++) {
      // Out-of-order times on purpose: late outcomes must sum the same way in both.
      const o = outcome(chunk, T0 + Math.floor(r() * 20 * WEEK_MS), {
        queryVector: randomVector(r, 24),
        intent: ['legal', 'how-to', 'definition', 'other', 'faq'][Math.floor(r() * 5)]!,
        entities: words.filter(() => r() < 0.3),
      });
      await store.applyOutcomes([o]);
      expected = applyOutcome(expected, asStats(o), policy);
    }
    const got = (await store.getMany([chunk])).get(chunk)!.stats;
    expect(got.useful_count).toBe(expected!.useful_count);
    expect(got.last_useful_at).toBe(expected!.last_useful_at);
    expect(got.utility_at).toBe(expected!.utility_at);
    expect(got.decayed_utility).toBeCloseTo(expected!.decayed_utility, 12);
    expect(got.intent_hist).toEqual(expected!.intent_hist);
    expect(got.entity_hist).toEqual(expected!.entity_hist);
    expect(Object.keys(got.entity_hist)).toHaveLength(5);
    expect([...got.query_centroid!]).toEqual([...expected!.query_centroid!]); // bit for bit
  });

  it('50 concurrent outcomes on one chunk: count exactly 50, centroid exactly the running mean in Redis order', async () => {
    const p = prefix();
    const clients = Array.from({ length: 5 }, () => new Redis(server.url));
    extra.push(...clients);
    const stores = clients.map((c) => createRedisMemoryStore(c, p, { halfLifeMs: HL }));
    const chunk = randomUUID();
    const r = rng(7);
    const outcomes = Array.from({ length: 50 }, (_, i) => outcome(chunk, T0 + i * 1000, { queryVector: randomVector(r, 64), entities: [`e${i % 7}`] }));
    const deltas = (await Promise.all(outcomes.map((o, i) => stores[i % stores.length]!.applyOutcomes([o], { runId: `run-${i}` })))).flat();

    const got = (await stores[0]!.getMany([chunk])).get(chunk)!.stats;
    expect(got.useful_count).toBe(50);
    expect(got.last_useful_at).toBe(T0 + 49_000);
    expect(Object.values(got.entity_hist).reduce((a, b) => a + b, 0)).toBe(50);
    // Each delta says where Redis serialised it (after.usefulCount = its position): positions are
    // exactly 1..50, so no update was lost or applied twice…
    const order = deltas.map((d, i) => ({ pos: d.after.usefulCount, o: outcomes[i]! })).sort((a, b) => a.pos - b.pos);
    expect(order.map((x) => x.pos)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // …and the centroid is bit for bit the running mean in that order,
    const policy = memoryPolicy({ halfLifeMs: HL });
    const replay = order.reduce<ChunkStats | null>((s, x) => applyOutcome(s, asStats(x.o), policy), null)!;
    expect([...got.query_centroid!]).toEqual([...replay.query_centroid!]);
    expect(got.decayed_utility).toBeCloseTo(replay.decayed_utility, 12);
    // …which is the plain mean of the 50 queries up to float32 rounding.
    for (let i = 0; i < 64; i++) {
      const mean = outcomes.reduce((a, o) => a + o.queryVector[i]!, 0) / 50;
      expect(Math.abs(got.query_centroid![i]! - mean)).toBeLessThan(1e-6);
    }
  });

  it('decayAll while updates run: no update lost, a second decay at the same time changes nothing', async () => {
    const p = prefix();
    const writer = new Redis(server.url);
    extra.push(writer);
    const store = createRedisMemoryStore(redis, p, { halfLifeMs: HL, decayBatchSize: 7 });
    const writes = createRedisMemoryStore(writer, p, { halfLifeMs: HL });
    const chunks = Array.from({ length: 300 }, () => randomUUID());
    await store.applyOutcomes(chunks.map((c) => outcome(c, T0)));
    const now = new Date(T0 + 2 * HL);
    const [report] = await Promise.all([
      store.decayAll(now, { pruneBelow: 0.05 }),
      // A second win for each chunk at a time after `now`, racing the scan.
      writes.applyOutcomes(chunks.map((c) => outcome(c, now.getTime() + WEEK_MS))),
    ]);
    expect(report.pruned).toBe(0);
    expect(report.scanned).toBeGreaterThanOrEqual(300);
    const all = await store.getMany(chunks, now);
    expect([...all.values()].every((v) => v.stats.useful_count === 2)).toBe(true);
    // Whatever the interleaving, each chunk's utility a week after `now` is 1 + 2^(−(2HL + 1w)/HL).
    const later = now.getTime() + WEEK_MS;
    for (const v of (await store.getMany(chunks, new Date(later))).values()) {
      expect(v.features.decayedUtility).toBeCloseTo(1 + 2 ** -(2 + 1 / 6), 12);
    }

    const snapshot = async () => Promise.all(chunks.map((c) => redis.hgetallBuffer(memoryKeys(p).stats(c))));
    await store.decayAll(new Date(later), { pruneBelow: 0.05 });
    const before = await snapshot();
    expect(await store.decayAll(new Date(later), { pruneBelow: 0.05 })).toEqual({ scanned: 300, updated: 0, pruned: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it('keeps one hash per chunk, an index and expiring run markers', async () => {
    const p = prefix();
    const store = createRedisMemoryStore(redis, p, { halfLifeMs: HL, runMarkerTtlMs: 60_000 });
    const [a, b] = [randomUUID(), randomUUID()];
    await store.applyOutcomes([outcome(a, T0), outcome(b, T0)], { runId: 'run-x' });
    const keys = (await redis.keys(`${p}:*`)).sort();
    expect(keys).toEqual([`${p}:mem:${a}`, `${p}:mem:${b}`, `${p}:mem:index`, `${p}:mem:run:run-x`].sort());
    expect(await redis.type(`${p}:mem:${a}`)).toBe('hash');
    expect((await redis.hgetallBuffer(`${p}:mem:${a}`)).query_centroid).toHaveLength(16);
    expect(await redis.smembers(`${p}:mem:index`)).toHaveLength(2);
    const ttl = await redis.pttl(`${p}:mem:run:run-x`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await expect(store.applyOutcomes([outcome(a, T0)], { runId: 'bad:id' })).rejects.toThrow(/':'/);
  });

  it('rejects a half-life outside 4–8 weeks', () => {
    expect(() => createRedisMemoryStore(redis, 'x', { halfLifeMs: 10 * WEEK_MS })).toThrow(RangeError);
  });
});
