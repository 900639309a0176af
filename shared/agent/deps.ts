import type { Filter } from '../store/filter.ts';
import type { HybridHit } from '../store/vector-store.ts';
import type { Citation } from './answer.ts';
import type { Trace } from './trace.ts';
import type { RunContext } from './run-context.ts';

export type FacetName = 'doc_type' | 'section' | 'jurisdiction' | 'lang';
/** facet → value → weight in [0, 1] (seed 000 §5.3). */
export type FacetWeights = Partial<Record<FacetName, Record<string, number>>>;

/** What the listener makes of a question. */
export interface Understanding {
  normalised: string;
  /** The query without its date phrase: what is searched. */
  text: string;
  lang: string;
  asOf: string | null;
  entities: string[];
}

export interface Plan {
  intent: string;
  alpha: number;
  /** Facet values the question itself suggests (e.g. doc_type=law for "제50조"). */
  hypotheses: { facet: FacetName; value: string }[];
}

/** Chunk memory as the ranker reads it. */
export interface MemoryView {
  decayedUtility: number;
  centroid: Float32Array | null;
  intentHist: Record<string, number>;
}

/** Per-candidate score terms, kept for the trace (seed 000 §10). */
export interface RankTerms {
  chunkId: string;
  content: number;
  rerank: number;
  prior: number;
  memory: number;
  mmrPenalty: number;
  final: number;
  rankBefore: number;
  rankAfter: number;
}

export interface Ranked {
  hit: HybridHit;
  terms: RankTerms;
}

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

/** Everything the graph's nodes call: retrieval, memory, answering, recording. */
export interface AgentDeps {
  knobs: AgentKnobs;
  today(): string;
  understand(query: string, today: string): Understanding;
  plan(u: Understanding): Plan;
  embed(text: string): Promise<Float32Array>;
  hybrid(q: { text: string; vector: Float32Array; alpha: number; filter?: Filter; limit: number }): Promise<HybridHit[]>;
  count(filter: Filter): Promise<number>;
  facetWeights(vector: Float32Array): Promise<FacetWeights>;
  memory(chunkIds: string[]): Promise<Map<string, MemoryView>>;
  rank(input: {
    query: string;
    queryVector: Float32Array;
    intent: string;
    candidates: HybridHit[];
    weights: FacetWeights;
    memory: Map<string, MemoryView>;
    keep: number;
  }): Promise<Ranked[]>;
  answer(input: { query: string; lang: string; asOf: string; explicitAsOf: boolean; today: string; ranked: Ranked[] }): Promise<{ text: string; citations: Citation[]; dateQualifier: string | null }>;
  /** Enqueues a memory update for a validated run. */
  remember(ctx: RunContext, at: Date): Promise<void>;
  record(trace: Trace, ctx: RunContext): Promise<void>;
}
