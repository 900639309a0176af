/**
 * Chunk memory (ChunkStats): the decay math, the Redis store updated atomically by Lua scripts
 * (memory-*.lua, defined in memory-scripts.ts), and an in-memory store for tests.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: createRedisMemoryStore and MemoryStore, WEEK_MS, outcomeKeys.
 */

export { outcomeKeys, WEEK_MS } from './chunk-stats.ts';
export { createRedisMemoryStore, type ChunkStatsView, type MemoryOutcome, type MemoryStore } from './memory-store.ts';
