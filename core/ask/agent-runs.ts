/**
 * Asking through the queue: an agent run is enqueued (the HTTP API, the MCP `ask` tool, chat) and
 * waited for or read back by its run id. The agent itself runs in `workers/agent`.
 */
import type { Job, Queue, QueueEvents } from 'bullmq';
import { agentRunQueue, type AgentRunPayload } from '../../queues/agent.queues.ts';
import { AgentAnswer } from '../../shared/runs/index.ts';
import { decodeFailure } from '../../shared/errors.ts';
import type { RunView } from '../schemas.ts';

/**
 * Enqueues an agent run (`POST /v1/query`, the MCP `ask` tool) with the queue's retry and
 * retention policy; the job id comes from the run id, so a repeated add is a no-op.
 */
export async function enqueueAgentRun(queue: Queue, payload: AgentRunPayload): Promise<Job> {
  const p = agentRunQueue.payload.parse(payload);
  return queue.add(agentRunQueue.name, p, {
    jobId: agentRunQueue.jobId(p),
    attempts: agentRunQueue.policy.attempts,
    backoff: { type: 'exponential', delay: agentRunQueue.policy.backoffMs },
    removeOnComplete: agentRunQueue.policy.keepCompleted,
    removeOnFail: agentRunQueue.policy.keepFailed,
  });
}

/** The current view of a run, or null when no such run is kept. */
export async function viewRun(queue: Queue, runId: string): Promise<RunView | null> {
  const job = await queue.getJob(agentRunQueue.jobId({ runId, query: 'x' }));
  if (!job) return null;
  const state = await job.getState();
  if (state === 'completed') return { runId, state, answer: AgentAnswer.parse(job.returnvalue) };
  // The runtime fails every job with an encoded failure (shared/errors.ts): read back with the same codec.
  if (state === 'failed') return { runId, state, error: decodeFailure(job.failedReason) };
  return { runId, state: state === 'active' ? 'running' : 'queued' };
}

/**
 * Waits up to `timeoutMs` for an enqueued run: `completed` with its answer, `failed` with its
 * error, or still `queued`/`running` when the time ran out (the caller then hands out the run id).
 * @throws the queue's error when the wait fails for another reason than the timeout.
 */
export async function awaitAgentRun(queue: Queue, events: QueueEvents, job: Job, timeoutMs: number): Promise<RunView> {
  const runId = AgentAnswer.shape.runId.parse((job.data as { runId: unknown }).runId);
  try {
    const answer = AgentAnswer.parse(await job.waitUntilFinished(events, timeoutMs));
    return { runId, state: 'completed', answer };
  } catch (err) {
    const current = await viewRun(queue, runId);
    if (current?.state === 'failed' || current?.state === 'completed') return current;
    // Still running: the client polls the run.
    if (err instanceof Error && /timed out/i.test(err.message)) return { runId, state: current?.state ?? 'queued' };
    throw err;
  }
}
