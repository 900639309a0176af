import type { HybridHit } from '../store/index.ts';
import type { Reranker } from './reranker.ts';

/**
 * Runs `reranker` over hybrid hits and returns each chunk's score by chunk id, ready for
 * `rankCandidates`. The reranker reads the chunk's embedding text (breadcrumb + body), so a
 * heading such as "제2조(정의)" counts as part of the passage, and gets the section heading as
 * the doc's `heading` besides (a document's title when the chunk is the whole document). At most
 * `limit` hits are sent, best hybrid first; the rest get no score (null in `rankCandidates`).
 *
 * @defaultValue limit = all hits
 * @throws whatever the reranker throws (wrap it with `withFallback` to degrade instead).
 */
export async function rerankHits(reranker: Reranker, query: string, hits: readonly HybridHit[], signal?: AbortSignal, limit = hits.length): Promise<Map<string, number>> {
  const docs = [...hits]
    .sort((a, b) => b.score - a.score)
    .slice(0, Math.max(0, limit))
    .map((h) => ({ id: h.chunk.chunk_id, text: h.chunk.embedding_text || h.chunk.body, heading: h.chunk.section }));
  const results = await reranker.rerank(query, docs, signal);
  return new Map(results.map((r) => [r.id, r.score]));
}
