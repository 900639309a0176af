import { hybridSearch } from '../cli/commands/search.ts';
import type { RunView } from '../gateway/agent-runs.ts';
import { HttpError } from '../gateway/http-errors.ts';
import type { Embedder } from '../../shared/embed/embedder.ts';
import type { DirectoryEntry } from '../../shared/retrieval/index.ts';
import { and, eq, range } from '../../shared/store/filter.ts';
import type { StoredChunkWithoutVector, VectorStore } from '../../shared/store/vector-store.ts';
import type { StatusStore } from '../../shared/status/status-store.ts';
import type {
  AskRequest,
  AskResult,
  ChunkRequest,
  ChunkResult,
  ChunkView,
  DocumentResult,
  ListDocumentsRequest,
  ListDocumentsResult,
  SearchRequest,
  SearchResult,
} from './schemas.ts';
import { searchFilter } from './schemas.ts';

/** What the MCP tools read and call; the gateway and `quarry mcp` each build one. */
export interface McpDeps {
  store: VectorStore;
  embedder: Embedder;
  status: StatusStore;
  /** Indexed documents with titles and profiles (cached), for titles and document routing. */
  documents(): Promise<DirectoryEntry[]>;
  /** The hybrid weight when a search gives none. */
  defaultAlpha: number;
  /** Enqueues an agent run and waits for it, as `POST /v1/query` does. */
  ask(input: AskRequest): Promise<RunView>;
}

async function titles(deps: Pick<McpDeps, 'documents'>): Promise<Map<string, string>> {
  return new Map((await deps.documents()).map((d) => [d.doc_id, d.title]));
}

/**
 * `search`: one hybrid search as `quarry search` runs it (document routing first, nothing
 * filtered out but by the filters asked), each hit with its score terms.
 * @throws Error when the embedder returns no vector; the store's errors as they are.
 */
export async function searchTool(deps: McpDeps, req: SearchRequest): Promise<SearchResult> {
  const alpha = req.alpha ?? deps.defaultAlpha;
  const hits = await hybridSearch(deps, req.query, { alpha, limit: req.limit, filter: searchFilter(req.filters) });
  const names = await titles(deps);
  return {
    query: req.query,
    alpha,
    hits: hits.map((h, i) => ({
      rank: i + 1,
      chunkId: h.chunk.chunk_id,
      docId: h.chunk.doc_id,
      title: names.get(h.chunk.doc_id) ?? null,
      sectionPath: h.chunk.section_path,
      pages: { start: h.chunk.page_start, end: h.chunk.page_end },
      validFrom: h.chunk.valid_from,
      validTo: h.chunk.valid_to,
      scores: { fused: h.score, keyword: h.keywordScore, vector: h.vectorScore },
      text: h.chunk.body,
    })),
  };
}

/**
 * `ask`: an agent run through the queue, waited for like `POST /v1/query`.
 * @throws HttpError `TIMEOUT` when the run is still going (its id is in the message), or the
 *   run's own error code when it failed.
 */
export async function askTool(deps: McpDeps, req: AskRequest): Promise<AskResult> {
  const run = await deps.ask(req);
  if (run.state === 'completed' && run.answer) {
    const a = run.answer;
    return { runId: run.runId, text: a.text, citations: a.citations, dateQualifier: a.dateQualifier, asOf: a.asOf, validated: a.validated };
  }
  if (run.state === 'failed') throw new HttpError(500, run.error?.code ?? 'INTERNAL', run.error?.message ?? 'the run failed');
  throw new HttpError(504, 'TIMEOUT', `run ${run.runId} is still ${run.state}: read it later at GET /v1/runs/${run.runId}`);
}

/**
 * `get_document`: a document's status record and its indexed Document row.
 * @throws HttpError `NOT_FOUND` for an unknown document.
 */
export async function getDocumentTool(deps: McpDeps, docId: string): Promise<DocumentResult> {
  const status = await deps.status.get(docId);
  if (!status) throw new HttpError(404, 'NOT_FOUND', `no document ${docId}`);
  const doc = await deps.store.getDocument(docId);
  return { docId, title: doc?.title ?? null, status, document: doc ? { ...doc } : null };
}

const CHUNK_FIELDS = ['chunk_id', 'doc_id', 'version', 'chunk_index', 'total_chunks', 'section_path', 'page_start', 'page_end', 'valid_from', 'valid_to', 'body'] as const;

function chunkView(c: Pick<StoredChunkWithoutVector, (typeof CHUNK_FIELDS)[number]>): ChunkView {
  return {
    chunkId: c.chunk_id,
    docId: c.doc_id,
    version: c.version,
    chunkIndex: c.chunk_index,
    totalChunks: c.total_chunks,
    sectionPath: c.section_path,
    pages: { start: c.page_start, end: c.page_end },
    validFrom: c.valid_from,
    validTo: c.valid_to,
    text: c.body,
  };
}

/**
 * `get_chunk`: a chunk and its neighbours of the same document version by chunk_index, for
 * reading a cited passage in context.
 * @throws HttpError `NOT_FOUND` for an unknown chunk id.
 */
export async function getChunkTool(deps: McpDeps, req: ChunkRequest): Promise<ChunkResult> {
  const [found] = await deps.store.fetchByIds([req.chunkId]);
  if (!found) throw new HttpError(404, 'NOT_FOUND', `no chunk ${req.chunkId}`);
  const around: ChunkView[] = [];
  if (req.neighbours > 0) {
    const filter = and(
      eq('doc_id', found.doc_id),
      eq('version', found.version),
      range('chunk_index', { gte: found.chunk_index - req.neighbours, lte: found.chunk_index + req.neighbours }),
    );
    for await (const c of deps.store.scanChunks({ fields: CHUNK_FIELDS, filter })) if (c.chunk_id !== found.chunk_id) around.push(chunkView(c));
  }
  around.sort((a, b) => a.chunkIndex - b.chunkIndex);
  return {
    chunk: chunkView(found),
    before: around.filter((c) => c.chunkIndex < found.chunk_index),
    after: around.filter((c) => c.chunkIndex > found.chunk_index),
  };
}

/** `list_documents`: one page of status records in registration order, with titles of the indexed ones. */
export async function listDocumentsTool(deps: McpDeps, req: ListDocumentsRequest): Promise<ListDocumentsResult> {
  const all = await deps.status.list();
  const page = all.slice(req.offset, req.offset + req.limit);
  // Read each row, not the cached directory: a document indexed a moment ago shows its title.
  const names = new Map<string, string>();
  await Promise.all(
    page.map(async (st) => {
      const doc = st.state === 'indexed' ? await deps.store.getDocument(st.docId) : null;
      if (doc) names.set(st.docId, doc.title);
    }),
  );
  const end = req.offset + page.length;
  return {
    total: all.length,
    offset: req.offset,
    nextOffset: end < all.length ? end : null,
    documents: page.map((s) => ({
      docId: s.docId,
      title: names.get(s.docId) ?? null,
      state: s.state,
      stage: s.stage,
      progress: s.progress,
      pages: s.pageCount,
      chunks: s.chunkCount,
      error: s.errorCode ? { code: s.errorCode, message: s.errorMessage ?? '' } : null,
    })),
  };
}
