/**
 * Asking through the queue: an agent run enqueued and waited for or read back by its run id
 * (agent-runs.ts), ask and wait (ask.ts), streamed runs read from the run's event stream
 * (run-stream-reader.ts, run-events-until.ts). The agent itself runs in workers/agent.
 * May import shared/, queues/ and core/'s top-level files; never apps/ or workers/.
 * Entry points: enqueueAgentRun, awaitAgentRun, viewRun, askAndWait, createRunStreamReader.
 */

export { awaitAgentRun, enqueueAgentRun, viewRun } from './agent-runs.ts';
export { askAndWait } from './ask.ts';
export { runEventsUntil } from './run-events-until.ts';
export { createRunStreamReader, type RunStreamReader } from './run-stream-reader.ts';
