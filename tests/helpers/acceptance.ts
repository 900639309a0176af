/**
 * The shared setup of the acceptance suites (seed 000 §9): the example corpus ingested through
 * the real queues by every worker of ALL_WORKERS, facet vectors rebuilt by the facet-rebuild
 * worker, and an agent whose ranking inputs can be read back so a test can re-rank the very same
 * candidates with one signal switched off.
 */
import { copyFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { startService, type Service } from '../../apps/cli/service.ts';
import { facetRebuildQueue } from '../../queues/facets.queues.ts';
import { memoryUpdateQueue } from '../../queues/memory.queues.ts';
import type { AgentAnswer } from '../../shared/runs/answer.ts';
import type { AgentDeps } from '../../shared/agent/deps.ts';
import { buildAgentGraph, runAgent, type AgentGraph } from '../../shared/agent/graph.ts';
import { createTraceStore, type Trace, type TraceStep } from '../../shared/runs/trace.ts';
import { docIdForSource } from '../../shared/domain/ids.ts';
import type { DocStatus } from '../../shared/status/doc-status.ts';
import { createLogger, type Logger } from '../../shared/telemetry/logger.ts';
import { createAgentDeps } from '../../workers/agent/agent-deps.ts';
import { ALL_WORKERS } from '../../workers/index.ts';
import type { Ports } from '../../workers/runtime/ports.ts';
import { settle, testWorkspace } from './pipeline.ts';
import { startTestRedis } from './redis.ts';

export const EXAMPLES_DIR = path.resolve(import.meta.dirname, '../../examples/docs');

/** Doc id of an example document (the watcher keys sources by their path in the folder). */
export function exampleDocId(name: string): string {
  return docIdForSource(`dir:${name}.pdf`);
}

export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** What `rank` was called with inside one agent run (every loop appends one). */
export type RankCall = Parameters<AgentDeps['rank']>[0];

export interface AcceptanceCorpus {
  service: Service;
  ports: Ports;
  log: Logger;
  /** Status records of every ingested document, all indexed. */
  statuses: DocStatus[];
  /** How long ingestion (and the facet rebuild after it) took. */
  ingestMs: number;
  cleanup(): Promise<void>;
}

/** Jobs of a queue not finished yet, and those completed. */
async function openJobs(ports: Ports, def: typeof facetRebuildQueue | typeof memoryUpdateQueue): Promise<{ open: number; completed: number }> {
  const c = await ports.queues.counts(def);
  return { open: c.waiting + c.delayed + c.prioritized + c.active, completed: c.completed };
}

/**
 * Whether the debounced facet rebuild the upserts asked for is done: one has completed, none is
 * pending or running, and facet values exist. Values alone are not enough: a rebuild still running
 * replaces them facet by facet, then maintains the store, under the first questions.
 */
export async function facetRebuildSettled(ports: Ports): Promise<boolean> {
  const q = await openJobs(ports, facetRebuildQueue);
  return q.open === 0 && q.completed > 0 && (await ports.store.listFacetValues()).length > 0;
}

/**
 * A private redis-server and workspace; the example PDFs and sidecars copied into the watched
 * folder; every worker of ALL_WORKERS running. Resolves once every document is indexed and the debounced facet rebuild
 * that the upserts asked for has completed with nothing left pending.
 *
 * @throws Error when a document fails or anything times out.
 */
export async function startAcceptanceCorpus(opts: { timeoutMs?: number } = {}): Promise<AcceptanceCorpus> {
  const t0 = Date.now();
  const redis = await startTestRedis();
  // A short debounce: the rebuild still coalesces the upserts of one burst, without a 5 s wait.
  const ws = testWorkspace(redis.url, { FACET_REBUILD_DEBOUNCE_MS: '300' });
  let service: Service | undefined;
  const cleanup = async () => {
    await service?.stop();
    await redis.cleanup();
    ws.cleanup();
  };
  try {
    const files = await readdir(EXAMPLES_DIR);
    await Promise.all(files.map((f) => copyFile(path.join(EXAMPLES_DIR, f), path.join(ws.config.watchDir, f))));
    const expected = files.filter((f) => f.endsWith('.pdf')).length;
    service = await startService(ws.config, { workers: Object.values(ALL_WORKERS), watch: true });
    const timeoutMs = opts.timeoutMs ?? 120_000;
    const statuses = await settle(service, { count: expected, timeoutMs });
    const failed = statuses.filter((s) => s.state !== 'indexed');
    if (failed.length) throw new Error(`not indexed: ${failed.map((s) => `${s.docId} ${s.errorCode}`).join(', ')}`);
    const ports = service.ports;
    // The last upsert asked for a rebuild; it is done once nothing is pending and one has run.
    await until('the facet rebuild', () => facetRebuildSettled(ports), timeoutMs);
    return { service, ports, log: createLogger('error', { service: 'acceptance' }), statuses, ingestMs: Date.now() - t0, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/**
 * Waits until the memory-update worker has applied every run enqueued so far (a validated run
 * enqueues its update before it returns, so nothing of it can still be on the way).
 */
export async function memoryApplied(ports: Ports): Promise<void> {
  await until('memory updates', async () => (await openJobs(ports, memoryUpdateQueue)).open === 0, 30_000, 10);
}

/** One pass through rerank_diversify: what the ranking got, and the chunk ids it kept, in order. */
export interface RankRecord {
  input: RankCall;
  output: string[];
}

export interface AskResult {
  answer: AgentAnswer;
  trace: Trace;
  /** Every pass through rerank_diversify, in run order (one per loop). */
  ranks: RankRecord[];
}

/**
 * The agent as the agent worker builds it (createAgentDeps over the real ports), with two test
 * openings: each run's rank inputs are kept, and `rankAll` re-ranks such an input — same
 * candidates, reranker, vectors and seeded exploration — with every candidate kept, optionally
 * with the facet weights or the memory replaced (to switch a signal off).
 */
export interface AcceptanceAgent {
  deps: AgentDeps;
  graph: AgentGraph;
  today: string;
  ask(query: string, opts?: { asOf?: string; alpha?: number }): Promise<AskResult>;
  rankAll(call: RankCall, override?: Partial<Pick<RankCall, 'weights' | 'memory'>>): Promise<string[]>;
}

export function createAcceptanceAgent(ports: Ports, log: Logger, opts: { today: string }): AcceptanceAgent {
  const real = createAgentDeps(ports, log);
  const calls = new Map<string, RankRecord[]>();
  const deps: AgentDeps = {
    ...real,
    // "Today" is pinned so the time clamp, and so every candidate set, is the same whenever the
    // suite runs; memory keeps the real clock, as the memory-update worker stamps outcomes with it.
    today: () => opts.today,
    async rank(input) {
      const ranked = await real.rank(input);
      calls.set(input.runId, [...(calls.get(input.runId) ?? []), { input, output: ranked.map((r) => r.terms.chunkId) }]);
      return ranked;
    },
  };
  const graph = buildAgentGraph(deps);
  let runs = 0;
  const traces = createTraceStore(ports.redis, ports.config.prefix, ports.config.gateway.traceTtlSeconds);
  return {
    deps,
    graph,
    today: opts.today,
    async ask(query, request = {}) {
      // Numbered run ids seed the ranking's exploration the same way on every suite run.
      const runId = `acceptance-${String((runs += 1)).padStart(4, '0')}`;
      const answer = await runAgent(graph, { runId, query, ...request });
      const trace = await traces.get(runId);
      if (!trace) throw new Error(`run ${runId} left no trace`);
      // The next question sees this one's memory update applied, not racing the worker for it.
      await memoryApplied(ports);
      return { answer, trace, ranks: calls.get(runId) ?? [] };
    },
    async rankAll(call, override = {}) {
      const ranked = await real.rank({ ...call, ...override, keep: Math.max(1, call.candidates.length) });
      return ranked.map((r) => r.terms.chunkId);
    },
  };
}

/** The trace steps of one node, in run order. */
export function stepsOf(trace: Trace, node: string): TraceStep[] {
  return trace.steps.filter((s) => s.node === node);
}

/** 1-based rank of each id in `order`; ids missing from it get `order.length + 1`. */
export function ranksIn(order: readonly string[], ids: readonly string[]): number[] {
  const at = new Map(order.map((id, i) => [id, i + 1]));
  return ids.map((id) => at.get(id) ?? order.length + 1);
}

/** Share of `a`'s items that are also in `b` (both taken as sets; 0 for an empty `a`). */
export function overlap(a: readonly string[], b: readonly string[]): number {
  const bs = new Set(b);
  const as = new Set(a);
  return as.size === 0 ? 0 : [...as].filter((x) => bs.has(x)).length / as.size;
}

export const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
