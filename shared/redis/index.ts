/**
 * Redis as Quarry uses it: the keyspace (keys.ts: every key Quarry names), the one Lua script
 * runner and reader of .lua files (lua.ts), the lock's and lease's scripts (*-if-held.lua),
 * connection-error logging, the check that Redis does not evict.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: the key functions, defineLuaScript and luaSource, watchConnection,
 * assertNoEviction.
 */

export { createConnectionLog, throttledErrorLog, watchConnection, type ConnectionLog } from './connection-log.ts';
export { RELEASE_IF_HELD, RENEW_IF_HELD } from './held-key-scripts.ts';
export {
  bucketCursorKey,
  docLockKey,
  embeddingCacheKey,
  everyKeyPattern,
  memoryKeys,
  rateLimitNamespace,
  runContextKeys,
  runStreamKey,
  statusKeys,
  traceKeys,
  watcherLeaseKey,
  type CappedCollectionKeys,
} from './keys.ts';
export { defineLuaScript, luaSource } from './lua.ts';
export { assertNoEviction } from './redis-policy.ts';
