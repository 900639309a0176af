/**
 * The rerank_diversify node's arithmetic (seed 000 §5.4, §6.3, §7), pure: reranker scores and
 * memory stats come in as data, so the agent does the I/O and this stays testable.
 *
 *     content = hybridWeight · hybrid + rerankWeight · rerank     (both in [0, 1]; hybrid alone
 *                                                                   when the reranker gave none)
 *     final   = content + prior + memory − instruction            (prior < 0.15, memory < 0.2)
 *
 * where `instruction` is a fixed penalty for a passage that reads as instructions to a model
 * ("ignore previous instructions", role markers: see `instruction-like.ts`): documents are data,
 * and text written to steer the answer should not win the ranking on the words it repeats.
 *
 * then MMR on the chunk embeddings picks `keep` of them with `final` as relevance, and an
 * exploration share keeps room for chunks without memory.
 */
import type { HybridHit } from '../store/index.ts';
import { detectInstructionLike, type InstructionLikeResult } from './instruction-like.ts';
import { DEFAULT_MMR_LAMBDA, mmrSelect, redundancy } from './mmr.ts';
import { cosine } from '../vector-math.ts';
import {
  applyExploration,
  memoryBonus,
  metadataPrior,
  squashUtility,
  type FacetWeights,
  type MemoryBonusOptions,
  type PriorOptions,
  type Rng,
} from './priors.ts';

/** Per-chunk memory as the memory store reports it (ChunkStats, seed 000 §6.1). */
export interface ChunkMemory {
  /** Decayed count of validated wins (recent wins count more). */
  decayedUtility: number;
  /** Running mean of the embeddings of queries this chunk helped answer. */
  centroid: Float32Array | readonly number[] | null;
  /** Validated wins per intent. */
  intentHist: Readonly<Record<string, number>>;
}

/** One candidate: a hybrid hit, its reranker score and its embedding. */
export interface RankCandidate {
  hit: HybridHit;
  /** Reranker score in [0, 1]; null when none (reranker skipped or failed). */
  rerank: number | null;
  /** Chunk embedding for MMR; null means "similar to nothing" for this candidate. */
  vector: Float32Array | readonly number[] | null;
}

/** Knobs of {@link rankCandidates}. */
export interface RankOptions {
  /** @defaultValue 0.5 */
  hybridWeight?: number;
  /** @defaultValue 0.5 */
  rerankWeight?: number;
  /** Metadata prior (λ_meta, cap). @defaultValue `{ lambda: 0.2, maxPrior: 0.15 }` */
  prior?: PriorOptions;
  /** Memory bonus (λ_mem, cap). @defaultValue `{ lambda: 0.15, cap: 0.2 }` */
  memory?: MemoryBonusOptions;
  /** @defaultValue 1 (see `squashUtility`) */
  utilityHalfSaturation?: number;
  /**
   * Decayed utility below which a chunk counts as having no memory (exploration candidate):
   * a win decayed over many half-lives no longer says anything.
   * @defaultValue 0.05
   */
  minUtility?: number;
  /** MMR relevance weight λ. @defaultValue 0.6 */
  mmrLambda?: number;
  /**
   * Cosine up to which MMR charges two passages of different documents no redundancy (see
   * `redundancy` in mmr.ts): across documents it diversifies away copies, not other evidence on
   * the question's topic. A document's own passages are diversified as in classic MMR.
   * @defaultValue {@link DEFAULT_MMR_SIMILARITY_FLOOR}
   */
  mmrSimilarityFloor?: number;
  /** Share of kept slots reserved for chunks without memory (seed: 0.15). @defaultValue 0.15 */
  explorationRatio?: number;
  /**
   * Subtracted from `final` of a passage flagged as instruction-like. At 1 such a passage
   * (final ≤ content + 0.35 − 1 ≤ 0.35) ranks below every unflagged one whose content exceeds
   * 0.35, however well it was keyword-stuffed: it is never quoted anyway, and at the top it would
   * set the validator's grounding. 0 turns the penalty off.
   * @defaultValue {@link DEFAULT_INSTRUCTION_PENALTY}
   */
  instructionPenalty?: number;
}

/**
 * Default {@link RankOptions.mmrSimilarityFloor}. On SciFact train (hash embedder, lexical
 * reranker) classic MMR (floor 0) put the agent's nDCG@10 0.011 below its own candidates
 * undiversified (0.692 vs 0.703): the other relevant abstracts of a claim share its topic and
 * vocabulary. Floor 0.5 won back 0.001, 0.75 all of it; a copy or near-copy (cos ≥ 0.95) still
 * pays at least 80% of the full penalty.
 */
