/** The two in-process measurements of the query benchmark: candidate hybrid search and whole agent runs. */
import { buildAgentGraph, runAgent } from '../shared/agent/graph.ts';
import { createTraceStore } from '../shared/runs/trace.ts';
import { keywordSearchText, understandQuery } from '../shared/retrieval/index.ts';
import { temporalClamp } from '../shared/store/filter.ts';
import { createLogger } from '../shared/telemetry/logger.ts';
import { createAgentDeps } from '../workers/agent/agent-deps.ts';
import type { Ports } from '../workers/runtime/ports.ts';
import { meanByKey, summarise, type LatencySummary } from './query-stats.ts';

/**
 * Questions of the untimed runs before each timed series (tables opened, code compiled): drawn
 * with another seed, so no timed question finds its own warm-up's results in the store's caches.
 */
export interface MeasureQueries {
  timed: readonly string[];
  warmup: readonly string[];
}

export interface CandidateFigures {
  latency: LatencySummary;
  /** Chunk ids each query returned, best first (to compare an indexed run with the exact one). */
  ids: string[][];
}

/** The candidate_search node's store call alone: limit 300, temporal clamp (as-of or today), alpha 0.5. */
export async function measureCandidates(ports: Ports, queries: MeasureQueries, today: string): Promise<CandidateFigures> {
  const prepare = (list: readonly string[]) => Promise.all(
    list.map(async (q) => {
      const u = understandQuery(q, { today });
      const [vector] = await ports.embedder.embed([u.stripped || u.normalised]);
      return { text: keywordSearchText(u) || u.normalised, vector: vector as Float32Array, asOf: u.asOf ?? today };
    }),
  );
  const prepared = await prepare(queries.timed);
  const run = (p: (typeof prepared)[number]) => ports.store.hybrid({ text: p.text, vector: p.vector, alpha: 0.5, filter: temporalClamp(p.asOf), limit: 300 });
  for (const p of await prepare(queries.warmup)) await run(p);
  const ms: number[] = [];
  const ids: string[][] = [];
  for (const p of prepared) {
    const t0 = performance.now();
    const hits = await run(p);
    ms.push(performance.now() - t0);
    ids.push(hits.map((h) => h.chunk.chunk_id));
  }
  return { latency: summarise(ms), ids };
}

/** Mean share of `exact`'s top `k` that `other`'s top `k` also holds, over every query. */
export function overlapAt(exact: readonly string[][], other: readonly string[][], k: number): number {
  let sum = 0;
  for (const [i, e] of exact.entries()) {
    const top = new Set(e.slice(0, k));
    const found = (other[i] ?? []).slice(0, k).filter((id) => top.has(id)).length;
    sum += top.size ? found / top.size : 1;
  }
  return exact.length ? Math.round((sum / exact.length) * 1000) / 1000 : Number.NaN;
}

export interface AgentFigures {
  agent: LatencySummary;
  /** Mean ms per graph node, from the runs' traces (a node's loops summed). */
  agentNodesMeanMs: Record<string, number>;
  /** How the runs ended, and how many candidate searches a loop could reuse. */
  agentOutcomes: { validated: number; fallback: number; meanLoops: number; reusedCandidateSearches: number };
}

/** Whole agent runs in this process: the graph over the agent worker's real deps (LLM none), one at a time. */
export async function measureAgent(ports: Ports, queries: MeasureQueries, tag: string): Promise<AgentFigures> {
  const graph = buildAgentGraph(createAgentDeps(ports, createLogger('error')));
  const traces = createTraceStore(ports.redis, ports.config.prefix, 3600);
  for (const [i, query] of queries.warmup.entries()) await runAgent(graph, { runId: `${tag}-warm-${i}`, query });
  const ms: number[] = [];
  const nodes: Record<string, number>[] = [];
  const outcomes = { validated: 0, fallback: 0, meanLoops: 0, reusedCandidateSearches: 0 };
  for (const [i, query] of queries.timed.entries()) {
    const runId = `${tag}-run-${i}`;
    const t0 = performance.now();
    const answer = await runAgent(graph, { runId, query });
    ms.push(performance.now() - t0);
    outcomes.validated += answer.validated ? 1 : 0;
    outcomes.fallback += answer.fallback ? 1 : 0;
    outcomes.meanLoops += answer.loops;
    const perNode: Record<string, number> = {};
    for (const step of (await traces.get(runId))?.steps ?? []) {
      perNode[step.node] = (perNode[step.node] ?? 0) + step.ms;
      if (step.node === 'candidate_search' && step.data.reused === true) outcomes.reusedCandidateSearches += 1;
    }
    nodes.push(perNode);
  }
  outcomes.meanLoops = Math.round((outcomes.meanLoops / Math.max(1, queries.timed.length)) * 100) / 100;
  return { agent: summarise(ms), agentNodesMeanMs: meanByKey(nodes), agentOutcomes: outcomes };
}
