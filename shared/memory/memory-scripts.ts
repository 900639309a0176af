/**
 * The memory store's Lua (shared/memory/memory-store.ts), run by shared/redis/lua.ts. Every change
 * to a chunk's stats is ONE script, so Redis runs it without any other command in between: no lost
 * update under any concurrency, one round trip, and no retry storm (optimistic WATCH/MULTI would
 * make 50 writers of one hot chunk retry O(n²) times). The formulas mirror `chunk-stats.ts`
 * operation for operation, which the integration tests check against the pure fold. The keys are
 * `memoryKeys(prefix)` (shared/redis/keys.ts).
 */
import { defineLuaScript, luaSource } from '../redis/index.ts';

/** A chunk's useful count and utility, before or after one outcome. */
interface StatsPoint {
  usefulCount: number;
  utility: number;
}

/**
 * One win for one chunk. KEYS: stats hash, index set, [run marker set]. ARGV: chunk id, at (ms),
 * half-life (ms), intent, entities (JSON array, deduplicated), query vector (float32 LE bytes),
 * entity cap, intent cap, run marker TTL (ms).
 * The run marker makes a re-run of the same agent run a no-op for this chunk: the check, the
 * update and the marker happen in one script, so a crash can never separate them.
 * Returns {applied 0/1, count before, utility before, count after, utility after}, utilities at
 * max(utility_at, at) as %.17g strings (Lua numbers would be truncated to integers in the reply).
 */
export const APPLY_OUTCOME = defineLuaScript<
  [stats: string, index: string] | [stats: string, index: string, runMarker: string],
  [
    chunkId: string,
    atMs: number,
    halfLifeMs: number,
    intent: string,
    entitiesJson: string,
    queryVector: Buffer,
    entityCap: number,
    intentCap: number,
    markerTtlMs: number,
  ],
  { applied: boolean; before: StatsPoint; after: StatsPoint }
>({
  name: 'memory-apply-outcome',
  keys: { min: 2 },
  source: luaSource(new URL('./memory-helpers.lua', import.meta.url), new URL('./memory-apply-outcome.lua', import.meta.url)),
  reply: (raw) => {
    const res = raw as [string, string, string, string, string];
    return {
      applied: res[0] === '1',
      before: { usefulCount: Number(res[1]), utility: Number(res[2]) },
      after: { usefulCount: Number(res[3]), utility: Number(res[4]) },
    };
  },
});

/**
 * Materialise-and-prune for a batch. KEYS: index set, then one stats hash per chunk. ARGV: now,
 * half-life, prune-below, prune-idle (ms), then the chunk ids in KEYS order.
 * Idempotent: a chunk already materialised at `now` is not written again. A chunk updated
 * since the scan read its id is judged on its current fields, so a fresh win is never pruned.
 * Returns {updated, pruned}; an index entry without a hash is removed and counted as pruned.
 */
export const DECAY_BATCH = defineLuaScript<
  [index: string, ...stats: string[]],
  [nowMs: number, halfLifeMs: number, pruneBelow: number, pruneIdleMs: number, ...chunkIds: string[]],
  { updated: number; pruned: number }
>({
  name: 'memory-decay-batch',
  keys: { min: 1 },
  source: luaSource(new URL('./memory-helpers.lua', import.meta.url), new URL('./memory-decay-batch.lua', import.meta.url)),
  reply: (raw) => {
    const [updated, pruned] = raw as [number, number];
    return { updated: Number(updated), pruned: Number(pruned) };
  },
});
