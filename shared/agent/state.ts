import { Annotation } from '@langchain/langgraph';
import type { Filter, HybridHit } from '../store/index.ts';
import type { Citation, TraceStep } from '../runs/index.ts';
import type { DocumentLayers } from '../retrieval/index.ts';
import type { FacetWeights, QueryPlan, QueryScope, RankedCandidate, UnderstoodQuery } from './deps.ts';

export type ValidatorAction = 'DRILLDOWN' | 'RELAX' | 'PIVOT';

const last = <T>(initial: T) => Annotation<T>({ reducer: (_old, next) => next, default: () => initial });

/** The agent graph's state; every node returns the part it changes. */
export const AgentState = Annotation.Root({
  runId: Annotation<string>(),
  query: Annotation<string>(),
  /** From the request; wins over an "as of" phrase in the question. */
  requestedAsOf: last<string | null>(null),
  requestedAlpha: last<number | null>(null),
  startedAt: Annotation<string>(),

  understanding: last<UnderstoodQuery | null>(null),
  queryVector: last<Float32Array | null>(null),
  /** The date the answer is valid at: the question's, or today. */
  asOf: last<string>(''),
  plan: last<QueryPlan | null>(null),
  /** The organisations, period and form the question names, routed to documents (null: no routing). */
  scope: last<QueryScope | null>(null),
  /** The document and section layers scored before any chunk (seed 004): which documents to read, which sections to favour. */
  layers: last<DocumentLayers | null>(null),
  alpha: last<number>(0.5),
  searchText: last<string>(''),
  branchFilter: last<Filter | null>(null),
  branchLabel: last<string | null>(null),
  /** After a RELAX, no narrowing is tried again. */
  relaxed: last<boolean>(false),
  action: last<ValidatorAction | null>(null),
  loops: last<number>(0),

  candidates: last<HybridHit[]>([]),
  /** The search `candidates` answer (text, alpha, as-of, limit): a loop that would ask it again reuses them. */
  candidatesKey: last<string | null>(null),
  weights: last<FacetWeights>({}),
  narrowed: last<HybridHit[] | null>(null),
  ranked: last<RankedCandidate[]>([]),
  /**
   * The best ranking the validator has seen in this run, with its score (a named document first
   * counts 2, the kind of answer asked 1, plus the grounding): a later loop that loses what an
   * earlier one found does not get the last word.
   */
  best: last<{ ranked: RankedCandidate[]; score: number; loop: number } | null>(null),

  verdict: last<string>(''),
  reason: last<string>(''),
  confidence: last<number>(0),
  validated: last<boolean>(false),
  fallback: last<boolean>(false),
  /** A fallback because no passage of the documents asked about fits: the answer says it was not found. */
  notFound: last<boolean>(false),

  text: last<string>(''),
  citations: last<Citation[]>([]),
  dateQualifier: last<string | null>(null),

  steps: Annotation<TraceStep[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

export type AgentStateType = typeof AgentState.State;
export type AgentUpdate = typeof AgentState.Update;
