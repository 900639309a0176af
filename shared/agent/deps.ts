import type { ChunkMemory, DirectoryEntry, FacetWeights, Intent, QueryPlan, QueryScope, RankedCandidate, RankTerms, UnderstoodQuery } from '../retrieval/index.ts';
import type { SanitizeReport } from '../llm/index.ts';
import { FACET_NAMES, type Filter, type HybridHit } from '../store/index.ts';
import type { Citation, Trace, RunContext } from '../runs/index.ts';

/** Facets a branch may narrow on: every facet (the filterable metadata of a chunk), named once in the store's vocabulary. */
export const BRANCH_FACETS = FACET_NAMES;

export type { DirectoryEntry, FacetWeights, Intent, QueryPlan, QueryScope, RankedCandidate, RankTerms, UnderstoodQuery, ChunkMemory };

/** Tunables of the graph (seed 000 §7 config knobs). */
export interface AgentKnobs {
  stage1Limit: number;
  stage3Limit: number;
  keep: number;
  branchMin: number;
  branchMax: number;
  maxLoops: number;
  /** Grounding below this sends the validator into a loop (or, after the last, a fallback). */
  confidenceThreshold: number;
  /** Top-K candidates the trace keeps scores for. */
  traceTopK: number;
}

export const DEFAULT_KNOBS: AgentKnobs = {
  stage1Limit: 300,
  stage3Limit: 200,
  keep: 30,
  branchMin: 80,
  branchMax: 300,
  maxLoops: 2,
  confidenceThreshold: 0.5,
  traceTopK: 10,
};

/** What an answer kept out: instruction-like passages and, with a model, links in its output. */
export interface AnswerGuard {
  /** Passages withheld from the answer as instruction-like, with the cue names that flagged them. */
  withheld: Array<{ chunkId: string; cues: string[] }>;
  /** Links, images, URLs and HTML removed from the model's output, by kind (no model: absent). */
  removed?: SanitizeReport;
  /** The text was written by a model: every figure it states must be printed in a cited passage. */
  byModel?: boolean;
}

/** Everything the graph's nodes call: retrieval, memory, answering, recording. */
export interface AgentDeps {
  knobs: AgentKnobs;
  today(): string;
  understand(query: string, today: string): UnderstoodQuery;
  plan(u: UnderstoodQuery): QueryPlan;
  embed(text: string): Promise<Float32Array>;
  hybrid(q: { text: string; vector: Float32Array; alpha: number; filter?: Filter; limit: number; withVectors?: boolean }): Promise<HybridHit[]>;
  count(filter: Filter): Promise<number>;
  facetWeights(vector: Float32Array): Promise<FacetWeights>;
  /**
   * The indexed documents with their profiles, for routing a question to the organisations,
   * periods and forms it names (see `createDocumentDirectory`). Absent: no document routing.
   */
  documents?(): Promise<DirectoryEntry[]>;
  /**
   * A passage a document answering the question would print, written by the model, searched too
   * when the question's wording is far from what the first search found (HyDE, see hyde.ts).
   * Absent (no model): the first search is all.
   */
  hypothetical?(question: string): Promise<string>;
  memory(chunkIds: string[]): Promise<Map<string, ChunkMemory>>;
  rank(input: {
    runId: string;
    query: string;
    queryVector: Float32Array;
    intent: string;
    candidates: HybridHit[];
    weights: FacetWeights;
    /** The candidates' memory; a pending lookup is awaited only after the reranker has scored. */
    memory: Map<string, ChunkMemory> | Promise<Map<string, ChunkMemory>>;
    keep: number;
  }): Promise<RankedCandidate[]>;
  answer(input: {
    query: string;
    asOf: string | null;
    today: string;
    ranked: RankedCandidate[];
    /** Replaces the "as of <date>" qualifier: the period the cited document reports on. */
    qualifier?: string | null;
    /** Say plainly that the indexed documents do not hold the answer (the validator found none that fits). */
    notFound?: boolean;
    /**
     * Receives the answer's text piece by piece as it is written (streaming): token by token from
     * a model, sentence by sentence from the extractive answerer. The pieces concatenate to `text`.
     */
    onDelta?: (text: string) => void;
  }): Promise<{
    text: string;
    citations: Citation[];
    dateQualifier: string | null;
    /** What the answer left out of untrusted text; shown in the trace (ids, cue names and counts only). */
    guard?: AnswerGuard;
  }>;
  /** Enqueues a memory update for a validated run. */
  remember(ctx: RunContext, at: Date): Promise<void>;
  record(trace: Trace, ctx: RunContext): Promise<void>;
}
