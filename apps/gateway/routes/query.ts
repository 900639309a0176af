import type { QueueEvents } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { agentRunQueue } from '../../../core/queues.ts';
import { RunId } from '../../../shared/domain/index.ts';
import { awaitAgentRun, enqueueAgentRun, viewRun, runEventsUntil, type RunStreamReader } from '../../../core/ask/index.ts';
import { HttpError } from '../../../core/failures.ts';
import { acceptsEventStream, openSse } from '../sse.ts';
import { giveFeedback } from '../../../core/feedback.ts';
import { FeedbackBody, QueryBody } from '../../../core/schemas.ts';
import { readTrace } from '../../../core/traces.ts';
import { queryEventData } from './run-stream.ts';
import type { GatewayDeps, GatewayOptions } from '../types.ts';
import { jsonSchema, parseOr400 } from '../validate.ts';

const RunParams = z.object({ id: RunId });

function runLinks(runId: string) {
  return { self: `/v1/runs/${runId}`, feedback: `/v1/runs/${runId}/feedback`, trace: `/debug/trace/${runId}` };
}

/** `POST /v1/query`, `GET /v1/runs/:id`, `POST /v1/runs/:id/feedback`, `GET /debug/trace/:id`. */
export async function queryRoutes(
  app: FastifyInstance,
  deps: GatewayDeps,
  opts: Required<Pick<GatewayOptions, 'newRunId' | 'queryTimeoutMs'>>,
  events: QueueEvents,
  streams: RunStreamReader,
): Promise<void> {
  const queue = deps.queues.queue(agentRunQueue);

  app.post(
    '/v1/query',
    {
      config: { role: 'query' },
      schema: {
        summary:
          'Ask a question; waits for the answer up to a timeout, or answers 202 with a run id. With `Accept: text/event-stream` or `stream: true` it streams: events run, node, delta, citations, then done (or error)',
        body: jsonSchema(QueryBody),
      },
    },
    async (req, reply) => {
      const body = parseOr400(QueryBody, req.body, 'body');
      const runId = opts.newRunId();
      const job = await enqueueAgentRun(queue, { runId, query: body.query, asOf: body.asOf, alpha: body.alpha });
      if (body.stream || acceptsEventStream(req)) {
        // Enqueued first: a failure to enqueue is still an ordinary 503, not a broken stream.
        const sse = openSse(reply);
        try {
          await sse.send('run', { runId });
          for await (const e of runEventsUntil(streams, runId, body.timeoutMs ?? opts.queryTimeoutMs, sse.signal)) await sse.send(e.type, queryEventData(e, runId));
        } finally {
          sse.end();
        }
        return reply;
      }
      if (body.async) return reply.status(202).send({ runId, state: 'queued', links: runLinks(runId) });
      const run = await awaitAgentRun(queue, events, job, body.timeoutMs ?? opts.queryTimeoutMs);
      const status = run.state === 'completed' ? 200 : run.state === 'failed' ? 500 : 202;
      // Its code, not its message: a run's message comes from the agent and may quote the question.
      if (status === 500) req.failure = { code: run.error?.code ?? 'INTERNAL', runId };
      return reply.status(status).send({ ...run, links: runLinks(runId) });
    },
  );

  app.get('/v1/runs/:id', { config: { role: 'query' }, schema: { summary: 'A run: its state and, once done, its answer' } }, async (req) => {
    const { id } = parseOr400(RunParams, req.params, 'params');
    const v = await viewRun(queue, id);
    if (!v) throw new HttpError(404, 'NOT_FOUND', `no run ${id}`);
    return { ...v, links: runLinks(id) };
  });

  app.post(
    '/v1/runs/:id/feedback',
    { config: { role: 'query' }, schema: { summary: 'Say which cited chunks helped; validated outcomes update chunk memory', body: jsonSchema(FeedbackBody) } },
    async (req, reply) => {
      const { id } = parseOr400(RunParams, req.params, 'params');
      const body = parseOr400(FeedbackBody, req.body, 'body');
      const result = await giveFeedback(deps, id, body);
      return reply.status(202).send(result);
    },
  );

  app.get('/debug/trace/:id', { config: { role: 'admin' }, schema: { summary: 'The trace of a run: per-node latency, weights, scores, verdict' } }, async (req) => {
    const { id } = parseOr400(RunParams, req.params, 'params');
    return readTrace(deps, id);
  });
}
