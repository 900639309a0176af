/**
 * Hybrid search with document routing, for callers without the agent (`quarry search`, the
 * evaluation's hybrid mode): when the question names organisations, a period or a form that
 * indexed documents match (see `routeQuery`), the hits of those documents come first and each of
 * them gets a place in the top 10, as does the broad search's best evidence that routing does not
 * rule out; every other hit follows in its own order. Nothing is filtered out: a question routed
 * wrongly still finds its passage, one place further down.
 */
import { and, isIn, type HybridHit, type HybridQuery, type VectorStore } from '../store/index.ts';
import { coverDocuments } from './document-coverage.ts';
import { routeQuery, type DirectoryEntry, type QueryScope } from './document-routing.ts';

/** What {@link routedHybrid} needs. */
export interface RoutedSearchDeps {
  store: Pick<VectorStore, 'hybrid'>;
  /** The indexed documents with their profiles (cached: see `createDocumentDirectory`). */
  documents(): Promise<DirectoryEntry[]>;
}

/** Places within which every routed document gets a hit. */
const COVER_WITHIN = 10;

/**
 * Documents among the broad search's best hits that routing left out of the branch but does not
 * rule out (the named organisation's release without a profile, another period of it): the
 * evidence a narrowed search must not lose. At most `within` hits are looked at.
 */
export function broadEvidenceDocs(scope: QueryScope, broad: readonly HybridHit[], within = 5): string[] {
  const routed = new Set(scope.docIds);
  const excluded = new Set(scope.excluded ?? []);
  const out: string[] = [];
  for (const h of broad.slice(0, within)) {
    const doc = h.chunk.doc_id;
    if (!routed.has(doc) && !excluded.has(doc) && !out.includes(doc)) out.push(doc);
  }
  return out;
}

/**
 * Runs `q` twice when `question` routes to documents — narrowed to them and broad, in parallel —
 * and returns the narrowed hits first, then the broad hits not already there, at most `q.limit`;
 * every routed document, and every document among the broad search's five best hits that routing
 * does not rule out ({@link broadEvidenceDocs}), keeps a hit in the top 10. Routing is a prior,
 * not a gate. Without routing it is one `store.hybrid(q)`.
 *
 * @throws whatever `store.hybrid` or `documents` throws.
 */
export async function routedHybrid(deps: RoutedSearchDeps, question: string, q: HybridQuery): Promise<{ hits: HybridHit[]; scope: QueryScope | null }> {
  const scope = routeQuery(question, await deps.documents());
  if (scope.docIds.length === 0) return { hits: await deps.store.hybrid(q), scope: null };
  const only = isIn('doc_id', scope.docIds);
  const [narrowed, broad] = await Promise.all([deps.store.hybrid({ ...q, filter: q.filter ? and(q.filter, only) : only }), deps.store.hybrid(q)]);
  const seen = new Set(narrowed.map((h) => h.chunk.chunk_id));
  const merged = [...narrowed, ...broad.filter((h) => !seen.has(h.chunk.chunk_id))];
  const cover = [...scope.docIds, ...broadEvidenceDocs(scope, broad)];
  const covered = cover.length > 1 ? coverDocuments(merged, cover, (h) => h.chunk.doc_id, COVER_WITHIN).items : merged;
  return { hits: covered.slice(0, q.limit), scope };
}
