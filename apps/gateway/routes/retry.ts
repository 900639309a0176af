import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DocId } from '../../../shared/domain/index.ts';
import { retryDocument, retryFailedDocuments, type RetryPorts } from '../../../core/documents/index.ts';
import { HttpError } from '../../../core/failures.ts';
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
