import type { Redis } from 'ioredis';
import { PermanentError } from '../errors.ts';
import { memoryKeys } from '../redis/index.ts';
import {
  DEFAULT_PRUNE_IDLE_MS,
  memoryFeatures,
  memoryPolicy,
  outcomeKeys,
  type ChunkStats,
  type MemoryFeatures,
  type MemoryPolicy,
} from './chunk-stats.ts';
import { APPLY_OUTCOME, DECAY_BATCH } from './memory-scripts.ts';

/** A validated answer that cited `chunkId` (the store normalises intent and entities before counting). */
export interface MemoryOutcome {
  chunkId: string;
  queryVector: Float32Array;
  intent: string;
  entities: readonly string[];
  at: Date;
}

/** What one outcome did to one chunk, for traces. Utilities are at max(previous utility time, outcome time). */
export interface MemoryDelta {
  chunkId: string;
  /** False when this run had already been applied to this chunk (a re-run after a crash). */
  applied: boolean;
  before: { usefulCount: number; utility: number };
  after: { usefulCount: number; utility: number };
}

/** A chunk's stored stats and the ranker's features at the time of reading. */
export interface ChunkStatsView {
  chunkId: string;
  stats: ChunkStats;
  features: MemoryFeatures;
}

/** What one `decayAll` did. */
export interface DecayReport {
  /** Index entries visited (SSCAN may visit one twice; counts below never double). */
  scanned: number;
  /** Chunks whose utility was materialised at `now`. */
  updated: number;
  /** Chunks whose stats were dropped. */
  pruned: number;
}

/** The prune rule of one `decayAll`. */
export interface DecayOptions {
  /** Drop stats whose utility at `now` is below this… */
  pruneBelow: number;
  /** …and whose last win is at least this old. @defaultValue the store's `pruneIdleMs` */
  pruneIdleMs?: number;
}

/** Per-chunk memory (ChunkStats): updated by validated answers, read by the ranker, decayed weekly. */
export interface MemoryStore {
  /**
   * Applies each outcome atomically. With a `runId`, each (runId, chunkId) counts once however
   * often it is applied (a job re-run after a crash), for `runMarkerTtlMs`.
   * @throws PermanentError DIMENSION_MISMATCH when a query vector's size differs from a stored centroid's
   * (the other outcomes of the call are still applied).
   */
  applyOutcomes(outcomes: readonly MemoryOutcome[], opts?: { runId?: string }): Promise<MemoryDelta[]>;
  /** Stats of the chunks that have any, with features at `now`. @defaultValue now = the store's clock */
  getMany(chunkIds: readonly string[], now?: Date): Promise<Map<string, ChunkStatsView>>;
  /** Materialises every chunk's utility at `now` and prunes; idempotent, safe while updates run. */
  decayAll(now: Date, opts: DecayOptions): Promise<DecayReport>;
  readonly policy: MemoryPolicy;
}

/** Policy (half-life, caps) plus the Redis adapter's own knobs. */
export interface RedisMemoryStoreOptions extends Partial<MemoryPolicy> {
  /** How long a run's "already applied" markers are kept. @defaultValue 7 days (the memory-update queue keeps completed jobs as long) */
  runMarkerTtlMs?: number;
  /** @defaultValue 13 weeks */
  pruneIdleMs?: number;
  /** Outcome scripts pipelined per round trip. @defaultValue 64 */
  batchSize?: number;
  /** Chunk ids per SSCAN hint and per decay script (bounds how long one script holds Redis). @defaultValue 200 */
  decayBatchSize?: number;
  /** Time for `getMany` without an explicit `now`. @defaultValue () => new Date() */
  clock?: () => Date;
}

const DAY_MS = 24 * 3600 * 1000;

/** Float32 little-endian bytes, the layout the Lua script packs with struct '<f' (explicit, whatever the host's byte order). */
export function vectorToBytes(v: Float32Array): Buffer {
  const buf = Buffer.allocUnsafe(v.length * 4);
  for (let i = 0; i < v.length; i++) buf.writeFloatLE(v[i] ?? 0, i * 4);
  return buf;
}

/** The inverse of `vectorToBytes` (a trailing partial float is ignored). */
export function bytesToVector(buf: Buffer): Float32Array {
  const v = new Float32Array(Math.floor(buf.length / 4));
  for (let i = 0; i < v.length; i++) v[i] = buf.readFloatLE(i * 4);
  return v;
}

function parseHist(raw: Buffer | undefined): Record<string, number> {
  if (!raw) return {};
  const parsed: unknown = JSON.parse(raw.toString('utf8'));
  // cjson writes an empty table as {} but is not asked to distinguish; accept [] too.
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === 'number'));
}

/** A stats hash as read with HGETALL (binary-safe), or null when the chunk has no stats. */
export function statsFromHash(h: Record<string, Buffer>): ChunkStats | null {
  const num = (f: string) => Number(h[f]?.toString('utf8'));
  if (!h.useful_count) return null;
  return {
    useful_count: num('useful_count'),
    last_useful_at: num('last_useful_at'),
    decayed_utility: num('decayed_utility'),
    utility_at: num('utility_at'),
    intent_hist: parseHist(h.intent_hist),
    entity_hist: parseHist(h.entity_hist),
    query_centroid: h.query_centroid ? bytesToVector(h.query_centroid) : null,
  };
}

