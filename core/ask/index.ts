export { awaitAgentRun, enqueueAgentRun, viewRun } from './agent-runs.ts';
export { askAndWait } from './ask.ts';
export { runEventsUntil } from './run-events-until.ts';
export { createRunStreamReader, type RunStreamReader } from './run-stream-reader.ts';
