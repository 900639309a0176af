import { z } from 'zod';
import { PermanentError, RetryableError, isQuarryError, type ErrorCode } from '../errors.ts';
import { orderResults, type RerankDoc, type Reranker } from './reranker.ts';

/**
 * Error code of an unreachable or failing reranker backend. `ErrorCode` has no reranker code
 * yet; `RERANKER_UNAVAILABLE` has been asked for. Until then: INTERNAL, changed here only.
 */
export const RERANKER_UNAVAILABLE_CODE: ErrorCode = 'RERANKER_UNAVAILABLE';

/** Request/response dialects of `/rerank` servers. */
export type RerankShape = 'tei' | 'cohere' | 'jina';

/** Options of {@link createHttpReranker}. */
export interface HttpRerankerOptions {
  /**
   * Server base URL (`http://127.0.0.1:8080`, `https://api.cohere.com`, `https://api.jina.ai`)
   * or the full endpoint (ending in `/rerank`). A base gets `/rerank` (TEI) or `/v1/rerank`
   * (Cohere, Jina; `/rerank` alone when the base already ends in a version such as `/v1`).
   */
  url: string;
  /**
   * `tei`: `POST /rerank {query, texts}` → `[{index, score}]` (HuggingFace text-embeddings-inference).
   * `cohere`: `POST /v1/rerank {model, query, documents, top_n}` → `{results: [{index, relevance_score}]}`.
   * `jina`: `POST /v1/rerank {model, query, documents}` → `{results: [{index, relevance_score}]}`
   * (also what vLLM and Infinity serve).
   */
  shape: RerankShape;
  /** Model name; sent for `cohere` and `jina` (their hosted APIs require it), never for `tei`. */
  model?: string;
  /** Sent as `Authorization: Bearer <apiKey>` when given. */
  apiKey?: string;
  /**
   * Deadline of one HTTP request, in milliseconds.
   * @defaultValue 10000
   */
  timeoutMs?: number;
  /**
   * Documents per request; larger calls are split (cross-encoder scores are per pair, so
   * batches compare). TEI refuses more than its `--max-client-batch-size` (32 by default).
   * @defaultValue 32 for `tei`, 1000 for `cohere`, 512 for `jina`
   */
  maxBatchSize?: number;
  /**
   * Characters of each document sent; the rest is cut (cross-encoders read ~512 tokens anyway).
   * @defaultValue 4000
   */
  maxChars?: number;
}

const DEFAULT_BATCH: Readonly<Record<RerankShape, number>> = { tei: 32, cohere: 1000, jina: 512 };

const TeiResponse = z.array(z.object({ index: z.number().int(), score: z.number() }));
const ResultsResponse = z.object({ results: z.array(z.object({ index: z.number().int(), relevance_score: z.number() })) });

/** The endpoint URL for `shape`, from a base URL or a full `/rerank` URL. */
export function rerankEndpoint(url: string, shape: RerankShape): string {
  const base = url.replace(/\/+$/, '');
  if (/\/rerank$/.test(base)) return base;
  if (shape === 'tei' || /\/v\d+$/.test(base)) return `${base}/rerank`;
  return `${base}/v1/rerank`;
}

/** The JSON body `shape` expects. */
export function rerankRequestBody(shape: RerankShape, query: string, texts: readonly string[], model?: string): Record<string, unknown> {
  const withModel = model ? { model } : {};
  switch (shape) {
    case 'tei':
      // truncate: a passage longer than the model's window is cut instead of failing the batch.
      return { query, texts, truncate: true, raw_scores: false, return_text: false };
    case 'cohere':
      return { ...withModel, query, documents: texts, top_n: texts.length };
    case 'jina':
      // Jina returns the documents back unless told not to: wasted bytes.
      return { ...withModel, query, documents: texts, top_n: texts.length, return_documents: false };
  }
}

/**
 * Raw scores by input position from a response body; missing positions are `null`.
 *
 * @throws PermanentError `INVALID_RESULT` for a body of the wrong shape, an index out of range or
 *   given twice, or a non-finite score.
 */
export function parseRerankResponse(shape: RerankShape, body: unknown, count: number, what = `reranker ${shape}`): Array<number | null> {
  let pairs: Array<{ index: number; score: number }>;
  if (shape === 'tei') {
    const parsed = TeiResponse.safeParse(body);
    if (!parsed.success) throw new PermanentError('INVALID_RESULT', `${what}: response is not [{index, score}]`);
    pairs = parsed.data;
  } else {
    const parsed = ResultsResponse.safeParse(body);
    if (!parsed.success) throw new PermanentError('INVALID_RESULT', `${what}: response is not {results: [{index, relevance_score}]}`);
    pairs = parsed.data.results.map((r) => ({ index: r.index, score: r.relevance_score }));
  }
  const out = new Array<number | null>(count).fill(null);
  for (const { index, score } of pairs) {
    if (index < 0 || index >= count || out[index] !== null) {
      throw new PermanentError('INVALID_RESULT', `${what}: index ${index} out of range or repeated (${count} documents)`);
    }
    if (!Number.isFinite(score)) throw new PermanentError('INVALID_RESULT', `${what}: non-finite score at index ${index}`);
    out[index] = score;
  }
  return out;
}

