/**
 * Search: one hybrid search, the raw retrieval before any agent logic. `quarry search`, the MCP
 * `search` tool, `POST /v1/search` (the web app's Search page) and the demo all run this one.
 */
import type { Embedder } from '../shared/embed/index.ts';
import { routedHybrid, type DirectoryEntry } from '../shared/retrieval/index.ts';
import type { Filter, HybridHit, VectorStore } from '../shared/store/index.ts';
import type { UseCaseDeps } from './deps.ts';
import { searchFilter, type SearchRequest, type SearchResult } from './schemas.ts';

/**
 * Embeds the query and runs one hybrid search. With `documents`, a question naming organisations,
 * periods or forms gets those documents' hits first (`routedHybrid`; nothing is filtered out but
 * by `filter`).
 * @throws Error when the embedder returns no vector; the store's errors as they are.
 */
export async function hybridSearch(
  deps: { embedder: Embedder; store: VectorStore; documents?: () => Promise<DirectoryEntry[]> },
  text: string,
  opts: { alpha: number; limit: number; filter?: Filter },
): Promise<HybridHit[]> {
  const [vector] = await deps.embedder.embed([text]);
  if (!vector) throw new Error('the embedder returned no vector');
  const q = { text, vector, alpha: opts.alpha, limit: opts.limit, filter: opts.filter };
  if (!deps.documents) return deps.store.hybrid(q);
  return (await routedHybrid({ store: deps.store, documents: deps.documents }, text, q)).hits;
}

/** Document titles by id, from the cached directory. */
export async function titles(deps: Pick<UseCaseDeps, 'documents'>): Promise<Map<string, string>> {
  return new Map((await deps.documents()).map((d) => [d.doc_id, d.title]));
}

/**
 * A search request answered as the API shows it: document routing first (nothing filtered out
 * but by the filters asked), each hit with its rank, title, place and score terms.
 * @throws Error when the embedder returns no vector; the store's errors as they are.
 */
export async function searchPassages(deps: UseCaseDeps, req: SearchRequest): Promise<SearchResult> {
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
