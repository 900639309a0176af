import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PermanentError, RetryableError } from '../../shared/errors.ts';
import {
  createHttpReranker,
  parseRerankResponse,
  RERANKER_UNAVAILABLE_CODE,
  rerankEndpoint,
  toUnitScores,
  type HttpRerankerOptions,
  type RerankShape,
} from '../../shared/retrieval/http-reranker.ts';
import { createReranker } from '../../shared/retrieval/index.ts';
import { withFallback, type Reranker } from '../../shared/retrieval/reranker.ts';
import { startFakeRerankServer, type FakeRerankServer } from '../contract/reranker.fake-server.ts';

const DOCS = [
  { id: 'a', text: 'paid parental leave lasts sixteen weeks' },
  { id: 'b', text: 'remote work needs approval' },
  { id: 'c', text: 'parental leave requests go to HR' },
];

async function failure(p: Promise<unknown>): Promise<PermanentError | RetryableError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err === null).toBe(false);
  return err as PermanentError | RetryableError;
}

describe('rerankEndpoint', () => {
  it.each([
    ['http://h:8080', 'tei', 'http://h:8080/rerank'],
    ['http://h:8080/', 'tei', 'http://h:8080/rerank'],
    ['https://api.cohere.com', 'cohere', 'https://api.cohere.com/v1/rerank'],
    ['https://api.cohere.com/v2/rerank', 'cohere', 'https://api.cohere.com/v2/rerank'],
    ['https://api.jina.ai', 'jina', 'https://api.jina.ai/v1/rerank'],
    ['http://vllm:8000/v1', 'jina', 'http://vllm:8000/v1/rerank'],
  ] as const)('%s (%s) → %s', (url, shape, expected) => {
    expect(rerankEndpoint(url, shape)).toBe(expected);
  });
});

describe('score parsing', () => {
  it('keeps probabilities, squashes logits, gives unscored documents 0', () => {
    expect(toUnitScores([0.2, 0.9, null])).toEqual([0.2, 0.9, 0]);
    const logits = toUnitScores([-2, 0, 3]);
    expect(logits[1]).toBe(0.5);
    expect(logits[0] ?? 1).toBeLessThan(0.5);
    expect(logits[2] ?? 0).toBeGreaterThan(0.9);
  });

  it('refuses malformed bodies, repeated or out-of-range indices', () => {
    expect(() => parseRerankResponse('tei', { results: [] }, 1)).toThrow(PermanentError);
    expect(() => parseRerankResponse('cohere', [{ index: 0, score: 1 }], 1)).toThrow(/relevance_score/);
    expect(() => parseRerankResponse('tei', [{ index: 0, score: 1 }, { index: 0, score: 1 }], 2)).toThrow(/repeated/);
    expect(() => parseRerankResponse('jina', { results: [{ index: 5, relevance_score: 1 }] }, 2)).toThrow(/out of range/);
    expect(parseRerankResponse('jina', { results: [{ index: 1, relevance_score: 0.3 }] }, 2)).toEqual([null, 0.3]);
  });
});