/**
 * Maps raw scores to [0, 1]. Probabilities (every score in [0, 1]) stay as they are; anything
 * else is taken for logits (TEI `raw_scores`, some Jina/vLLM models) and goes through a sigmoid,
 * decided once per call so all documents of a call share one scale. A document the server did
 * not score (a `top_n` it capped) gets 0: it ranks last rather than vanishing.
 */
export function toUnitScores(raw: ReadonlyArray<number | null>): number[] {
  const present = raw.filter((s): s is number => s !== null);
  const probabilities = present.every((s) => s >= 0 && s <= 1);
  return raw.map((s) => (s === null ? 0 : probabilities ? s : 1 / (1 + Math.exp(-s))));
}

function classifyStatus(status: number, what: string, detail: string): PermanentError | RetryableError {
  const message = `${what}: HTTP ${status}${detail ? ` ${detail}` : ''}`;
  if (status === 408 || status === 429 || status >= 500) return new RetryableError(RERANKER_UNAVAILABLE_CODE, message);
  return new PermanentError(RERANKER_UNAVAILABLE_CODE, message);
}

/** Network failures and our own deadline may pass; the caller's abort is re-thrown as it is. */
function classifyThrown(err: unknown, what: string, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason ?? err;
  if (isQuarryError(err)) return err;
  const name = err instanceof Error ? err.name : '';
  const message = err instanceof Error ? err.message : String(err);
  if (name === 'TimeoutError' || name === 'AbortError') return new RetryableError(RERANKER_UNAVAILABLE_CODE, `${what}: timed out (${message})`, { cause: err });
  // fetch rejects with a TypeError for refused connections, resets and DNS failures.
  if (err instanceof TypeError) return new RetryableError(RERANKER_UNAVAILABLE_CODE, `${what}: ${message}`, { cause: err });
  return err;
}

/**
 * A cross-encoder behind HTTP (TEI, Cohere, Jina, vLLM, Infinity). Batches are sent one after
 * another; scores are mapped to [0, 1] by {@link toUnitScores}. No retries inside a call: the
 * agent falls back to the lexical reranker instead (see `withFallback`).
 *
 * Errors: HTTP 408/429/5xx, timeouts and connection failures → `RetryableError`; other HTTP
 * errors → `PermanentError` (both with {@link RERANKER_UNAVAILABLE_CODE}); a malformed answer →
 * `PermanentError('INVALID_RESULT')`. Messages never contain document text.
 *
 * @throws PermanentError `INVALID_CONFIG` for a malformed URL or a bad timeout/batch size.
 */
export function createHttpReranker(options: HttpRerankerOptions): Reranker {
  const { shape, model, apiKey } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBatchSize = options.maxBatchSize ?? DEFAULT_BATCH[shape];
  const maxChars = options.maxChars ?? 4000;
  let endpoint: string;
  try {
    endpoint = new URL(rerankEndpoint(options.url, shape)).toString();
  } catch {
    throw new PermanentError('INVALID_CONFIG', `http reranker: invalid url ${JSON.stringify(options.url)}`);
  }
  if (!(timeoutMs > 0)) throw new PermanentError('INVALID_CONFIG', `http reranker: timeoutMs must be positive, got ${timeoutMs}`);
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) throw new PermanentError('INVALID_CONFIG', `http reranker: maxBatchSize must be a positive integer, got ${maxBatchSize}`);
  if (!Number.isInteger(maxChars) || maxChars < 1) throw new PermanentError('INVALID_CONFIG', `http reranker: maxChars must be a positive integer, got ${maxChars}`);
  const name = `http:${shape}${model ? `:${model}` : ''}`;
  const what = `reranker ${name}`;

  async function scoreBatch(query: string, docs: readonly RerankDoc[], signal?: AbortSignal): Promise<Array<number | null>> {
    const texts = docs.map((d) => d.text.slice(0, maxChars));
    const deadline = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let body: unknown;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify(rerankRequestBody(shape, query, texts, model)),
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      });
      const raw = await response.text();
      if (!response.ok) throw classifyStatus(response.status, what, raw.replace(/\s+/g, ' ').slice(0, 200));
      try {
        body = JSON.parse(raw);
      } catch {
        throw new PermanentError('INVALID_RESULT', `${what}: response is not JSON`);
      }
    } catch (err) {
      throw classifyThrown(err, what, signal);
    }
    return parseRerankResponse(shape, body, docs.length, what);
  }

  return {
    name,
    async rerank(query, docs, signal) {
      signal?.throwIfAborted();
      if (docs.length === 0) return [];
      const raw: Array<number | null> = [];
      for (let start = 0; start < docs.length; start += maxBatchSize) {
        raw.push(...(await scoreBatch(query, docs.slice(start, start + maxBatchSize), signal)));
      }
      return orderResults(docs, toUnitScores(raw));
    },
  };
}
