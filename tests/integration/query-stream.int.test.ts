/**
 * Issue 14, streaming and chat: a streamed answer read through the gateway and a real queue hop
 * (gateway → agent-run queue → agent worker → the run's event stream → gateway), a timeout that
 * ends the stream with an error event, the shared stream reader under a slow consumer, and the
 * `openai` client pointed at the gateway (streamed and not).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunStreamReader } from '../../core/ask/run-stream-reader.ts';
import { startService, type Service } from '../../apps/cli/service.ts';
import { agentRunQueue } from '../../queues/agent.queues.ts';
import type { AgentAnswer, Citation } from '../../shared/runs/answer.ts';
import { createRunEventPublisher, parseRunEntry, type RunEvent } from '../../shared/runs/run-events.ts';
import { runStreamKey } from '../../shared/redis/keys.ts';
import { PermanentError, RetryableError } from '../../shared/errors.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import type { VectorStore } from '../../shared/store/vector-store.ts';
import { docIdForSource } from '../../shared/domain/ids.ts';
import { agentWorker } from '../../workers/agent/agent.worker.ts';
import { INGEST_WORKERS } from '../../workers/index.ts';
import { textPdf } from '../fixtures/pdf-builders.ts';
import { settle, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const QUESTION = 'How many weeks of paid parental leave do employees get?';
const GRAPH_NODES = ['listener', 'planner', 'facet_planner', 'candidate_search', 'narrowed_search', 'rerank_diversify', 'validator', 'answerer', 'memory_updater', 'observer'];

interface Sse {
  event: string | null;
  data: string;
}

/** Reads a whole `text/event-stream` body into its events. */
async function readSse(res: Response): Promise<Sse[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      let event: string | null = null;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      return { event, data: data.join('\n') };
    });
}

