/**
 * The agent keeps what its search found (issue 29). Routing to the documents a question names is
 * a prior, not a gate: when the broad search's best hits come from documents the routed branch
 * left out but nothing rules out (a release without a profile, another period of the same
 * company), those hits join the ranking and keep a place in the top 10; and an answer leads with
 * the best passage of a named document when one is near the top. Pure.
 */
import { broadEvidenceDocs, type QueryScope } from '../retrieval/index.ts';
import type { HybridHit } from '../store/index.ts';

/** Broad hits looked at for evidence the branch lost. */
export const BROAD_EVIDENCE_WITHIN = 5;
/** Broad hits of such documents that join the ranking. */
const BROAD_EVIDENCE_HITS = 40;
/** Places within which a named document's passage may be moved to lead the answer. */
export const LEAD_WITHIN = 10;

/** What the ranking reads: the branch's hits, and the broad evidence it would otherwise lose. */
export interface EvidencePool {
  hits: HybridHit[];
  /** Documents whose broad hits were added, for coverage and the trace. */
  broadDocs: string[];
}

/**
 * The candidates to rank: without a routed branch, the broad ones; with one, its hits plus the
 * broad hits (at most 40) of the documents among the broad search's five best that routing did
 * not rule out ({@link broadEvidenceDocs}).
 */
export function evidencePool(scope: QueryScope | null, narrowed: readonly HybridHit[] | null, broad: readonly HybridHit[], routedBranch: boolean): EvidencePool {
  if (!narrowed) return { hits: [...broad], broadDocs: [] };
  if (!scope || !routedBranch) return { hits: [...narrowed], broadDocs: [] };
  const broadDocs = broadEvidenceDocs(scope, broad, BROAD_EVIDENCE_WITHIN);
  if (broadDocs.length === 0) return { hits: [...narrowed], broadDocs };
  const seen = new Set(narrowed.map((h) => h.chunk.chunk_id));
  const wanted = new Set(broadDocs);
  const extra = broad.filter((h) => wanted.has(h.chunk.doc_id) && !seen.has(h.chunk.chunk_id)).slice(0, BROAD_EVIDENCE_HITS);
  return { hits: [...narrowed, ...extra], broadDocs };
}

/**
 * Moves the best-placed passage of a named document to the front when the first passage is not
 * one and that passage lies within `within` places: the question is about that document, and the
 * search put it near the top. Returns the list unchanged (and `led` null) otherwise.
 */
export function leadWithNamed<T>(ranked: readonly T[], docIds: readonly string[], docOf: (item: T) => string, within = LEAD_WITHIN): { items: T[]; led: number | null } {
  const wanted = new Set(docIds);
  const first = ranked[0];
  if (wanted.size === 0 || first === undefined || wanted.has(docOf(first))) return { items: [...ranked], led: null };
  const at = ranked.findIndex((x, i) => i < within && wanted.has(docOf(x)));
  if (at <= 0) return { items: [...ranked], led: null };
  const items = [...ranked];
  const [moved] = items.splice(at, 1);
  items.unshift(moved as T);
  return { items, led: at + 1 };
}

/**
 * The passages an answer draws on: those of the named documents first, in rank order, then the
 * others, without those of documents the question rules out once a named document has a
 * passage. When the named period reads two ways and the ranking holds more than one reading's
 * document, only each one's best two passages, in turn (the answer then quotes each reading). The ranking itself (what the trace and recall read)
 * keeps every document where it placed it.
 */
export function answerPassages<T>(ranked: readonly T[], scope: Pick<QueryScope, 'docIds' | 'excluded' | 'ambiguousPeriod'>, docOf: (item: T) => string): T[] {
  const wanted = new Set(scope.docIds);
  if (wanted.size === 0) return [...ranked];
  const named = ranked.filter((x) => wanted.has(docOf(x)));
  if (named.length === 0) return [...ranked];
  const ruledOut = new Set(scope.excluded ?? []);
  const others = ranked.filter((x) => !wanted.has(docOf(x)) && !ruledOut.has(docOf(x)));
  const byDoc = new Map<string, T[]>();
  for (const x of named) byDoc.set(docOf(x), [...(byDoc.get(docOf(x)) ?? []), x]);
  if (!scope.ambiguousPeriod || byDoc.size < 2) return [...named, ...others];
  // Each reading's document answers with its best passages, in turn: an answer drawn from more
  // of one of them would quote that reading alone.
  const turns: T[] = [];
  for (let i = 0; i < AMBIGUOUS_PER_READING; i += 1) for (const list of byDoc.values()) if (list[i] !== undefined) turns.push(list[i] as T);
  return turns;
}

/** Passages per reading's document an answer to an ambiguous period draws on. */
const AMBIGUOUS_PER_READING = 2;
