import { INGEST_QUEUES, type QueueClient, type QueueDefinition } from '../../core/queues.ts';
import { isSettled, type DocStatus, type StatusStore } from '../../shared/status/index.ts';

/**
 * Polls status records until every listed document (or every registered one) has settled —
 * indexed, failed or deleted — and returns them.
 * @throws Error naming the unsettled documents when `timeoutMs` passes.
 */
export async function waitForSettled(
  status: StatusStore,
  opts: { docIds?: readonly string[]; timeoutMs: number; intervalMs?: number; onTick?: (s: DocStatus[]) => void },
): Promise<DocStatus[]> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const all = await status.list();
    const wanted = opts.docIds ? all.filter((s) => opts.docIds?.includes(s.docId)) : all;
    opts.onTick?.(wanted);
    const missing = opts.docIds ? opts.docIds.length - wanted.length : 0;
    if (missing === 0 && wanted.every(isSettled)) return wanted;
    if (Date.now() > deadline) {
      const open = wanted.filter((s) => !isSettled(s)).map((s) => `${s.docId} (${s.state} at ${s.stage})`);
      throw new Error(`timed out after ${opts.timeoutMs} ms waiting for: ${open.join(', ') || `${missing} unregistered`}`);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 200));
  }
}

/** Jobs not yet finished across queues: waiting, prioritized, active or delayed. */
export async function openJobs(queues: QueueClient, defs: readonly QueueDefinition[] = INGEST_QUEUES): Promise<number> {
  const all = await Promise.all(defs.map((q) => queues.counts(q)));
  return all.reduce((n, c) => n + c.waiting + c.prioritized + c.active + c.delayed, 0);
}

/** Waits until no ingest job is waiting, active or delayed. @throws Error after `timeoutMs`. */
export async function waitForDrained(queues: QueueClient, timeoutMs: number, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await openJobs(queues);
    if (open === 0) return;
    if (Date.now() > deadline) throw new Error(`queues not drained after ${timeoutMs} ms: ${open} jobs open`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