describe.skipIf(!REDIS_AVAILABLE)('streaming answers and the OpenAI-compatible chat endpoint', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  let base: string;
  const Q = { 'content-type': 'application/json', authorization: 'Bearer q-key' };

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url, { QUARRY_API_KEYS: 'q-key', QUARRY_ADMIN_KEYS: 'a-key', QUERY_TIMEOUT_MS: '20000' });
    const pdf = await textPdf(
      [
        [
          'Parental Leave Policy',
          '',
          '1. Leave Entitlement',
          'Employees receive sixteen (16) weeks of paid parental leave after the birth or adoption of a child.',
          'Leave may be taken in one block or in two parts within the first year.',
          '',
          '2. Pay During Leave',
          'Pay during parental leave is one hundred percent of the base salary.',
        ],
      ],
      { title: 'Parental Leave Policy' },
    );
    await writeFile(path.join(ws.config.watchDir, 'parental-leave.pdf'), pdf);
    service = await startService(ws.config, { workers: [...Object.values(INGEST_WORKERS), agentWorker], watch: true, gateway: { port: 0 } });
    base = service.gatewayUrl!;
    const statuses = await settle(service, { count: 1, timeoutMs: 60_000 });
    expect(statuses.map((s) => s.state)).toEqual(['indexed']);
  }, 90_000);

  afterAll(async () => {
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('POST /v1/query with Accept: text/event-stream streams run, nodes, deltas, citations, done; the deltas make the answer', async () => {
    const res = await fetch(`${base}/v1/query`, { method: 'POST', headers: { ...Q, accept: 'text/event-stream' }, body: JSON.stringify({ query: QUESTION }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readSse(res);
    const names = events.map((e) => e.event);

    expect(names[0]).toBe('run');
    const { runId } = JSON.parse(events[0]!.data) as { runId: string };
    expect(names.slice(-2)).toEqual(['citations', 'done']);
    // Nodes come as each finishes, in the graph's order (the two searches run side by side, so
    // either may finish first); the answer's text follows the validator.
    const nodes = events.filter((e) => e.event === 'node').map((e) => JSON.parse(e.data) as { node: string; ms: number });
    const order = nodes.map((n) => n.node);
    expect([...order].sort()).toEqual([...GRAPH_NODES].sort());
    expect(order.slice(0, 3)).toEqual(GRAPH_NODES.slice(0, 3));
    expect(order.slice(5)).toEqual(GRAPH_NODES.slice(5));
    expect(names.indexOf('delta')).toBeGreaterThan(names.findIndex((n, i) => n === 'node' && JSON.parse(events[i]!.data).node === 'validator'));
    for (const n of nodes) expect(n.ms).toBeGreaterThanOrEqual(0);
    const firstDelta = names.indexOf('delta');
    expect(firstDelta).toBeGreaterThan(names.indexOf('node'));
    expect(names.slice(1, firstDelta).every((n) => n === 'node')).toBe(true);
    // The deltas are one run of events, sentence by sentence (the extractive answerer).
    const lastDelta = names.lastIndexOf('delta');
    expect(names.slice(firstDelta, lastDelta + 1).every((n) => n === 'delta')).toBe(true);
    const deltas = events.filter((e) => e.event === 'delta').map((e) => (JSON.parse(e.data) as { text: string }).text);

    const done = JSON.parse(events.at(-1)!.data) as { runId: string; state: string; answer: AgentAnswer };
    expect(done).toMatchObject({ runId, state: 'completed' });
    expect(deltas.join('')).toBe(done.answer.text);
    expect(done.answer.text).toMatch(/sixteen \(16\) weeks/);
    const { citations } = JSON.parse(events.at(-2)!.data) as { citations: Citation[] };
    expect(citations).toEqual(done.answer.citations);
    expect(citations[0]).toMatchObject({ n: 1, docId: docIdForSource('dir:parental-leave.pdf') });

    // Non-streaming readers see the same run (completed just after its done event was written).
    let run: { state: string; answer?: AgentAnswer } = { state: 'running' };
    for (let i = 0; i < 50 && run.state !== 'completed'; i++) {
      if (i) await new Promise((r) => setTimeout(r, 100));
      run = (await (await fetch(`${base}/v1/runs/${runId}`, { headers: Q })).json()) as typeof run;
    }
    expect(run.state).toBe('completed');
    expect(run.answer?.text).toBe(done.answer.text);
  }, 30_000);

  it('stream: true in the body streams too; with no answer by timeoutMs the stream ends with a TIMEOUT error event', async () => {
    const queue = service.ports.queues.queue(agentRunQueue);
    // No agent takes the run while the queue is paused: the deadline passes first.
    await queue.pause();
    try {
      const res = await fetch(`${base}/v1/query`, { method: 'POST', headers: Q, body: JSON.stringify({ query: QUESTION, stream: true, timeoutMs: 300 }) });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = await readSse(res);
      expect(events.map((e) => e.event)).toEqual(['run', 'error']);
      const { error } = JSON.parse(events[1]!.data) as { error: { code: string; message: string } };
      expect(error.code).toBe('TIMEOUT');
    } finally {
      await queue.resume();
    }
  }, 30_000);

  it('the shared reader hands a slow consumer every event in order, buffering at most a few', async () => {
    const runId = 'slow-reader-0001';
    const blocking = new Redis(redis.url, { maxRetriesPerRequest: null });
    const other = new Redis(redis.url);
    const reader = createRunStreamReader(() => blocking, other, ws.config.prefix, { maxBuffered: 2, blockMs: 200 });
    try {
      const publisher = createRunEventPublisher(other, ws.config.prefix, runId);
      for (let i = 0; i < 40; i++) publisher.emit({ type: 'delta', text: `${i} ` });
      publisher.emit({ type: 'error', error: { code: 'INTERNAL', message: 'end' } });
      await publisher.flush();
      const got: RunEvent[] = [];
      for await (const e of reader.subscribe(runId, new AbortController().signal)) {
        got.push(e);
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(got.map((e) => (e.type === 'delta' ? e.text : e.type)).join('')).toBe(`${Array.from({ length: 40 }, (_, i) => `${i} `).join('')}error`);
    } finally {
      await reader.close();
      other.disconnect();
    }
  }, 20_000);

  it('a subscriber whose client goes away stops reading at once, even while nothing arrives', async () => {
    const blocking = new Redis(redis.url, { maxRetriesPerRequest: null });
    const other = new Redis(redis.url);
    const reader = createRunStreamReader(() => blocking, other, ws.config.prefix, { blockMs: 5000 });
    try {
      const gone = new AbortController();
      const got: RunEvent[] = [];
      const reading = (async () => {
        for await (const e of reader.subscribe('gone-client-0001', gone.signal)) got.push(e);
      })();
      await new Promise((r) => setTimeout(r, 100));
      expect(reader.active()).toBe(1);
      gone.abort();
      await reading;
      expect(reader.active()).toBe(0);
      expect(got).toEqual([]);
    } finally {
      await reader.close();
      other.disconnect();
    }
  }, 20_000);

  it("a run that fails for good ends its stream with an error event; an attempt that will be retried doesn't", async () => {
    /** The agent worker's handler over a store whose search fails with `err` (its own Redis client: a graph of its own). */
    const failWith = async (runId: string, err: Error, attemptsMade: number) => {
      const store = Object.assign(Object.create(service.ports.store) as VectorStore, {
        hybrid: async () => {
          throw err;
        },
      });
      const own = new Redis(redis.url, { maxRetriesPerRequest: null });
      try {
        const ctx = { ...service.ports, redis: own, store, log: createLogger('silent'), signal: new AbortController().signal, progress: async () => undefined, recordStatus: () => undefined, attemptsMade };
        await expect(agentWorker.handler({ runId, query: QUESTION }, ctx)).rejects.toBe(err);
        const entries = await own.xrange(runStreamKey(ws.config.prefix, runId), '-', '+');
        return entries.map(([, fields]) => parseRunEntry(fields));
      } finally {
        own.disconnect();
      }
    };
    const failed = await failWith('failing-run-0001', new PermanentError('STORE_REJECTED', 'the store refused the search'), 0);
    expect(failed.at(-1)).toEqual({ type: 'error', error: { code: 'STORE_REJECTED', message: 'the store refused the search' } });
    expect(failed.slice(0, -1).every((e) => e?.type === 'node')).toBe(true);
    const retried = await failWith('failing-run-0002', new RetryableError('STORE_UNAVAILABLE', 'down'), 0);
    expect(retried.some((e) => e?.type === 'error')).toBe(false);
    const lastTry = await failWith('failing-run-0003', new RetryableError('STORE_UNAVAILABLE', 'down'), agentRunQueue.policy.attempts - 1);
    expect(lastTry.at(-1)).toMatchObject({ type: 'error', error: { code: 'STORE_UNAVAILABLE' } });
  }, 20_000);

  it('the openai client gets a chat completion and a streamed one, each with numbered citations as text and as data', async () => {
    const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'q-key', maxRetries: 0 });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['quarry']);

    const messages = [
      { role: 'system' as const, content: 'You are helpful.' },
      { role: 'user' as const, content: 'Hello' },
      { role: 'assistant' as const, content: 'Hi! Ask me about the documents.' },
      { role: 'user' as const, content: QUESTION },
    ];
    const completion = await client.chat.completions.create({ model: 'any-model-name', messages });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('any-model-name');
    const content = completion.choices[0]!.message.content ?? '';
    expect(content).toMatch(/sixteen \(16\) weeks[^\n]*\[1\]/);
    expect(content).toMatch(/\nSources:\n\[1\] Parental Leave Policy — [^\n]*Leave Entitlement[^\n]*, p\. 1/);
    const citations = (completion as unknown as { citations: Citation[] }).citations;
    expect(citations[0]).toMatchObject({ n: 1, docId: docIdForSource('dir:parental-leave.pdf'), pages: { start: 1, end: 1 } });

    const stream = await client.chat.completions.create({ model: 'quarry', messages, stream: true });
    let text = '';
    let last: (OpenAI.Chat.Completions.ChatCompletionChunk & { citations?: Citation[] }) | null = null;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      expect(chunk.object).toBe('chat.completion.chunk');
      text += chunk.choices[0]?.delta?.content ?? '';
      last = chunk;
    }
    expect(chunks).toBeGreaterThan(3);
    expect(text).toBe(content);
    expect(last?.choices[0]?.finish_reason).toBe('stop');
    expect(last?.citations).toEqual(citations);
  }, 30_000);

  it('a chat body without a user question is a 400 naming the field; a wrong key is 401', async () => {
    const noUser = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: Q, body: JSON.stringify({ model: 'quarry', messages: [{ role: 'system', content: 'x' }] }) });
    expect(noUser.status).toBe(400);
    expect(((await noUser.json()) as { error: { message: string } }).error.message).toMatch(/body\.messages/);
    const noModel = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: Q, body: JSON.stringify({ messages: [{ role: 'user', content: 'x' }] }) });
    expect(noModel.status).toBe(400);
    expect(((await noModel.json()) as { error: { message: string } }).error.message).toMatch(/body\.model/);
    const badKey = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'wrong', maxRetries: 0 });
    await expect(badKey.chat.completions.create({ model: 'quarry', messages: [{ role: 'user', content: QUESTION }] })).rejects.toMatchObject({ status: 401 });
  });
});
