/**
 * Quarry's keyspace in Redis: every key (or key prefix) Quarry spells, one function per family,
 * each taking the deployment's prefix (`QUARRY_PREFIX`). BullMQ names its own keys under the same
 * prefix (`<prefix>:<queue>:…`). The strings are data already in Redis: change one and what is
 * stored under the old name is lost to the code (tests/unit/redis-keys.test.ts pins them all).
 */

/** Where a capped collection lives: values under `valuePrefix + id`, its time index at `indexKey` (shared/agent/capped-store.ts). */
export interface CappedCollectionKeys {
  valuePrefix: string;
  indexKey: string;
}

/** A document's status record (a hash, `<prefix>:doc:<docId>`) and the index of every document (a sorted set by registration time). */
export function statusKeys(prefix: string): { record(docId: string): string; index: string } {
  return {
    record: (docId: string) => `${prefix}:doc:${docId}`,
    index: `${prefix}:docs`,
  };
}

/** The per-document write lock (a string holding its holder's token, with a TTL). */
export function docLockKey(prefix: string, docId: string): string {
  return `${prefix}:lock:doc:${docId}`;
}

/**
 * Chunk memory: one stats hash per chunk, the index set the weekly decay scans, and a marker set
 * per agent run (with a TTL). Chunk ids are uuids, so they never collide with `index` or `run:`.
 */
export function memoryKeys(prefix: string): { stats(chunkId: string): string; index: string; run(runId: string): string } {
  return {
    stats: (chunkId: string) => `${prefix}:mem:${chunkId}`,
    index: `${prefix}:mem:index`,
    run: (runId: string) => `${prefix}:mem:run:${runId}`,
  };
}

/** Agent traces, one JSON value per run (`<prefix>:trace:<runId>`), capped by count and age. */
export function traceKeys(prefix: string): CappedCollectionKeys {
  return { valuePrefix: `${prefix}:trace:`, indexKey: `${prefix}:traces:index` };
}

/** Run contexts (what feedback on a run needs later, `<prefix>:runctx:<runId>`), kept like traces. */
export function runContextKeys(prefix: string): CappedCollectionKeys {
  return { valuePrefix: `${prefix}:runctx:`, indexKey: `${prefix}:runctxs:index` };
}

/** The Redis Stream of a run's events. */
export function runStreamKey(prefix: string, runId: string): string {
  return `${prefix}:runstream:${runId}`;
}

/** A cached embedding; `cacheKey` is `<model>:<sha256 of the text>` (shared/embed/embedding-cache.ts). */
export function embeddingCacheKey(prefix: string, cacheKey: string): string {
  return `${prefix}:emb:${cacheKey}`;
}

/** The watcher's leader lease: one watcher per prefix. */
export function watcherLeaseKey(prefix: string): string {
  return `${prefix}:watcher:leader`;
}

/** A watched bucket's cursor (a hash: object key → fingerprint); `bucketPrefix` is empty or ends with `/`. */
export function bucketCursorKey(prefix: string, bucket: string, bucketPrefix: string): string {
  return `${prefix}:bucket-cursor:${bucket}/${bucketPrefix}`;
}

/** The namespace the gateway's rate-limit counters are kept under (@fastify/rate-limit appends the caller). */
export function rateLimitNamespace(prefix: string): string {
  return `${prefix}:ratelimit:`;
}

/** A SCAN pattern matching every key under the prefix, BullMQ's included. */
export function everyKeyPattern(prefix: string): string {
  return `${prefix}:*`;
}
