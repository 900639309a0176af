import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ALL_QUEUES } from '../../../core/queues.ts';
import { DocId } from '../../../shared/domain/index.ts';
import { readChunk } from '../../../core/chunks.ts';
import type { UseCaseDeps } from '../../../core/deps.ts';
import { createDocumentLibrary, storedPdf } from '../../../core/documents/index.ts';
import { SearchRequest } from '../../../core/schemas.ts';
import { searchPassages } from '../../../core/search.ts';
import { chunkLineRoutes } from './chunk-lines.ts';
import type { GatewayDeps } from '../types.ts';
import { jsonSchema, parseOr400 } from '../validate.ts';

const DocParams = z.object({ id: DocId });
const ChunkParams = z.object({ id: z.string().uuid() });

/**
 * What the web app reads besides the query routes: `GET /v1/documents` (every document's status
 * and whether a retry would run it),
 * `GET /v1/documents/:id/pdf` (the stored source, streamed), `GET /v1/chunks/:id` (a chunk's text,
 * shown under an answer and matched to highlight a cited passage when its lines are not known, and
 * its table as data when it holds one), `GET /v1/chunks/:id/lines` (where
 * its lines were printed: routes/chunk-lines.ts), `POST /v1/search`, and `GET /v1/queues` (job
 * counts per stage).
 */
export async function libraryRoutes(app: FastifyInstance, deps: GatewayDeps, search: UseCaseDeps): Promise<void> {
  const library = createDocumentLibrary(deps);
  app.get(
    '/v1/documents',
    { config: { role: 'query' }, schema: { summary: 'Every document’s ingestion status, newest first; `retryable` when POST /v1/documents/:id/retry would run it again' } },
    async () => ({ documents: await library() }),
  );

  app.get('/v1/documents/:id/pdf', { config: { role: 'query' }, schema: { summary: 'The stored PDF of a document’s current version' } }, async (req, reply) => {
    const { id } = parseOr400(DocParams, req.params, 'params');
    const bytes = await storedPdf(deps, id);
    // Private: the PDF is served under the caller's key, so no shared cache may keep it.
    return reply
      .header('content-type', 'application/pdf')
      .header('cache-control', 'private, max-age=300')
      .header('content-length', String(bytes.byteLength))
      .send(Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]));
  });

  app.get('/v1/queues', { config: { role: 'query' }, schema: { summary: 'Job counts per queue (stage)' } }, async () => {
    const queues = await Promise.all(ALL_QUEUES.map(async (q) => ({ queue: q.name, counts: { ...(await deps.queues.counts(q)) } })));
    return { queues };
  });

  app.get('/v1/chunks/:id', { config: { role: 'query' }, schema: { summary: 'A chunk: its text, section path and pages, and its table as data when it holds one' } }, async (req) => {
    const { id } = parseOr400(ChunkParams, req.params, 'params');
    return readChunk(search, id);
  });
  await chunkLineRoutes(app, search.store, deps.artifacts);

  app.post(
    '/v1/search',
    { config: { role: 'query' }, schema: { summary: 'Hybrid search (keyword + vector) with filters, as the MCP search tool; hits with their score terms', body: jsonSchema(SearchRequest) } },
    async (req) => searchPassages(search, parseOr400(SearchRequest, req.body, 'body')),
  );
}
