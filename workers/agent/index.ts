/**
 * The agent-run worker: one question through the LangGraph agent of shared/agent/, its answer the
 * job's result and its progress appended to the run's event stream. The graph and the agent's
 * dependencies (agent-deps.ts) are imported on the first run, not with the worker registry.
 * May import shared/, queues/ and workers/runtime/; never apps/.
 * Entry point: agentWorker.
 */

export { agentWorker } from './agent.worker.ts';
