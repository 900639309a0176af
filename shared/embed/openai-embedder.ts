import OpenAI from 'openai';
import { PermanentError, RetryableError, isQuarryError } from '../errors.ts';
import { l2Normalise, type Embedder } from './embedder.ts';

/** Options of the adapter for any OpenAI-compatible `/embeddings` endpoint (OpenAI, Ollama, vLLM, TEI). */
export interface OpenAiEmbedderOptions {
  /**
   * Base URL including the version path, e.g. `http://127.0.0.1:11434/v1`.
   * @defaultValue `https://api.openai.com/v1`
   */
  baseURL?: string;
  /**
   * Bearer token. Local servers ignore it, but the SDK insists on one, so a placeholder is sent
   * (never the `OPENAI_API_KEY` environment variable: config is passed in, not read here).
   * @defaultValue `"no-key"`
   */
  apiKey?: string;
  /** Model name sent with every request, e.g. `text-embedding-3-small`. */
  model: string;
  /** Vector length every response must have. */
  dimension: number;
  /**
   * Send `dimensions: dimension` in the request, for models that can shorten their output
   * (OpenAI text-embedding-3-*). Most other servers reject the field.
   * @defaultValue false
   */
  sendDimensions?: boolean;
  /**
   * Per-request timeout in milliseconds.
   * @defaultValue 30000
   */
  timeoutMs?: number;
  /**
   * Inputs per HTTP request; larger calls are split.
   * @defaultValue 128
   */
  maxBatchSize?: number;
  /**
   * Retries inside one call, by the SDK (429, 408, 5xx, connection errors, with backoff). The
   * queue retries the whole job too, so keep this small.
   * @defaultValue 2
   */
  maxRetries?: number;
  /**
   * L2-normalise responses. OpenAI already does; Ollama and TEI may not, and the store ranks by
   * cosine while the quality checks expect unit vectors.
   * @defaultValue true
   */
  normalise?: boolean;
}

/**
 * Maps whatever the SDK threw to a Quarry error: a rate limit, timeout, server error or broken
 * connection may pass (retryable); any other HTTP error will not (permanent). An abort of the
 * caller's signal is re-thrown as it is, so the runtime sees the cancellation it asked for.
 */
function classify(err: unknown, model: string, signal?: AbortSignal): unknown {
  if (isQuarryError(err)) return err;
  if (signal?.aborted && (err instanceof OpenAI.APIUserAbortError || (err instanceof Error && err.name === 'AbortError'))) {
    return signal.reason ?? err;
  }
  const what = `embedder ${model}`;
  if (err instanceof OpenAI.APIConnectionError) {
    // Includes APIConnectionTimeoutError (a subclass) and aborts the SDK made for its own timeout.
    return new RetryableError('EMBEDDER_UNAVAILABLE', `${what}: ${err.message}`, { cause: err });
  }
  if (err instanceof OpenAI.APIError) {
    const status = err.status;
    if (status === undefined || status === 408 || status === 429 || status >= 500) {
      return new RetryableError('EMBEDDER_UNAVAILABLE', `${what}: HTTP ${status ?? '?'} ${err.message}`, { cause: err });
    }
    return new PermanentError('EMBEDDER_UNAVAILABLE', `${what}: HTTP ${status} ${err.message}`, { cause: err });
  }
  if (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError')) {
    return new RetryableError('EMBEDDER_UNAVAILABLE', `${what}: ${err.message}`, { cause: err });
  }
  return err;
}

/**
 * Creates an embedder backed by an OpenAI-compatible `/embeddings` endpoint. Requests are sent
 * one batch at a time, with `encoding_format: "float"` (many compatible servers do not speak
 * the SDK's default base64), and responses are put back in input order by their `index`.
 *
 * @throws PermanentError `INVALID_CONFIG` for an empty model, bad dimension or batch size.
 */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const { model, dimension } = options;
  const maxBatchSize = options.maxBatchSize ?? 128;
  const normalise = options.normalise ?? true;
  if (!model) throw new PermanentError('INVALID_CONFIG', 'openai embedder: model is required');
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw new PermanentError('INVALID_CONFIG', `openai embedder: dimension must be a positive integer, got ${dimension}`);
  }
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
    throw new PermanentError('INVALID_CONFIG', `openai embedder: maxBatchSize must be a positive integer, got ${maxBatchSize}`);
  }
  const client = new OpenAI({
    baseURL: options.baseURL ?? 'https://api.openai.com/v1',
    apiKey: options.apiKey ?? 'no-key',
    timeout: options.timeoutMs ?? 30_000,
    maxRetries: options.maxRetries ?? 2,
  });

  async function embedBatch(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    let response: OpenAI.CreateEmbeddingResponse;
    try {
      response = await client.embeddings.create(
        {
          model,
          input: texts,
          encoding_format: 'float',
          ...(options.sendDimensions ? { dimensions: dimension } : {}),
        },
        signal ? { signal } : undefined,
      );
    } catch (err) {
      throw classify(err, model, signal);
    }
    const data: unknown = response?.data;
    if (!Array.isArray(data) || data.length !== texts.length) {
      const got = Array.isArray(data) ? data.length : 'no';
      throw new PermanentError('DIMENSION_MISMATCH', `embedder ${model}: ${got} embeddings for ${texts.length} inputs`);
    }
    const out = new Array<Float32Array | undefined>(texts.length);
    data.forEach((item: OpenAI.Embedding, position: number) => {
      // Servers that omit `index` answer in input order.
      const index = typeof item?.index === 'number' ? item.index : position;
      const embedding: unknown = item?.embedding;
      if (!Array.isArray(embedding) || index < 0 || index >= texts.length || out[index] !== undefined) {
        throw new PermanentError('DIMENSION_MISMATCH', `embedder ${model}: malformed embedding at position ${position}`);
      }
      if (embedding.length !== dimension) {
        throw new PermanentError(
          'DIMENSION_MISMATCH',
          `embedder ${model}: expected dimension ${dimension}, got ${embedding.length} (input ${index})`,
        );
      }
      const vector = Float32Array.from(embedding as number[]);
      out[index] = normalise ? l2Normalise(vector) : vector;
    });
    return out as Float32Array[];
  }

  return {
    model,
    dimension,
    async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += maxBatchSize) {
        signal?.throwIfAborted();
        out.push(...(await embedBatch(texts.slice(start, start + maxBatchSize), signal)));
      }
      return out;
    },
  };
}
