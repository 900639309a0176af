import { z } from 'zod';
import { AgentAnswer } from '../shared/runs/index.ts';
import { IsoDate, RunId } from '../shared/domain/index.ts';
import { defineQueue } from './define-queue.ts';


export const AgentRunPayload = z.object({
  runId: RunId,
  query: z.string().min(1).max(2000),
  /** Answer as of this date (overrides an "as of" phrase in the query). */
  asOf: IsoDate.optional(),
  /** Force the hybrid weight instead of letting the planner choose it. */
  alpha: z.number().min(0).max(1).optional(),
});
export type AgentRunPayload = z.infer<typeof AgentRunPayload>;

export const agentRunQueue = defineQueue({
  name: 'agent-run',
  payload: AgentRunPayload,
  result: AgentAnswer,
  // A query is cheap to re-run and a person is waiting: few retries, short backoff.
  policy: { attempts: 2, backoffMs: 200, keepCompleted: { count: 10_000, age: 24 * 3600 }, keepFailed: { count: 10_000, age: 7 * 24 * 3600 } },
  jobId: (p) => `agent-run-${p.runId}`,
});
