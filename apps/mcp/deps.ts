import { randomUUID } from 'node:crypto';
import type { Queue, QueueEvents } from 'bullmq';
import { awaitAgentRun, enqueueAgentRun } from '../gateway/agent-runs.ts';
import { createDocumentDirectory } from '../../shared/agent/document-directory.ts';
import type { Embedder } from '../../shared/embed/embedder.ts';
import type { StatusStore } from '../../shared/status/status-store.ts';
import type { VectorStore } from '../../shared/store/vector-store.ts';
import type { McpDeps } from './handlers.ts';

/** A run id as the gateway makes them: 32 hex digits. */
export const newRunId = (): string => randomUUID().replace(/-/g, '');

/**
 * The MCP tools' dependencies from the process's parts: the store and embedder for search and
 * chunks, the status store for documents, and the agent-run queue with a QueueEvents to wait on
 * (the same enqueue-and-wait as `POST /v1/query`).
 */
export function createMcpDeps(parts: {
  store: VectorStore;
  embedder: Embedder;
  status: StatusStore;
  agentQueue: Queue;
  events: QueueEvents;
  /** The hybrid weight when a search gives none. */
  defaultAlpha: number;
  /** How long `ask` waits for the agent before failing with TIMEOUT. */
  askTimeoutMs: number;
  /** @defaultValue {@link newRunId} */
  newRunId?: () => string;
}): McpDeps {
  const runId = parts.newRunId ?? newRunId;
  return {
    store: parts.store,
    embedder: parts.embedder,
    status: parts.status,
    documents: createDocumentDirectory(parts.store),
    defaultAlpha: parts.defaultAlpha,
    async ask(input) {
      const job = await enqueueAgentRun(parts.agentQueue, { runId: runId(), query: input.query, asOf: input.asOf, alpha: input.alpha });
      return awaitAgentRun(parts.agentQueue, parts.events, job, parts.askTimeoutMs);
    },
  };
}
