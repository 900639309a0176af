import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ArtifactStore } from '../../../shared/artifacts/artifact-store.ts';
import { DocId } from '../../../shared/domain/index.ts';
import { createLru } from '../../../shared/lru.ts';
import type { DocStatus } from '../../../shared/status/doc-status.ts';
import { retryDocument, retryFailedDocuments, type RetryPorts } from '../../../workers/runtime/retry-documents.ts';
import { HttpError } from '../http-errors.ts';
import { parseOr400 } from '../validate.ts';

const DocParams = z.object({ id: DocId });

/**
 * `POST /v1/documents/:id/retry` and `POST /v1/documents/retry-failed` (admin key): failed
 * documents run again from their stored source under a new generation (see retryDocument).
 * Answers 202 once extraction is enqueued; 404 for an unknown document, 409 for one that is not
 * failed or has no stored source.
 */
export async function retryRoutes(app: FastifyInstance, ports: RetryPorts): Promise<void> {
  app.post('/v1/documents/:id/retry', { config: { role: 'admin' }, schema: { summary: 'Run a failed document again from its stored source' } }, async (req, reply) => {
    const { id } = parseOr400(DocParams, req.params, 'params');
    const r = await retryDocument(ports, id);
    if (!r) throw new HttpError(404, 'NOT_FOUND', `no document ${id}`);
    if (!r.retried) throw new HttpError(409, r.reason === 'not_failed' ? 'NOT_FAILED' : 'NO_STORED_SOURCE', r.message);
    return reply.status(202).send({ docId: id, state: 'queued', links: { self: `/v1/documents/${id}` } });
  });

  app.post('/v1/documents/retry-failed', { config: { role: 'admin' }, schema: { summary: 'Run every failed document again from its stored source' } }, async (_req, reply) => {
    const outcomes = await retryFailedDocuments(ports);
    return reply.status(202).send({
      retried: outcomes.filter((r) => r.retried).map((r) => r.docId),
      skipped: outcomes.flatMap((r) => (r.retried ? [] : [{ docId: r.docId, code: r.reason === 'not_failed' ? 'NOT_FAILED' : 'NO_STORED_SOURCE', message: r.message }])),
    });
  });
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
