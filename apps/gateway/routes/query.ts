import type { QueueEvents } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { agentRunQueue, RunId } from '../../../queues/agent.queues.ts';
import { AgentAnswer } from '../../../shared/agent/answer.ts';
import { IsoDate } from '../../../shared/domain/document.ts';
import { HttpError } from '../http-errors.ts';
import type { GatewayDeps, GatewayOptions } from '../types.ts';
import { jsonSchema, parseOr400 } from '../validate.ts';

export const QueryBody = z
  .object({
    query: z.string().trim().min(1, 'must not be empty').max(2000),
    asOf: IsoDate.optional(),
    alpha: z.number().min(0).max(1).optional(),
    /** Answer 202 with a run id at once instead of waiting. */
    async: z.boolean().optional(),
    /** Override how long to wait before answering 202. */
    timeoutMs: z.number().int().min(100).max(120_000).optional(),
  })
  .strict();

export const FeedbackBody = z
  .object({
    useful: z.array(z.string().uuid()).max(100).default([]),
    verdict: z.enum(['useful', 'not_useful']),
  })
  .strict();

const RunParams = z.object({ id: RunId });

export const RunView = z.object({
  runId: z.string(),
  state: z.enum(['queued', 'running', 'completed', 'failed']),
  answer: AgentAnswer.optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type RunView = z.infer<typeof RunView>;

function runLinks(runId: string) {
  return { self: `/v1/runs/${runId}`, feedback: `/v1/runs/${runId}/feedback`, trace: `/debug/trace/${runId}` };
}

/** `POST /v1/query`, `GET /v1/runs/:id`, `POST /v1/runs/:id/feedback`, `GET /debug/trace/:id`. */
export async function queryRoutes(app: FastifyInstance, deps: GatewayDeps, opts: Required<Pick<GatewayOptions, 'newRunId' | 'queryTimeoutMs'>>, events: QueueEvents): Promise<void> {
  const queue = deps.queues.queue(agentRunQueue);

  async function view(runId: string): Promise<RunView | null> {
    const job = await queue.getJob(agentRunQueue.jobId({ runId, query: 'x' }));
    if (!job) return null;
    const state = await job.getState();
    if (state === 'completed') return { runId, state, answer: AgentAnswer.parse(job.returnvalue) };
    if (state === 'failed') {
      // The runtime fails permanent errors as "CODE: message"; anything else is internal.
      const reason = job.failedReason || 'failed';
      const m = /^([A-Z][A-Z0-9_]+): ([\s\S]*)$/.exec(reason);
      return { runId, state, error: m ? { code: m[1]!, message: m[2]! } : { code: 'INTERNAL', message: reason } };
    }
    return { runId, state: state === 'active' ? 'running' : 'queued' };
  }

  app.post(
    '/v1/query',
    {
      config: { role: 'query' },
      schema: { summary: 'Ask a question; waits for the answer up to a timeout, or answers 202 with a run id', body: jsonSchema(QueryBody) },
    },
    async (req, reply) => {
      const body = parseOr400(QueryBody, req.body, 'body');
      const runId = opts.newRunId();
      const job = await queue.add(agentRunQueue.name, agentRunQueue.payload.parse({ runId, query: body.query, asOf: body.asOf, alpha: body.alpha }), {
        jobId: agentRunQueue.jobId({ runId, query: body.query }),
        attempts: agentRunQueue.policy.attempts,
        backoff: { type: 'exponential', delay: agentRunQueue.policy.backoffMs },
        removeOnComplete: agentRunQueue.policy.keepCompleted,
        removeOnFail: agentRunQueue.policy.keepFailed,
      });
      if (body.async) return reply.status(202).send({ runId, state: 'queued', links: runLinks(runId) });
      try {
        const answer = AgentAnswer.parse(await job.waitUntilFinished(events, body.timeoutMs ?? opts.queryTimeoutMs));
        return reply.status(200).send({ runId, state: 'completed', answer, links: runLinks(runId) });
      } catch (err) {
        const current = await view(runId);
        if (current?.state === 'failed') return reply.status(500).send({ runId, state: 'failed', error: current.error, links: runLinks(runId) });
        if (current?.state === 'completed') return reply.status(200).send({ ...current, links: runLinks(runId) });
        // Still running: the client polls the run.
        if (err instanceof Error && /timed out/i.test(err.message)) return reply.status(202).send({ runId, state: current?.state ?? 'queued', links: runLinks(runId) });
        throw err;
      }
    },
  );

  app.get('/v1/runs/:id', { config: { role: 'query' }, schema: { summary: 'A run: its state and, once done, its answer' } }, async (req) => {
    const { id } = parseOr400(RunParams, req.params, 'params');
    const v = await view(id);
    if (!v) throw new HttpError(404, 'NOT_FOUND', `no run ${id}`);
    return { ...v, links: runLinks(id) };
  });

  app.post(
    '/v1/runs/:id/feedback',
    { config: { role: 'query' }, schema: { summary: 'Say which cited chunks helped; validated outcomes update chunk memory', body: jsonSchema(FeedbackBody) } },
    async (req, reply) => {
      const { id } = parseOr400(RunParams, req.params, 'params');
      const body = parseOr400(FeedbackBody, req.body, 'body');
      const ctx = await deps.runContexts.get(id);
      if (!ctx) throw new HttpError(404, 'NOT_FOUND', `no run ${id} (or it expired)`);
      const unknown = body.useful.filter((c) => !ctx.citedChunkIds.includes(c));
      if (unknown.length) throw new HttpError(400, 'INVALID_PAYLOAD', `body.useful: not cited by run ${id}: ${unknown.join(', ')}`, unknown);
      const result = await deps.recordFeedback({ runId: id, useful: body.useful, verdict: body.verdict });
      return reply.status(202).send({ runId: id, ...result });
    },
  );

  app.get('/debug/trace/:id', { config: { role: 'admin' }, schema: { summary: 'The trace of a run: per-node latency, weights, scores, verdict' } }, async (req) => {
    const { id } = parseOr400(RunParams, req.params, 'params');
    const trace = await deps.traces.get(id);
    if (!trace) throw new HttpError(404, 'NOT_FOUND', `no trace for run ${id} (or it expired)`);
    return trace;
  });
}
