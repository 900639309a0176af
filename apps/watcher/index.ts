/**
 * The folder watcher's and the bucket watcher's modules, imported by a process that watches (the
 * folder watcher loads chokidar): a process that only takes the lease does not load them.
 */
export const loadLocalWatcher = () => import('./local-watcher.ts');
/** @see loadLocalWatcher */
export const loadBucketWatcher = () => import('./bucket-watcher.ts');

export type { BucketWatcher } from './bucket-watcher.ts';
export { startLeaderLease } from './leader-lease.ts';
export type { LocalWatcher, WatchEvent } from './local-watcher.ts';
