import type { Config } from '../../shared/config/index.ts';
import type { Logger } from '../../shared/telemetry/index.ts';
import { startReconciler, type Ports, type Reconciler } from '../../workers/runtime/index.ts';
import { listFolderSourceKeys } from '../../core/sources/index.ts';

/** How soon a file still without a status record after a rescan triggers another one. */
const RESCAN_AGAIN_MS = 10 * 60_000;

/**
 * The reconciler of a service holding the watcher lease (null when RECONCILE_INTERVAL_MS is 0).
 * With a watched folder it also registers files that have no status record: `rescanFolder`
 * restarts the folder watcher, whose initial scan registers every file through the usual checks
 * (unchanged files cost a read and a hash, and it happens only after a loss). A watched bucket
 * needs no listing here: its cursor sits in the same Redis, is lost with the status records, and
 * the next poll then registers every object again.
 */
export function startServiceReconciler(config: Config, ports: Ports, log: Logger, opts: { rescanFolder: (() => Promise<void>) | null }): Reconciler | null {
  if (config.reconcile.intervalMs === 0) return null;
  const folderRescan = opts.rescanFolder;
  // A file the watcher cannot register at all (unreadable, say) stays without a status: rescan
  // for it once per RESCAN_AGAIN_MS, not on every pass (a rescan reads and hashes every file).
  const tried = new Map<string, number>();
  const rescan = folderRescan
    ? async (keys: string[]) => {
        const now = Date.now();
        if (keys.every((k) => now - (tried.get(k) ?? -Infinity) < RESCAN_AGAIN_MS)) return;
        for (const k of keys) tried.set(k, now);
        await folderRescan();
      }
    : null;
  return startReconciler({
    status: ports.status,
    queues: ports.queues,
    log: log.child({ component: 'reconciler' }),
    graceMs: config.reconcile.graceMs,
    intervalMs: config.reconcile.intervalMs,
    sources: rescan ? { listKeys: () => listFolderSourceKeys(config.watchDir), register: rescan } : undefined,
  });
}
