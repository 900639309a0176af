import type { QueueEvents } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { agentRunQueue } from '../../../core/queues.ts';
import type { RunEvent } from '../../../shared/runs/index.ts';
import { awaitAgentRun, enqueueAgentRun, runEventsUntil, type RunStreamReader } from '../../../core/ask/index.ts';
import { ChatCompletionBody, chatChunk, chatCompletion, lastUserQuestion, QUARRY_MODEL, sourcesFootnote } from '../chat-format.ts';
import { HTTP_STATUS, HttpError } from '../../../core/failures.ts';
import { openSse, type SseStream } from '../sse.ts';
import type { GatewayDeps, GatewayOptions } from '../types.ts';
import { jsonSchema, parseOr400 } from '../validate.ts';

/** Longest question the agent takes (as `POST /v1/query`). */
const MAX_QUESTION_CHARS = 2000;

/** A run's events as `chat.completion.chunk` events: a role chunk, the text, the sources, the last chunk with citations, `[DONE]`. */
async function streamChat(sse: SseStream, events: AsyncIterable<RunEvent>, c: { runId: string; model: string; created: number }): Promise<void> {
  await sse.send(null, chatChunk(c.runId, c.model, c.created, { role: 'assistant', content: '' }));
  for await (const e of events) {
    if (e.type === 'delta') await sse.send(null, chatChunk(c.runId, c.model, c.created, { content: e.text }));
    else if (e.type === 'done') {
      const footnote = sourcesFootnote(e.answer.citations);
      if (footnote) await sse.send(null, chatChunk(c.runId, c.model, c.created, { content: footnote }));
      await sse.send(null, chatChunk(c.runId, c.model, c.created, null, e.answer));
    } else if (e.type === 'error') {
      // OpenAI's streaming error shape: clients raise it as an API error.
      await sse.send(null, { error: { message: e.error.message, type: 'quarry_error', code: e.error.code } });
    }
  }
  await sse.send(null, '[DONE]');
}

/**
 * The OpenAI-compatible face of the agent, so chat clients can use Quarry as a "model":
 * `POST /v1/chat/completions` (streamed as `chat.completion.chunk` events ending in `[DONE]`, or
 * one `chat.completion`) and `GET /v1/models`. The last user message is the question; the answer
 * carries `[n]` markers, a "Sources" list, and the citations as data (`citations`).
 */
export async function chatRoutes(
  app: FastifyInstance,
  deps: GatewayDeps,
  opts: Required<Pick<GatewayOptions, 'newRunId' | 'queryTimeoutMs'>>,
  events: QueueEvents,
  streams: RunStreamReader,
): Promise<void> {
  const queue = deps.queues.queue(agentRunQueue);

  app.get('/v1/models', { config: { role: 'query' }, schema: { summary: 'OpenAI-compatible model list: the one model, "quarry"' } }, async () => ({
    object: 'list',
    data: [{ id: QUARRY_MODEL, object: 'model', created: 0, owned_by: 'quarry' }],
  }));

  app.post(
    '/v1/chat/completions',
    { config: { role: 'query' }, schema: { summary: 'OpenAI-compatible chat: the last user message is the question; answers cite [n] and list citations', body: jsonSchema(ChatCompletionBody) } },
    async (req, reply) => {
      const body = parseOr400(ChatCompletionBody, req.body, 'body');
      const question = lastUserQuestion(body.messages);
      if (!question) throw new HttpError(400, 'INVALID_PAYLOAD', 'body.messages: needs a user message with text (the last one is the question)');
      if (question.text.length > MAX_QUESTION_CHARS) {
        throw new HttpError(400, 'INVALID_PAYLOAD', `body.messages.${question.index}.content: at most ${MAX_QUESTION_CHARS} characters`);
      }
      const runId = opts.newRunId();
      const created = Math.floor(Date.now() / 1000);
      const job = await enqueueAgentRun(queue, { runId, query: question.text });

      if (!body.stream) {
        const run = await awaitAgentRun(queue, events, job, opts.queryTimeoutMs);
        if (run.state === 'completed' && run.answer) return chatCompletion(run.answer, body.model, created);
        if (run.state === 'failed') {
          const code = run.error?.code ?? 'INTERNAL';
          const status = HTTP_STATUS[code];
          if (status === 500) req.failure = { code, runId };
          // As the error handler does: an internal message may name files or hosts.
          throw new HttpError(status, code, status === 500 ? 'internal error' : (run.error?.message ?? 'the run failed'));
        }
        // A chat client cannot poll a run: the wait is over, the run goes on (GET /v1/runs/:id).
        throw new HttpError(504, 'TIMEOUT', `no answer within ${opts.queryTimeoutMs} ms; the run goes on: GET /v1/runs/${runId}`);
      }

      const sse = openSse(reply);
      try {
        await streamChat(sse, runEventsUntil(streams, runId, opts.queryTimeoutMs, sse.signal), { runId, model: body.model, created });
      } finally {
        sse.end();
      }
      return reply;
    },
  );
}
