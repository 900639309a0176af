import { createSeededRng, detectInstructionLike, provisionMatcher, rankCandidates, rerankHits, type InstructionLikeResult, type RankedCandidate, type Reranker } from '../retrieval/index.ts';
import { createLru } from '../lru.ts';
import { sha256Hex } from '../domain/index.ts';
import type { HybridHit, VectorStore } from '../store/index.ts';
import type { AgentDeps } from './deps.ts';

/** Instruction-like verdicts kept per ranking (~10 MB at most: an id, cue names and a number each). */
const INSTRUCTION_VERDICTS_CACHED = 50_000;

/**
 * The agent's rerank_diversify step with real parts: the reranker scores the candidates, their
 * vectors (for MMR) come with the hits or, for hits without one, from the store, and the
 * ranking adds priors and memory. Shared by the
 * agent worker and the evaluation harness, so both rank the same way.
 */
export function createAgentRanking(deps: { reranker: Reranker; store: Pick<VectorStore, 'fetchByIds'> }): AgentDeps['rank'] {
  // Chunk ids are content-addressed (a changed body is a new id): a verdict on an id never goes
  // stale, and the same chunks come back question after question.
  const verdicts = createLru<string, InstructionLikeResult>(INSTRUCTION_VERDICTS_CACHED);
  const instructionLike = (chunkId: string, body: string) => {
    let v = verdicts.get(chunkId);
    if (!v) {
      v = detectInstructionLike(body);
      verdicts.set(chunkId, v);
    }
    return v;
  };
  return async (input) => {
    const missing = input.candidates.filter((c) => !c.vector).map((c) => c.chunk.chunk_id);
    // The memory lookup (a Redis round trip) is already under way: it overlaps the reranker.
    const [rerank, stored, memory] = await Promise.all([
      rerankHits(deps.reranker, input.query, input.candidates),
      missing.length > 0 ? deps.store.fetchByIds(missing) : Promise.resolve([]),
      input.memory,
    ]);
    const vectors = new Map<string, Float32Array | readonly number[]>(stored.map((c) => [c.chunk_id, c.vector]));
    for (const c of input.candidates) if (c.vector) vectors.set(c.chunk.chunk_id, c.vector);
    // A provision the question names by number ("section 4.2", "제8조") is what it asks about,
    // however many of its words the document's other sections share: it reranks as a full match
    // and leads the ranking (of several documents' sections 6, the best-scored first).
    const provision = provisionMatcher(input.query);
    const named = (hit: HybridHit): boolean => provision !== null && provision({ sectionPath: hit.chunk.section_path, body: hit.chunk.body });
    const ranked = rankCandidates({
      candidates: input.candidates.map((hit) => ({ hit, rerank: named(hit) ? 1 : (rerank.get(hit.chunk.chunk_id) ?? null), vector: vectors.get(hit.chunk.chunk_id) ?? null })),
      keep: input.keep,
      intent: input.intent,
      queryVector: input.queryVector,
      facetWeights: input.weights,
      memory,
      instructionLike,
      // Seeded by the run: a trace can be replayed exactly.
      rng: createSeededRng(Number.parseInt(sha256Hex(input.runId).slice(0, 8), 16)),
    });
    return provision === null ? ranked : namedFirst(ranked, named);
  };
}

/** The ranking with the candidates `named` picks first, each group in its order; `rankAfter` renumbered. */
export function namedFirst(ranked: readonly RankedCandidate[], named: (hit: HybridHit) => boolean): RankedCandidate[] {
  const first = ranked.filter((r) => named(r.hit));
  if (first.length === 0) return [...ranked];
  return [...first, ...ranked.filter((r) => !named(r.hit))].map((r, i) => ({ ...r, terms: { ...r.terms, rankAfter: i + 1 } }));
}
