export { withDocLock } from './doc-lock.ts';
export { DocStatus, isSettled } from './doc-status.ts';
export { createStatusStore, type StageUpdate, type StatusStore } from './status-store.ts';