function scriptError(err: unknown): unknown {
  if (err instanceof Error && /^DIMENSION_MISMATCH\b/.test(err.message)) {
    return new PermanentError('DIMENSION_MISMATCH', err.message.replace(/^DIMENSION_MISMATCH\s*/, ''), { cause: err });
  }
  if (err instanceof Error && /^INVALID_VECTOR\b/.test(err.message)) return new PermanentError('INVALID_PAYLOAD', err.message, { cause: err });
  return err;
}

/**
 * The MemoryStore on Redis: one hash per chunk (`<prefix>:mem:<chunkId>`), an index set
 * (`<prefix>:mem:index`) for the weekly scan, and per-run marker sets (`<prefix>:mem:run:<runId>`,
 * with a TTL; `memoryKeys`, shared/redis/keys.ts). Every write is one Lua script (memory-scripts.ts).
 * @throws RangeError for a half-life outside 4–8 weeks.
 */
export function createRedisMemoryStore(redis: Redis, prefix: string, opts: RedisMemoryStoreOptions = {}): MemoryStore {
  const policy = memoryPolicy(opts);
  const keys = memoryKeys(prefix);
  const markerTtlMs = opts.runMarkerTtlMs ?? 7 * DAY_MS;
  const pruneIdleDefault = opts.pruneIdleMs ?? DEFAULT_PRUNE_IDLE_MS;
  const batchSize = opts.batchSize ?? 64;
  const decayBatchSize = opts.decayBatchSize ?? 200;
  const clock = opts.clock ?? (() => new Date());

  const applyOne = async (o: MemoryOutcome, runId: string | undefined): Promise<MemoryDelta> => {
    const ks: [string, string] | [string, string, string] = runId ? [keys.stats(o.chunkId), keys.index, keys.run(runId)] : [keys.stats(o.chunkId), keys.index];
    const { intent, entities } = outcomeKeys(o.intent, o.entities);
    const res = await APPLY_OUTCOME.run(redis, ks, [
      o.chunkId,
      o.at.getTime(),
      policy.halfLifeMs,
      intent,
      JSON.stringify(entities),
      vectorToBytes(o.queryVector),
      policy.entityCap,
      policy.intentCap,
      markerTtlMs,
    ]);
    return { chunkId: o.chunkId, ...res };
  };

  return {
    policy,
    async applyOutcomes(outcomes, { runId } = {}) {
      if (runId !== undefined && !/^[^:\s]+$/.test(runId)) throw new TypeError(`run id may not be empty or contain ':' or spaces (${runId})`);
      const deltas: MemoryDelta[] = [];
      let failure: unknown;
      // Bounded batches: the scripts of one batch are pipelined on the connection; a crash
      // between batches leaves whole outcomes applied, which the run markers then skip.
      for (let i = 0; i < outcomes.length; i += batchSize) {
        const settled = await Promise.allSettled(outcomes.slice(i, i + batchSize).map((o) => applyOne(o, runId)));
        for (const s of settled) {
          if (s.status === 'fulfilled') deltas.push(s.value);
          else failure ??= scriptError(s.reason);
        }
      }
      if (failure !== undefined) throw failure;
      return deltas;
    },

    async getMany(chunkIds, now) {
      const at = (now ?? clock()).getTime();
      const ids = [...new Set(chunkIds)];
      const out = new Map<string, ChunkStatsView>();
      if (ids.length === 0) return out;
      const pipe = redis.pipeline();
      for (const id of ids) pipe.hgetallBuffer(keys.stats(id));
      const rows = (await pipe.exec()) ?? [];
      for (const [i, [err, h]] of rows.entries()) {
        if (err) throw err;
        const stats = statsFromHash(h as Record<string, Buffer>);
        const chunkId = ids[i];
        if (stats && chunkId) out.set(chunkId, { chunkId, stats, features: memoryFeatures(stats, at, policy.halfLifeMs) });
      }
      return out;
    },

    async decayAll(now, { pruneBelow, pruneIdleMs = pruneIdleDefault }) {
      if (!(pruneBelow >= 0)) throw new RangeError(`pruneBelow must be ≥ 0, got ${pruneBelow}`);
      const t = now.getTime();
      const report: DecayReport = { scanned: 0, updated: 0, pruned: 0 };
      let cursor = '0';
      do {
        const [next, ids] = await redis.sscan(keys.index, cursor, 'COUNT', decayBatchSize);
        cursor = next;
        report.scanned += ids.length;
        // SSCAN's COUNT is a hint (small sets come back whole): cap each script's work anyway,
        // so one call never blocks Redis for long.
        for (let i = 0; i < ids.length; i += decayBatchSize) {
          const batch = ids.slice(i, i + decayBatchSize);
          const { updated, pruned } = await DECAY_BATCH.run(redis, [keys.index, ...batch.map(keys.stats)], [t, policy.halfLifeMs, pruneBelow, pruneIdleMs, ...batch]);
          report.updated += updated;
          report.pruned += pruned;
        }
      } while (cursor !== '0');
      return report;
    },
  };
}
