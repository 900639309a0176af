/**
 * The watchers: the folder watcher (chokidar over the folder's SourceBucket), the bucket watcher
 * (polls core/sources/bucket-sync.ts), and the lease that lets one process watch per prefix.
 * May import core/ and shared/; never queues/, workers/ or another app.
 * Entry points: startLeaderLease; loadLocalWatcher and loadBucketWatcher, which import the
 * watchers' modules (chokidar) in a process that watches.
 */

/**
 * The folder watcher's module (and chokidar), imported by a process that watches: a process that
 * only takes the lease does not load it.
 */
export const loadLocalWatcher = () => import('./local-watcher.ts');
/** The bucket watcher's module, imported by a process that watches a bucket. */
export const loadBucketWatcher = () => import('./bucket-watcher.ts');

export type { BucketWatcher } from './bucket-watcher.ts';
export { startLeaderLease } from './leader-lease.ts';
export type { LocalWatcher, WatchEvent } from './local-watcher.ts';