export const DEFAULT_MMR_SIMILARITY_FLOOR = 0.75;

/** Default {@link RankOptions.instructionPenalty}. */
export const DEFAULT_INSTRUCTION_PENALTY = 1;

/** Input of {@link rankCandidates}. */
export interface RankInput {
  candidates: readonly RankCandidate[];
  /** How many to keep (seed: 20–40). */
  keep: number;
  /** The planner's intent, matched against each chunk's intent histogram. */
  intent: string;
  /** The query embedding, for the memory centroid cosine; null disables that term. */
  queryVector: Float32Array | readonly number[] | null;
  /** Facet weights (facet vectors merged with planner hypotheses); none → no prior. */
  facetWeights?: FacetWeights;
  /** Memory by chunk id; a chunk without an entry has no memory. */
  memory?: ReadonlyMap<string, ChunkMemory>;
  /** Random source for exploration (seeded per run, so a trace can be replayed). */
  rng: Rng;
  options?: RankOptions;
  /**
   * The instruction-like verdict on a chunk. Chunk ids are content-addressed, so a caller may
   * cache verdicts by id across questions.
   * @defaultValue `detectInstructionLike(body)`
   */
  instructionLike?: (chunkId: string, body: string) => InstructionLikeResult;
}

/** Every term of a kept candidate's score, for traces (ids and numbers only, never text). */
export interface RankTerms {
  chunkId: string;
  /** The fused hybrid score from the store, in [0, 1]. */
  hybrid: number;
  rerank: number | null;
  content: number;
  prior: number;
  memory: number;
  /** Redundancy penalty MMR charged when picking it (0 for the first pick). */
  mmrPenalty: number;
  /** content + prior + memory − instructionPenalty: the relevance MMR used. */
  final: number;
  /** Penalty charged for instruction-like text (0 when not flagged). Absent in older traces. */
  instructionPenalty?: number;
  /** Cue names of instruction-like text (never the text); empty when not flagged. */
  instructionCues?: readonly string[];
  /** 1-based rank by hybrid score among the candidates (the candidate_search order). */
  rankBefore: number;
  /** 1-based position in the output. */
  rankAfter: number;
  /** Drawn in by exploration rather than picked by MMR. */
  explored: boolean;
}

/** A kept candidate. */
export interface RankedCandidate {
  hit: HybridHit;
  terms: RankTerms;
}

interface Scored {
  cand: RankCandidate;
  chunkId: string;
  hybrid: number;
  content: number;
  prior: number;
  memory: number;
  instruction: number;
  cues: readonly string[];
  final: number;
  rankBefore: number;
  hasMemory: boolean;
}

function finite01(x: number | null | undefined): number | null {
  return x === null || x === undefined || !Number.isFinite(x) ? null : Math.min(1, Math.max(0, x));
}

function intentShare(hist: Readonly<Record<string, number>>, intent: string): number {
  let total = 0;
  for (const v of Object.values(hist)) if (Number.isFinite(v) && v > 0) total += v;
  const mine = hist[intent] ?? 0;
  return total > 0 && Number.isFinite(mine) && mine > 0 ? mine / total : 0;
}

/** Distinct candidates by chunk id (the best hybrid score wins), in hybrid order, ties by id. */
function byHybrid(candidates: readonly RankCandidate[]): RankCandidate[] {
  const best = new Map<string, RankCandidate>();
  for (const c of candidates) {
    const prev = best.get(c.hit.chunk.chunk_id);
    if (!prev || c.hit.score > prev.hit.score) best.set(c.hit.chunk.chunk_id, c);
  }
  return [...best.values()].sort((a, b) => b.hit.score - a.hit.score || (a.hit.chunk.chunk_id < b.hit.chunk.chunk_id ? -1 : 1));
}

/**
 * Scores, diversifies and cuts candidates; see the module comment for the formula. Output is
 * best first; `terms` carry every part of each score for the trace. Deterministic for a
 * deterministic `rng`.
 *
 * @throws RangeError when `keep` is not a positive integer, a weight is negative, or a λ is
 *   outside its range.
 */
