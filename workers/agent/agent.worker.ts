import type { Redis } from 'ioredis';
import { agentRunQueue } from '../../queues/agent.queues.ts';
import type { AgentGraph } from '../../shared/agent/index.ts';
import { createRunEventPublisher } from '../../shared/runs/index.ts';
import { describeError, isQuarryError } from '../../shared/errors.ts';
import { quarryMetrics } from '../../shared/metrics/index.ts';
import { defineStageWorker } from '../runtime/index.ts';
import { AGENT_PORTS } from './agent-ports.ts';

// One compiled graph per set of ports (a process has one; tests may have several).
const graphs = new WeakMap<Redis, AgentGraph>();

/**
 * `agent-run`: one question through the LangGraph agent; the answer is the job's result. Its
 * progress (node by node, then the answer's text as it is written, citations, the final record)
 * is also appended to the run's event stream, which the gateway streams to a client that asked.
 */
export const agentWorker = defineStageWorker(agentRunQueue, { needs: AGENT_PORTS }, async (payload, ctx) => {
  // LangGraph and the agent's dependencies (retrieval, the LLM client) are imported on the first
  // run, not with the worker registry: every worker process imports the registry, only an agent
  // worker runs the graph.
  const [{ buildAgentGraph, runAgent }, { createAgentDeps }] = await Promise.all([import('../../shared/agent/index.ts'), import('./agent-deps.ts')]);
  let graph = graphs.get(ctx.redis);
  if (!graph) {
    graph = buildAgentGraph(createAgentDeps(ctx, ctx.log));
    graphs.set(ctx.redis, graph);
  }
  const events = createRunEventPublisher(ctx.redis, ctx.config.prefix, payload.runId, {
    onError: (err) => ctx.log.warn('run event not published', { runId: payload.runId, error: String(err) }),
  });
  const t0 = performance.now();
  try {
    const answer = await runAgent(graph, payload, {
      node: (e) => events.emit({ type: 'node', ...e }),
      delta: (text) => events.emit({ type: 'delta', text }),
    });
    quarryMetrics().queryDuration.observe({ outcome: answer.validated ? 'validated' : 'fallback' }, (performance.now() - t0) / 1000);
    events.emit({ type: 'citations', citations: answer.citations });
    events.emit({ type: 'done', answer });
    await events.flush();
    return answer;
  } catch (err) {
    // Only a failure that ends the run is streamed (as the runtime decides: permanent, or the
    // last attempt); a retried attempt streams its nodes again.
    const permanent = isQuarryError(err) && !err.retryable;
    const lastTry = permanent || ctx.attemptsMade + 1 >= agentRunQueue.policy.attempts;
    if (lastTry) {
      const { code, message } = describeError(err);
      events.emit({ type: 'error', error: { code, message: code === 'INTERNAL' ? 'internal error' : message } });
      await events.flush();
    }
    throw err;
  }
});
