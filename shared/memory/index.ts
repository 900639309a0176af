export { outcomeKeys, WEEK_MS } from './chunk-stats.ts';
export { createRedisMemoryStore, type ChunkStatsView, type MemoryOutcome, type MemoryStore } from './memory-store.ts';
