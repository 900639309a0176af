/**
 * Chunks: a passage by id, for reading a citation in context (the MCP `get_chunk` tool) or showing
 * it under an answer (`GET /v1/chunks/:id`, the web app).
 */
import { and, eq, range, type StoredChunkWithoutVector, type VectorStore } from '../shared/store/index.ts';
import { HttpError } from './failures.ts';
import type { ChunkRequest, ChunkResult, ChunkView } from './schemas.ts';

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
 * A chunk and its neighbours of the same document version by chunk_index, for reading a cited
 * passage in context.
 * @throws HttpError `NOT_FOUND` for an unknown chunk id.
 */
export async function getChunk(deps: { store: VectorStore }, req: ChunkRequest): Promise<ChunkResult> {
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

/**
 * A chunk as the web app shows it: its text, section path and pages, and its table as data when it
 * holds one (the app draws a cited table from it; its body is the same table as Markdown).
 * @throws HttpError `NOT_FOUND` for an unknown chunk id.
 */
export async function readChunk(deps: { store: VectorStore }, id: string) {
  const [c] = await deps.store.fetchByIds([id]);
  if (!c) throw new HttpError(404, 'NOT_FOUND', `no chunk ${id}`);
  return { chunkId: c.chunk_id, docId: c.doc_id, sectionPath: c.section_path, pages: { start: c.page_start, end: c.page_end }, body: c.body, ...(c.table ? { table: c.table } : {}) };
}
