/**
 * A document's status record (one Redis hash, conditional atomic writes: the status-*.lua
 * scripts, defined in status-scripts.ts) and the document lock.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: createStatusStore and StatusStore, DocStatus and isSettled, withDocLock.
 */

export { withDocLock } from './doc-lock.ts';
export { DocStatus, isSettled } from './doc-status.ts';
export { createStatusStore, type StageUpdate, type StatusStore } from './status-store.ts';
