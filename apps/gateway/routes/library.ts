import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ALL_QUEUES } from '../../../queues/all-queues.ts';
import { createDocumentDirectory } from '../../../shared/agent/document-directory.ts';
import { IsoDate } from '../../../shared/domain/document.ts';
import { DocId } from '../../../shared/domain/index.ts';
import { scaledAlphas } from '../../../shared/retrieval/index.ts';
import { routedHybrid } from '../../../shared/retrieval/routed-search.ts';
import { and, eq, temporalClamp, type Filter } from '../../../shared/store/filter.ts';
import type { HybridHit } from '../../../shared/store/vector-store.ts';
import { HttpError } from '../http-errors.ts';
import type { GatewayDeps } from '../types.ts';
import { jsonSchema, parseOr400 } from '../validate.ts';

/** `POST /v1/search`: the CLI's `quarry search` over HTTP, plus the facet filters the web app offers. */
export const SearchBody = z
  .object({
    query: z.string().trim().min(1, 'must not be empty').max(2000),
    /** 0 = keyword only, 1 = vector only; absent: the default alpha. */
    alpha: z.number().min(0).max(1).optional(),
    limit: z.number().int().min(1).max(100).default(10),
    docType: z.string().trim().min(1).max(100).optional(),
    jurisdiction: z.string().trim().min(1).max(100).optional(),
    lang: z.string().trim().min(1).max(20).optional(),
    /** Only chunks valid on this date (valid_from ≤ date < valid_to). */
    asOf: IsoDate.optional(),
  })
  .strict();
export type SearchBody = z.infer<typeof SearchBody>;

/** The store filter of a search's facets; undefined when none is set. */
export function searchFilter(body: Pick<SearchBody, 'docType' | 'jurisdiction' | 'lang' | 'asOf'>): Filter | undefined {
  const parts: Filter[] = [];
  if (body.docType) parts.push(eq('doc_type', body.docType));
  if (body.jurisdiction) parts.push(eq('jurisdiction', body.jurisdiction));
  if (body.lang) parts.push(eq('lang', body.lang));
  if (body.asOf) parts.push(temporalClamp(body.asOf));
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : and(...parts);
}

/** A hit as the API shows it: where it is, its score terms, and a snippet (never the vector). */
export function hitView(hit: HybridHit, snippetChars = 300) {
  const c = hit.chunk;
  return {
    chunkId: c.chunk_id,
    docId: c.doc_id,
    sectionPath: c.section_path,
    pages: { start: c.page_start, end: c.page_end },
    docType: c.doc_type ?? null,
    jurisdiction: c.jurisdiction ?? null,
    lang: c.lang ?? null,
    validFrom: c.valid_from ?? null,
    validTo: c.valid_to ?? null,
    score: hit.score,
    terms: { keyword: hit.keywordScore, vector: hit.vectorScore, bm25: hit.bm25, cosine: hit.cosine },
    snippet: c.body.replace(/\s+/g, ' ').slice(0, snippetChars),
  };
}

const DocParams = z.object({ id: DocId });
const ChunkParams = z.object({ id: z.string().uuid() });

/**
 * What the web app reads besides the query routes: `GET /v1/documents` (every document's status),
 * `GET /v1/documents/:id/pdf` (the stored source, streamed), `GET /v1/chunks/:id` (a chunk's text,
 * to highlight a cited passage), `POST /v1/search`, and `GET /v1/queues` (job counts per stage).
 */
export async function libraryRoutes(app: FastifyInstance, deps: GatewayDeps): Promise<void> {

  app.get('/v1/documents', { config: { role: 'query' }, schema: { summary: 'Every document’s ingestion status, newest first' } }, async () => {
    const all = await deps.status.list();
    const shown = all.filter((d) => d.state !== 'deleted').sort((a, b) => b.registeredAt.localeCompare(a.registeredAt));
    return { documents: shown };
  });

  app.get('/v1/documents/:id/pdf', { config: { role: 'query' }, schema: { summary: 'The stored PDF of a document’s current version' } }, async (req, reply) => {
    const { id } = parseOr400(DocParams, req.params, 'params');
    const status = await deps.status.get(id);
    if (!status || status.state === 'deleted') throw new HttpError(404, 'NOT_FOUND', `no document ${id}`);
    if (!(await deps.artifacts.exists(id, status.version, 'source.pdf'))) throw new HttpError(404, 'NOT_FOUND', `document ${id} has no stored PDF`);
    const bytes = await deps.artifacts.getBytes(id, status.version, 'source.pdf');
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

  // A gateway built without the store (some tests) serves the rest of the API without these two.
  const lib = deps.library;
  if (!lib) return;
  const documents = createDocumentDirectory(lib.store);

  app.get('/v1/chunks/:id', { config: { role: 'query' }, schema: { summary: 'A chunk: its text, section path and pages' } }, async (req) => {
    const { id } = parseOr400(ChunkParams, req.params, 'params');
    const [c] = await lib.store.fetchByIds([id]);
    if (!c) throw new HttpError(404, 'NOT_FOUND', `no chunk ${id}`);
    return { chunkId: c.chunk_id, docId: c.doc_id, sectionPath: c.section_path, pages: { start: c.page_start, end: c.page_end }, body: c.body };
  });

  app.post('/v1/search', { config: { role: 'query' }, schema: { summary: 'Hybrid search (keyword + vector) with facet filters; hits with their score terms', body: jsonSchema(SearchBody) } }, async (req) => {
    const body = parseOr400(SearchBody, req.body, 'body');
    const alpha = body.alpha ?? scaledAlphas(lib.alphaScale ?? 1).defaultAlpha;
    const [vector] = await lib.embedder.embed([body.query]);
    if (!vector) throw new HttpError(500, 'INTERNAL', 'the embedder returned no vector');
    const { hits } = await routedHybrid({ store: lib.store, documents }, body.query, { text: body.query, vector, alpha, limit: body.limit, filter: searchFilter(body) });
    return { alpha, hits: hits.map((h) => hitView(h)) };
  });
}
