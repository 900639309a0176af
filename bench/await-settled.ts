import type { DocStatus } from '../shared/status/doc-status.ts';
import { isSettled } from '../shared/status/doc-status.ts';

/** The one status read the wait needs. */
export interface StatusReader {
  get(docId: string): Promise<DocStatus | null>;
}

/**
 * Waits until every document in `docIds` is settled (indexed, failed …), polling cheaply so the
 * harness does not slow what it measures: each tick reads the documents in registration order
 * and stops at the first one still running (documents settle roughly in that order), so a tick
 * costs one status read plus one per document that settled since the last, not one per document
 * still pending. Returns the final statuses in `docIds` order and the reads made (the profile
 * leaves them out of its Redis figures).
 * @throws Error when they are not all settled within `timeoutMs`.
 */
export async function awaitSettled(
  status: StatusReader,
  docIds: readonly string[],
  opts: { timeoutMs: number; intervalMs: number },
): Promise<{ statuses: DocStatus[]; reads: number }> {
  const deadline = Date.now() + opts.timeoutMs;
  const settled: DocStatus[] = [];
  let reads = 0;
  while (settled.length < docIds.length) {
    const s = await status.get(docIds[settled.length] as string);
    reads += 1;
    if (s && isSettled(s)) {
      settled.push(s);
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${opts.timeoutMs} ms: ${docIds.length - settled.length} of ${docIds.length} documents not settled`);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs));
  }
  return { statuses: settled, reads };
}
