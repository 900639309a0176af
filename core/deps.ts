import { randomUUID } from 'node:crypto';
import type { Queue, QueueEvents } from 'bullmq';
import { awaitAgentRun, enqueueAgentRun } from './ask/index.ts';
import { createDocumentDirectory, type DirectoryEntry } from '../shared/retrieval/index.ts';
import type { Embedder } from '../shared/embed/index.ts';
import type { StatusStore } from '../shared/status/index.ts';
import type { VectorStore } from '../shared/store/index.ts';
import type { AskRequest, RunView } from './schemas.ts';

/**
 * What the read-side use cases (search, ask, documents, chunks) read and call. The gateway and
 * `quarry mcp` each build one with {@link createUseCaseDeps}; tests build their own.
 */
export interface UseCaseDeps {
  store: VectorStore;
  embedder: Embedder;
  status: StatusStore;
  /** Indexed documents with titles and profiles (cached), for titles and document routing. */
  documents(): Promise<DirectoryEntry[]>;
  /** The hybrid weight when a search gives none. */
  defaultAlpha: number;
  /** Enqueues an agent run and waits for it, as `POST /v1/query` does. */
  ask(input: AskRequest): Promise<RunView>;
}

/** A run id as the gateway makes them: 32 hex digits. */
export const newRunId = (): string => randomUUID().replace(/-/g, '');

/**
 * The use cases' dependencies from the process's parts: the store and embedder for search and
 * chunks, the status store for documents, and the agent-run queue with a QueueEvents to wait on
 * (the same enqueue-and-wait as `POST /v1/query`).
 */
export function createUseCaseDeps(parts: {
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
}): UseCaseDeps {
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