describe.each(['tei', 'cohere', 'jina'] as const)('http reranker (%s) against a local fake', (shape: RerankShape) => {
  let server: FakeRerankServer;
  beforeAll(async () => {
    server = await startFakeRerankServer(shape);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    for (const key of Object.keys(server.behaviour)) delete server.behaviour[key as keyof typeof server.behaviour];
  });
  const make = (extra: Partial<HttpRerankerOptions> = {}) =>
    createHttpReranker({ url: server.url, shape, model: 'm1', apiKey: 'k1', timeoutMs: 2000, ...extra });

  it('sends the request shape of its dialect, with the key', async () => {
    await make().rerank('parental leave', DOCS);
    const req = server.requests[0];
    expect(req?.authorization).toBe('Bearer k1');
    const texts = DOCS.map((d) => d.text);
    if (shape === 'tei') expect(req?.body).toEqual({ query: 'parental leave', texts, truncate: true, raw_scores: false, return_text: false });
    if (shape === 'cohere') expect(req?.body).toEqual({ model: 'm1', query: 'parental leave', documents: texts, top_n: 3 });
    if (shape === 'jina') expect(req?.body).toEqual({ model: 'm1', query: 'parental leave', documents: texts, top_n: 3, return_documents: false });
  });

  it('batches, cuts long documents, and puts scores back on the right ids', async () => {
    const results = await make({ maxBatchSize: 2, maxChars: 20 }).rerank('parental leave', DOCS);
    expect(server.requests).toHaveLength(2);
    const sent = server.requests.flatMap((r) => (shape === 'tei' ? r.body.texts : r.body.documents) as string[]);
    expect(sent.every((t) => t.length <= 20)).toBe(true);
    expect(results.map((r) => r.id)).toEqual(['a', 'c', 'b']);
  });

  it('maps logits to [0, 1] and ranks documents the server left out last with 0', async () => {
    server.behaviour.logits = true;
    const logits = await make().rerank('parental leave', DOCS);
    for (const r of logits) expect(r.score >= 0 && r.score <= 1).toBe(true);
    server.behaviour.logits = false;
    server.behaviour.dropLast = true;
    const dropped = await make().rerank('parental leave', DOCS);
    expect(dropped.map((r) => r.id).sort()).toEqual(['a', 'b', 'c']);
    expect(dropped.at(-1)?.score).toBe(0);
  });

  it.each([429, 408, 500, 503])('HTTP %i is retryable', async (status) => {
    server.behaviour.status = status;
    const err = await failure(make().rerank('q', DOCS));
    expect(err).toBeInstanceOf(RetryableError);
    expect(err.code).toBe(RERANKER_UNAVAILABLE_CODE);
    expect(err.message).not.toContain('parental');
  });

  it.each([400, 401, 404, 422])('HTTP %i is permanent', async (status) => {
    server.behaviour.status = status;
    const err = await failure(make().rerank('q', DOCS));
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.code).toBe(RERANKER_UNAVAILABLE_CODE);
  });

  it('a timeout is retryable; the caller abort passes through as its reason', async () => {
    server.behaviour.delayMs = 300;
    const err = await failure(make({ timeoutMs: 50 }).rerank('q', DOCS));
    expect(err).toBeInstanceOf(RetryableError);
    expect(err.message).toMatch(/timed out/);
    const controller = new AbortController();
    const reason = new Error('stop');
    setTimeout(() => controller.abort(reason), 20);
    await expect(make().rerank('q', DOCS, controller.signal)).rejects.toBe(reason);
  });

  it('a body that is not JSON or has bad indices is INVALID_RESULT', async () => {
    server.behaviour.garbage = true;
    expect((await failure(make().rerank('q', DOCS))).code).toBe('INVALID_RESULT');
    server.behaviour.garbage = false;
    server.behaviour.badIndex = true;
    expect((await failure(make().rerank('q', DOCS))).code).toBe('INVALID_RESULT');
  });
});

describe('reranker config and fallback', () => {
  it('a refused connection is retryable; createReranker falls back to lexical and says so', async () => {
    const server = await startFakeRerankServer('tei');
    const url = server.url;
    await server.close();
    const err = await failure(createHttpReranker({ url, shape: 'tei', timeoutMs: 2000 }).rerank('q', DOCS));
    expect(err).toBeInstanceOf(RetryableError);
    const seen: unknown[] = [];
    const reranker = createReranker({ provider: 'http', url, shape: 'tei', timeoutMs: 2000 }, (e) => seen.push(e));
    expect(reranker.name).toBe('http:tei|lexical');
    const results = await reranker.rerank('parental leave', DOCS);
    expect(results[0]?.id).toBe('a');
    expect(seen).toHaveLength(1);
  });

  it('fallback does not hide programming errors or aborts', async () => {
    const broken: Reranker = { name: 'broken', rerank: () => Promise.reject(new TypeError('bug')) };
    const lexical = createReranker({ provider: 'lexical' });
    await expect(withFallback(broken, lexical).rerank('q', DOCS)).rejects.toThrow(TypeError);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const down: Reranker = { name: 'down', rerank: () => Promise.reject(new RetryableError('INTERNAL', 'down')) };
    await expect(withFallback(down, lexical).rerank('q', DOCS, controller.signal)).rejects.toThrow('stop');
  });

  it('validates its options', () => {
    expect(() => createHttpReranker({ url: 'not a url', shape: 'tei' })).toThrow(PermanentError);
    expect(() => createHttpReranker({ url: 'http://h', shape: 'tei', timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => createHttpReranker({ url: 'http://h', shape: 'cohere', maxBatchSize: 0 })).toThrow(/maxBatchSize/);
  });
});
