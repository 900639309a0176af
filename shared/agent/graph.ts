import { END, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { ATTR, withSpan } from '../telemetry/index.ts';
import type { AgentAnswer } from '../runs/index.ts';
import { answerer, memoryUpdater, rerankDiversify, runContextOf, traceOf, validator } from './decide-nodes.ts';
import type { AgentDeps } from './deps.ts';
import { candidateSearch, facetPlanner, listener, narrowedSearch, planner, type NodeResult } from './search-nodes.ts';
import { AgentState, type AgentStateType, type AgentUpdate } from './state.ts';

/**
 * Watches one run as it happens (streaming answers). Called synchronously from the run: an
 * observer must not throw or block (queue the event and return).
 */
export interface RunObserver {
  /** A node finished, with its latency and its trace data (ids and numbers only). */
  node?(e: { node: string; ms: number; data: Record<string, unknown> }): void;
  /** The next piece of the answer's text (the pieces concatenate to the answer's text). */
  delta?(text: string): void;
}

type Node = (s: AgentStateType, deps: AgentDeps, observer?: RunObserver) => Promise<NodeResult>;

/** The run's observer, passed per run in the graph's `configurable` (the graph itself is shared). */
function observerOf(config: LangGraphRunnableConfig | undefined): RunObserver | undefined {
  const o: unknown = config?.configurable?.['observer'];
  return typeof o === 'object' && o !== null ? (o as RunObserver) : undefined;
}

/** Every node's time and decisions land in the trace; nodes themselves stay plain functions. */
function timed(name: string, node: Node, deps: AgentDeps) {
  return (s: AgentStateType, config?: LangGraphRunnableConfig): Promise<AgentUpdate> =>
    // Each node is a span of the run's trace too (ids only: the question never goes into a span).
    withSpan(`agent ${name}`, { [ATTR.node]: name, [ATTR.runId]: s.runId }, async () => {
      const observer = observerOf(config);
      const startedAt = new Date().toISOString();
      const t0 = performance.now();
      const { update, trace } = await node(s, deps, observer);
      const ms = Math.round((performance.now() - t0) * 100) / 100;
      observer?.node?.({ node: name, ms, data: trace });
      return { ...update, steps: [{ node: name, startedAt, ms, data: trace }] };
    });
}

/**
 * The query graph of seed 000 §7: listener → planner → facet_planner → (candidate_search ∥
 * narrowed_search) → rerank_diversify → validator ⟲ (at most `maxLoops` times back to the
 * planner) → answerer → memory_updater → observer. The seed lists candidate_search before
 * facet_planner, but neither search reads the other's hits and facet_planner reads only the
 * question vector, so the facet weights come first and the two searches overlap. The observer
 * runs last so the trace it stores holds every step, the memory update included.
 */
export function buildAgentGraph(deps: AgentDeps) {
  const observer = async (s: AgentStateType, config?: LangGraphRunnableConfig): Promise<AgentUpdate> => {
    const ctx = runContextOf(s);
    const trace = traceOf(s, [{ node: 'observer', startedAt: new Date().toISOString(), ms: 0, data: { steps: s.steps.length } }]);
    await deps.record(trace, ctx);
    observerOf(config)?.node?.({ node: 'observer', ms: 0, data: { steps: s.steps.length } });
    return {};
  };
  return new StateGraph(AgentState)
    .addNode('listener', timed('listener', listener, deps))
    .addNode('planner', timed('planner', planner, deps))
    .addNode('candidate_search', timed('candidate_search', candidateSearch, deps))
    .addNode('facet_planner', timed('facet_planner', facetPlanner, deps))
    .addNode('narrowed_search', timed('narrowed_search', narrowedSearch, deps))
    .addNode('rerank_diversify', timed('rerank_diversify', rerankDiversify, deps))
    .addNode('validator', timed('validator', validator, deps))
    .addNode('answerer', timed('answerer', answerer, deps))
    .addNode('memory_updater', timed('memory_updater', memoryUpdater, deps))
    .addNode('observer', observer)
    .addEdge(START, 'listener')
    .addEdge('listener', 'planner')
    .addEdge('planner', 'facet_planner')
    // The two searches need only the plan, the facet weights and the question vector: they run
    // side by side, and rerank_diversify waits for both.
    .addEdge('facet_planner', 'candidate_search')
    .addEdge('facet_planner', 'narrowed_search')
    .addEdge(['candidate_search', 'narrowed_search'], 'rerank_diversify')
    .addEdge('rerank_diversify', 'validator')
    .addConditionalEdges('validator', (s: AgentStateType) => (s.action ? 'planner' : 'answerer'), ['planner', 'answerer'])
    .addEdge('answerer', 'memory_updater')
    .addEdge('memory_updater', 'observer')
    .addEdge('observer', END)
    .compile();
}

export type AgentGraph = ReturnType<typeof buildAgentGraph>;

export interface AgentInput {
  runId: string;
  query: string;
  asOf?: string;
  alpha?: number;
}

/**
 * Runs one question through the graph and returns its whole final state (the ranking included).
 * `observer` (optional) sees each node finish and the answer's text as it is written.
 */
export async function runAgentState(graph: AgentGraph, input: AgentInput, observer?: RunObserver): Promise<AgentStateType> {
  return graph.invoke(
    { runId: input.runId, query: input.query, requestedAsOf: input.asOf ?? null, requestedAlpha: input.alpha ?? null, startedAt: new Date().toISOString() },
    // Each loop passes 5 nodes; the limit is a backstop, the validator is what stops loops.
    { recursionLimit: 40, ...(observer ? { configurable: { observer } } : {}) },
  );
}

/** Runs one question through the graph (see {@link runAgentState} for `observer`). */
export async function runAgent(graph: AgentGraph, input: AgentInput, observer?: RunObserver): Promise<AgentAnswer> {
  const s = await runAgentState(graph, input, observer);
  const startedAt = s.startedAt;
  return {
    runId: input.runId,
    text: s.text,
    citations: s.citations,
    dateQualifier: s.dateQualifier,
    asOf: s.asOf || null,
    validated: s.validated,
    fallback: s.fallback,
    loops: s.loops,
    verdict: s.verdict,
    reason: s.reason,
    latencyMs: Date.now() - Date.parse(startedAt),
  };
}