export function rankCandidates(input: RankInput): RankedCandidate[] {
  const o = input.options ?? {};
  const hybridWeight = o.hybridWeight ?? 0.5;
  const rerankWeight = o.rerankWeight ?? 0.5;
  if (!Number.isInteger(input.keep) || input.keep < 1) throw new RangeError(`keep must be a positive integer, got ${input.keep}`);
  if (!(hybridWeight >= 0) || !(rerankWeight >= 0) || hybridWeight + rerankWeight === 0) {
    throw new RangeError(`hybridWeight and rerankWeight must be ≥ 0 and not both 0, got ${hybridWeight}, ${rerankWeight}`);
  }
  const minUtility = o.minUtility ?? 0.05;
  const instructionPenalty = o.instructionPenalty ?? DEFAULT_INSTRUCTION_PENALTY;
  if (!(instructionPenalty >= 0)) throw new RangeError(`instructionPenalty must be ≥ 0, got ${instructionPenalty}`);
  const weights = input.facetWeights ?? {};
  const ordered = byHybrid(input.candidates);
  const scored: Scored[] = ordered.map((cand, i) => {
    const chunk = cand.hit.chunk;
    const hybrid = finite01(cand.hit.score) ?? 0;
    const rerank = finite01(cand.rerank);
    // Normalised by the weights' sum so content stays in [0, 1] whatever the weights.
    const content = rerank === null ? hybrid : (hybridWeight * hybrid + rerankWeight * rerank) / (hybridWeight + rerankWeight);
    // doc_id carries the document routing prior (a question naming an organisation or a period).
    const { prior } = metadataPrior(weights, { section: chunk.section, doc_type: chunk.doc_type, jurisdiction: chunk.jurisdiction, lang: chunk.lang, doc_id: chunk.doc_id }, o.prior);
    const mem = input.memory?.get(chunk.chunk_id);
    const hasMemory = mem !== undefined && mem.decayedUtility >= minUtility;
    const memory = hasMemory
      ? memoryBonus(
          {
            utility: squashUtility(mem.decayedUtility, o.utilityHalfSaturation ?? 1),
            centroidCos: cosine(input.queryVector, mem.centroid),
            intentMatch: intentShare(mem.intentHist, input.intent),
          },
          o.memory,
        )
      : 0;
    const flag = input.instructionLike ? input.instructionLike(chunk.chunk_id, chunk.body) : detectInstructionLike(chunk.body);
    const instruction = flag.flagged ? instructionPenalty : 0;
    const cues = flag.flagged ? [...flag.cues] : [];
    return { cand, chunkId: chunk.chunk_id, hybrid, content, prior, memory, instruction, cues, final: content + prior + memory - instruction, rankBefore: i + 1, hasMemory };
  });
  const lambda = o.mmrLambda ?? DEFAULT_MMR_LAMBDA;
  const floor = o.mmrSimilarityFloor ?? DEFAULT_MMR_SIMILARITY_FLOOR;
  const keep = Math.min(input.keep, scored.length);
  // MMR picks twice `keep` (O(k·n·d) stays small for n ≈ 300); the rest follows by final score.
  // Exploration draws from what lies below the cut, so it needs that remainder ranked.
  const picks = mmrSelect(
    scored.map((s) => ({ relevance: s.final, vector: s.cand.vector, group: s.cand.hit.chunk.doc_id })),
    { lambda, k: Math.min(scored.length, 2 * keep), similarityFloor: floor },
  );
  const picked = new Set(picks.map((p) => p.index));
  const rest = scored
    .filter((_, i) => !picked.has(i))
    .sort((a, b) => b.final - a.final || a.rankBefore - b.rankBefore)
    .map((s) => ({ ...s, penalty: 0 }));
  const inMmrOrder = [...picks.map((p) => ({ ...(scored[p.index] as Scored), penalty: p.penalty })), ...rest];
  const { kept, explored } = applyExploration(inMmrOrder, o.explorationRatio ?? 0.15, input.rng, { keep });
  const drawn = new Set(explored.map((i) => inMmrOrder[i]?.chunkId));
  return kept.map((s, i) => {
    // An explorer was never picked against the kept set: charge it the penalty MMR would have.
    const penalty = drawn.has(s.chunkId)
      ? (1 - lambda) * Math.max(0, ...kept.slice(0, i).map((k) => redundancy(cosine(k.cand.vector, s.cand.vector), k.cand.hit.chunk.doc_id === s.cand.hit.chunk.doc_id ? 0 : floor)))
      : s.penalty;
    return {
      hit: s.cand.hit,
      terms: {
        chunkId: s.chunkId,
        hybrid: s.hybrid,
        rerank: finite01(s.cand.rerank),
        content: s.content,
        prior: s.prior,
        memory: s.memory,
        mmrPenalty: penalty,
        final: s.final,
        instructionPenalty: s.instruction,
        instructionCues: s.cues,
        rankBefore: s.rankBefore,
        rankAfter: i + 1,
        explored: drawn.has(s.chunkId),
      },
    };
  });
}
