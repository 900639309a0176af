import { extractQueue } from '../../queues/ingest.queues.ts';
import type { QueueClient } from '../../queues/queue-client.ts';
import type { ArtifactStore } from '../../shared/artifacts/index.ts';
import { createLru } from '../../shared/lru.ts';
import type { DocStatus, StatusStore } from '../../shared/status/index.ts';

/** What a retry did for one document. */
export type RetryOutcome =
  | { docId: string; retried: true; gen: number }
  | { docId: string; retried: false; reason: 'not_failed' | 'no_stored_source'; message: string };

export interface RetryPorts {
  status: StatusStore;
  queues: QueueClient;
  artifacts: ArtifactStore;
}

/**
 * Runs a failed document again from its stored source (`<doc>/<version>/source.pdf`, kept since
 * registration): registers the same version again with force, which gives it a new generation
 * and so fresh job ids, and enqueues extraction. A document that is not failed is left alone; one
 * refused before its bytes were stored (too large, not a PDF, a link) has nothing to re-run: the
 * fixed file, dropped again, registers it.
 * @returns null when the document is not registered.
 */
export async function retryDocument(ports: RetryPorts, docId: string): Promise<RetryOutcome | null> {
  const s = await ports.status.get(docId);
  if (!s) return null;
  if (s.state !== 'failed') return { docId, retried: false, reason: 'not_failed', message: `document ${docId} is ${s.state}, not failed` };
  if (!(await ports.artifacts.exists(docId, s.version, 'source.pdf'))) {
    return { docId, retried: false, reason: 'no_stored_source', message: `document ${docId} has no stored source (${s.errorCode ?? 'refused'}): fix the file and drop it again` };
  }
  const { gen } = await ports.status.register({ docId, sourceKey: s.sourceKey, version: s.version, force: true });
  await ports.queues.enqueue(extractQueue, { docId, version: s.version, gen });
  return { docId, retried: true, gen };
}

/** {@link retryDocument} for every failed document. */
export async function retryFailedDocuments(ports: RetryPorts): Promise<RetryOutcome[]> {
  const failed = (await ports.status.list()).filter((s) => s.state === 'failed');
  const out: RetryOutcome[] = [];
  for (const s of failed) {
    const r = await retryDocument(ports, s.docId);
    if (r) out.push(r);
  }
  return out;
}

/**
 * Whether `POST /v1/documents/:id/retry` would run the document again (202) rather than refuse it
 * (409), by retryDocument's own rule: a failed document whose source was stored. A source refused
 * before it was read (TOO_LARGE, NOT_A_PDF, SYMLINK_REFUSED) or whose metadata was rejected never
 * was: only a fixed file, dropped again, can register it.
 */
export function isRetryable(s: Pick<DocStatus, 'state'>, hasStoredSource: boolean): boolean {
  return s.state === 'failed' && hasStoredSource;
}

/** How many (document, version) pairs {@link createRetryableCheck} remembers as having a stored source. */
const STORED_SOURCES_KEPT = 10_000;

/**
 * Marks each document `retryable` (see {@link isRetryable}) for the list the web app polls. Only
 * failed documents are looked up, and a version's stored source, once seen, is remembered: it
 * stays until the document is deleted, so the poll does not ask the artifact store every second.
 */
export function createRetryableCheck(artifacts: Pick<ArtifactStore, 'exists'>): <D extends DocStatus>(docs: D[]) => Promise<(D & { retryable: boolean })[]> {
  const stored = createLru<string, true>(STORED_SOURCES_KEPT);
  async function hasStoredSource(d: DocStatus): Promise<boolean> {
    const key = `${d.docId}|${d.version}`;
    if (stored.get(key)) return true;
    const found = await artifacts.exists(d.docId, d.version, 'source.pdf');
    if (found) stored.set(key, true);
    return found;
  }
  return (docs) => Promise.all(docs.map(async (d) => ({ ...d, retryable: d.state === 'failed' ? isRetryable(d, await hasStoredSource(d)) : false })));
}
