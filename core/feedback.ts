/**
 * Feedback on a run: which of its cited chunks helped. Explicit feedback becomes a memory update
 * like the automatic one of a validated run (the memory-update worker applies both).
 */
import { memoryUpdateQueue } from '../queues/memory.queues.ts';
import type { QueueClient } from '../queues/queue-client.ts';
import type { RunContextStore } from '../shared/runs/index.ts';
import { HttpError } from './failures.ts';
import type { FeedbackBody } from './schemas.ts';

/** Feedback as it is recorded: the run, the chunks that helped and the verdict. */
export interface FeedbackInput {
  runId: string;
  useful: string[];
  verdict: 'useful' | 'not_useful';
}

/** What recording feedback did: whether a memory update was enqueued, and for how many chunks. */
export interface FeedbackRecorded {
  enqueued: boolean;
  chunks: number;
}

/**
 * Turns feedback into a memory update of the useful chunks, with the run's question vector, intent
 * and entities (kept in its run context); nothing for a `not_useful` verdict or no chunks.
 */
export function createFeedbackRecorder(deps: { runContexts: RunContextStore; queues: Pick<QueueClient, 'enqueue'>; clock?: () => Date }): (input: FeedbackInput) => Promise<FeedbackRecorded> {
  const clock = deps.clock ?? (() => new Date());
  return async ({ runId, useful, verdict }) => {
    const ctx = await deps.runContexts.get(runId);
    if (!ctx || verdict !== 'useful' || useful.length === 0) return { enqueued: false, chunks: 0 };
    // Its own run id: the automatic update of a validated run must not swallow explicit feedback.
    await deps.queues.enqueue(memoryUpdateQueue, {
      runId: `${runId}-feedback`,
      outcomes: useful.map((chunkId) => ({ chunkId, queryVector: ctx.queryVector, intent: ctx.intent, entities: ctx.entities })),
      at: clock().toISOString(),
    });
    return { enqueued: true, chunks: useful.length };
  };
}

/**
 * Checks feedback against the run (it must be known, and every chunk called useful must be one it
 * cited), then records it.
 * @throws HttpError `NOT_FOUND` for an unknown or expired run; `INVALID_PAYLOAD` naming chunks the run did not cite.
 */
export async function giveFeedback(
  deps: { runContexts: RunContextStore; recordFeedback(input: FeedbackInput): Promise<FeedbackRecorded> },
  runId: string,
  body: FeedbackBody,
): Promise<FeedbackRecorded & { runId: string }> {
  const ctx = await deps.runContexts.get(runId);
  if (!ctx) throw new HttpError(404, 'NOT_FOUND', `no run ${runId} (or it expired)`);
  const unknown = body.useful.filter((c) => !ctx.citedChunkIds.includes(c));
  if (unknown.length) throw new HttpError(400, 'INVALID_PAYLOAD', `body.useful: not cited by run ${runId}: ${unknown.join(', ')}`, unknown);
  return { runId, ...(await deps.recordFeedback({ runId, useful: body.useful, verdict: body.verdict })) };
}
