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
export { defineLuaScript } from './lua.ts';
export { assertNoEviction } from './redis-policy.ts';
