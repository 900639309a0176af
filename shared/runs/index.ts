/**
 * What an agent run leaves behind, read by the gateway, core/ and the CLI and written by the agent
 * worker: the answer's schema (AgentAnswer, Citation), the run's event stream, its trace and its
 * context, kept in capped Redis collections (put-capped.lua, defined in capped-scripts.ts).
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: AgentAnswer, createRunEventPublisher and parseRunEntry, createTraceStore,
 * createRunContextStore.
 */

export { AgentAnswer, type Citation } from './answer.ts';
export { DEFAULT_TRACE_MAX_COUNT } from './capped-store.ts';
export { createRunContextStore, type RunContext, type RunContextStore } from './run-context.ts';
export { createRunEventPublisher, isFinalEvent, parseRunEntry, type RunEvent } from './run-events.ts';
export { createTraceStore, type Trace, type TraceStep, type TraceStore } from './trace.ts';
