/**
 * Streaming answer text: the pieces of an extractive answer, the OpenAI adapter's token stream
 * (against a local server speaking the streamed chat-completions protocol), and the answerer's
 * deltas over it — which concatenate to the final answer and never carry a link the sanitiser
 * removes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnswerer } from '../../shared/agent/compose-answer.ts';
import type { RankedCandidate } from '../../shared/agent/deps.ts';
import { RetryableError } from '../../shared/errors.ts';
import { createOpenAiChatLlm } from '../../shared/llm/openai-chat-llm.ts';
import { createDeltaStreamer, sentencePieces, streamablePrefix } from '../../shared/llm/stream-pieces.ts';

/** What the local server streams next: these pieces, or an HTTP error status. */
const next: { pieces: string[]; status?: number; bodies: Array<{ stream?: boolean }> } = { pieces: [], bodies: [] };
let server: Server;
let baseURL: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      next.bodies.push(JSON.parse(raw) as { stream?: boolean });
      if (next.status) {
        res.writeHead(next.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'down', type: 'fake', code: null } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: Record<string, string>, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(chunk({ role: 'assistant', content: '' }));
      for (const p of next.pieces) res.write(chunk({ content: p }));
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const llm = () => createOpenAiChatLlm({ baseURL, model: 'm', maxRetries: 0, timeoutMs: 2000 });

function ranked(body: string): RankedCandidate {
  return {
    hit: {
      chunk: {
        chunk_id: '00000000-0000-5000-8000-000000000001', doc_id: 'policy', version: 'a'.repeat(64), section: 'Leave', section_path: 'Policy > Leave',
        body, embedding_text: body, page_start: 1, page_end: 1, chunk_index: 0, total_chunks: 1, token_count: 10, entities: [],
        valid_from: null, valid_to: null, doc_type: 'policy', jurisdiction: 'US', lang: 'en', created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z',
      },
      score: 0.9, keywordScore: 0.9, vectorScore: 0.9, bm25: 1, cosine: 0.9,
    },
    terms: { chunkId: 'c', hybrid: 0.9, content: 0.9, rerank: 0.9, prior: 0, memory: 0, mmrPenalty: 0, final: 0.9, rankBefore: 1, rankAfter: 1, explored: false },
  };
}

const QUESTION = 'How many weeks of paid parental leave do employees get?';
const PASSAGE = 'Employees receive sixteen (16) weeks of paid parental leave. Leave may be split in two parts.';

describe('answer pieces', () => {
  it('an extractive answer streams one quoted sentence per piece, and the pieces make the text', () => {
    const text = 'As of 2025-01-01: Employees receive sixteen weeks. [1] Leave may be split. [2]';
    expect(sentencePieces(text)).toEqual(['As of 2025-01-01: Employees receive sixteen weeks. [1] ', 'Leave may be split. [2]']);
    expect(sentencePieces('Not found in the indexed documents.')).toEqual(['Not found in the indexed documents.']);
  });

  it('a model stream holds back an unfinished word and everything from a link on', () => {
    expect(streamablePrefix('Employees get sixt')).toBe('Employees get ');
    expect(streamablePrefix('See https://evil.example/x now ')).toBe('See ');
    expect(streamablePrefix('Click [here](http')).toBe('Click ');
    const out: string[] = [];
    const s = createDeltaStreamer((t) => out.push(t));
    for (const t of ['Sixteen ', 'weeks [1]. ', 'See ', 'https://', 'evil.example ', 'too.']) s.push(t);
    expect(out.join('')).toBe('Sixteen weeks [1]. See ');
    expect(s.finish('Sixteen weeks [1]. See too.')).toBe(true);
    expect(out.join('')).toBe('Sixteen weeks [1]. See too.');
  });
});

describe('streaming with a model', () => {
  it('the adapter streams tokens as they come and returns the whole text', async () => {
    next.status = undefined;
    next.pieces = ['Sixteen', ' weeks', ' [1].'];
    next.bodies.length = 0;
    const tokens: string[] = [];
    const text = await llm().stream!([{ role: 'user', content: 'q' }], (t) => tokens.push(t));
    expect(tokens).toEqual(['Sixteen', ' weeks', ' [1].']);
    expect(text).toBe('Sixteen weeks [1].');
    expect(next.bodies[0]).toMatchObject({ stream: true });
  });

  it('a failing backend is LLM_UNAVAILABLE (retryable), as for complete()', async () => {
    next.status = 503;
    const err = await llm().stream!([{ role: 'user', content: 'q' }], () => undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect((err as RetryableError).code).toBe('LLM_UNAVAILABLE');
    next.status = undefined;
  });

  it("the answerer's deltas are the model's tokens, concatenate to the sanitised answer, and never show a removed link", async () => {
    next.pieces = ['Employees ', 'receive sixteen ', 'weeks [1]. ', 'Details at ', 'https://', 'evil.example/x', ' today.'];
    const deltas: string[] = [];
    const answer = createAnswerer({ llm: llm(), titleOf: async () => 'Parental Leave Policy' });
    const out = await answer({ query: QUESTION, asOf: null, today: '2025-01-01', ranked: [ranked(PASSAGE)], onDelta: (t) => deltas.push(t) });
    expect(out.text).not.toMatch(/evil/);
    expect(out.citations.map((c) => c.n)).toEqual([1]);
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe(out.text);
    expect(deltas.join('')).not.toMatch(/https|evil/);
  });

  it('without a model the deltas are the extractive answer, sentence by sentence', async () => {
    const deltas: string[] = [];
    const answer = createAnswerer({ llm: null, titleOf: async () => 'Parental Leave Policy' });
    const out = await answer({ query: QUESTION, asOf: null, today: '2025-01-01', ranked: [ranked(PASSAGE)], onDelta: (t) => deltas.push(t) });
    expect(out.text).toMatch(/sixteen \(16\) weeks/);
    expect(deltas.join('')).toBe(out.text);
    expect(deltas).toEqual(sentencePieces(out.text));
  });
});
