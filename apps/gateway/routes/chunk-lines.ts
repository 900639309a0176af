import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ArtifactJson, ArtifactStore } from '../../../shared/artifacts/index.ts';
import type { ExtractedDocument, LineSpan } from '../../../shared/domain/index.ts';
import { PermanentError } from '../../../shared/errors.ts';
import type { VectorStore } from '../../../shared/store/index.ts';
import type { ChunkLines, PrintedLine } from '../../../core/chunk-lines.ts';
import { HttpError } from '../../../core/failures.ts';
import { jsonSchema, parseOr400 } from '../validate.ts';

export type { ChunkLines, PrintedLine };

const INEXACT: ChunkLines = { lines: [], exact: false };

const ChunkParams = z.object({ id: z.string().uuid() });
// Digits only: Number('') is 0 and Number(' 1e3 ') is 1000, neither of which anyone meant.
const Offset = z.string().regex(/^\d{1,9}$/, 'a body offset: a whole number, 0 or more').transform(Number);

/** `?from=&to=`: a quoted range `[from, to)` of the chunk's body; either end may be left open. */
export const ChunkLinesQuery = z
  .object({ from: Offset.optional(), to: Offset.optional() })
  .strict()
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: 'must not be before from', path: ['to'] });
export type ChunkLinesQuery = z.infer<typeof ChunkLinesQuery>;

/**
 * The printed lines `spans` (one chunk's, in body offsets) come from, in body order, each once;
 * with `from`/`to`, only those whose text overlaps the body's `[from, to)` (an empty range, the
 * line holding `from`). Line indexes are the document's reading-order lines, pages in order and
 * each page's lines in order, as shared/sectionize/flat-lines.ts numbers them. Inexact when a line
 * is not in `doc` (artifacts of another extraction) or has no width (extracted before widths were
 * kept): a box guessed wrong is worse than the text-matching fallback.
 */
export function printedLines(spans: readonly LineSpan[], doc: ExtractedDocument, range: ChunkLinesQuery = {}): ChunkLines {
  const from = range.from ?? 0;
  const to = Math.max(range.to ?? Infinity, from + 1);
  const wanted = [...new Set(spans.filter(([start, end]) => start < to && end > from).map((s) => s[3]))];
  const flat = doc.pages.flatMap((page) => page.lines.map((line) => ({ page: page.number, line })));
  const lines: PrintedLine[] = [];
  for (const index of wanted) {
    const at = flat[index];
    if (!at || at.line.width === undefined) return INEXACT;
    lines.push({ page: at.page, x: at.line.x, y: at.line.y, width: at.line.width, height: at.line.fontSize });
  }
  return { lines, exact: true };
}

/** Reads an artifact, or null when it is gone or was written in a shape today's code cannot read. */
async function readOrNull<N extends 'chunks.json' | 'extracted.json'>(artifacts: ArtifactStore, docId: string, version: string, name: N): Promise<ArtifactJson<N> | null> {
  try {
    return await artifacts.getJson(docId, version, name);
  } catch (err) {
    if (err instanceof PermanentError && (err.code === 'ARTIFACT_MISSING' || err.code === 'INVALID_PAYLOAD')) return null;
    throw err;
  }
}

/**
 * A stored chunk's printed lines, from its version's `chunks.json` (spans) and `extracted.json`
 * (positions). The chunk is found at its `chunk_index`, or by id should the two disagree.
 */
export async function chunkLines(
  artifacts: ArtifactStore,
  chunk: { chunk_id: string; doc_id: string; version: string; chunk_index: number },
  range: ChunkLinesQuery = {},
): Promise<ChunkLines> {
  const written = await readOrNull(artifacts, chunk.doc_id, chunk.version, 'chunks.json');
  if (!written?.spans) return INEXACT;
  const k = written.chunks[chunk.chunk_index]?.chunk_id === chunk.chunk_id ? chunk.chunk_index : written.chunks.findIndex((c) => c.chunk_id === chunk.chunk_id);
  const spans = k >= 0 ? written.spans[k] : undefined;
  if (!spans || spans.length === 0) return INEXACT;
  const doc = await readOrNull(artifacts, chunk.doc_id, chunk.version, 'extracted.json');
  return doc ? printedLines(spans, doc, range) : INEXACT;
}

/** `GET /v1/chunks/:id/lines?from=&to=`: where a chunk's lines (or a quote's) were printed, for the viewer's highlights. */
export async function chunkLineRoutes(app: FastifyInstance, store: VectorStore, artifacts: ArtifactStore): Promise<void> {
  app.get(
    '/v1/chunks/:id/lines',
    {
      config: { role: 'query' },
      schema: {
        summary: 'Where a chunk’s printed lines are on its pages (PDF points); ?from=&to= (body offsets) keeps the lines a quote covers. exact: false when unknown',
        querystring: jsonSchema(ChunkLinesQuery),
      },
    },
    async (req): Promise<ChunkLines> => {
      const { id } = parseOr400(ChunkParams, req.params, 'params');
      const range = parseOr400(ChunkLinesQuery, req.query, 'query');
      const [chunk] = await store.fetchByIds([id]);
      if (!chunk) throw new HttpError(404, 'NOT_FOUND', `no chunk ${id}`);
      return chunkLines(artifacts, chunk, range);
    },
  );
}
