import type { Ports } from '../runtime/index.ts';

/**
 * The ports an agent run uses: the store and embedder to search, chunk memory, Redis for run
 * events, traces and run contexts, the queues to enqueue `memory-update`, and config. Its own
 * module: the worker registry imports it at start, the agent's dependencies only on the first run.
 */
export const AGENT_PORTS = ['config', 'redis', 'queues', 'store', 'embedder', 'memory'] as const;

/** What {@link AGENT_PORTS} names. */
export type AgentPorts = Pick<Ports, (typeof AGENT_PORTS)[number]>;
