export { AgentAnswer, type Citation } from './answer.ts';
export { DEFAULT_TRACE_MAX_COUNT } from './capped-store.ts';
export { createRunContextStore, type RunContext, type RunContextStore } from './run-context.ts';
export { createRunEventPublisher, isFinalEvent, parseRunEntry, type RunEvent } from './run-events.ts';
export { createTraceStore, type Trace, type TraceStep, type TraceStore } from './trace.ts';
