import type { Redis } from 'ioredis';
import { agentRunQueue } from '../../queues/agent.queues.ts';
import { buildAgentGraph, runAgent, type AgentGraph } from '../../shared/agent/graph.ts';
import { quarryMetrics } from '../../shared/telemetry/metrics.ts';
import { defineStageWorker } from '../runtime/stage-worker.ts';
import { createAgentDeps } from './agent-deps.ts';

// One compiled graph per set of ports (a process has one; tests may have several).
const graphs = new WeakMap<Redis, AgentGraph>();

/** `agent-run`: one question through the LangGraph agent; the answer is the job's result. */
export const agentWorker = defineStageWorker(agentRunQueue, async (payload, ctx) => {
  let graph = graphs.get(ctx.redis);
  if (!graph) {
    graph = buildAgentGraph(createAgentDeps(ctx, ctx.log));
    graphs.set(ctx.redis, graph);
  }
  const t0 = performance.now();
  const answer = await runAgent(graph, payload);
  quarryMetrics().queryDuration.observe({ outcome: answer.validated ? 'validated' : 'fallback' }, (performance.now() - t0) / 1000);
  return answer;
});
