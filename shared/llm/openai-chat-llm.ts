import OpenAI from 'openai';
import { PermanentError, RetryableError, isQuarryError } from '../errors.ts';
import { LLM_UNAVAILABLE_CODE, type ChatMessage, type CompleteOptions, type Llm } from './llm.ts';

/** Options of the adapter for any OpenAI-compatible `/chat/completions` endpoint (OpenAI, Ollama, vLLM, llama.cpp). */
export interface OpenAiChatLlmOptions {
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
  /** Model name sent with every request. */
  model: string;
  /**
   * Per-request timeout in milliseconds.
   * @defaultValue 60000
   */
  timeoutMs?: number;
  /**
   * Retries inside one call, by the SDK (429, 408, 5xx, connection errors, with backoff).
   * @defaultValue 1
   */
  maxRetries?: number;
  /**
   * Generated-token limit when the call gives none.
   * @defaultValue 800
   */
  defaultMaxTokens?: number;
  /**
   * Name of the token-limit field: OpenAI's reasoning models accept only
   * `max_completion_tokens`; many compatible servers know only `max_tokens`.
   * @defaultValue `"max_tokens"`
   */
  tokenLimitField?: 'max_tokens' | 'max_completion_tokens';
}

/**
 * Maps whatever the SDK threw to a Quarry error: rate limits, timeouts, server errors and broken
 * connections may pass (retryable); any other HTTP error will not (permanent). The caller's abort
 * is re-thrown as its reason.
 */
function classify(err: unknown, what: string, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason ?? err;
  if (isQuarryError(err)) return err;
  if (err instanceof OpenAI.APIConnectionError) {
    return new RetryableError(LLM_UNAVAILABLE_CODE, `${what}: ${err.message}`, { cause: err });
  }
  if (err instanceof OpenAI.APIError) {
    const status = err.status;
    if (status === undefined || status === 408 || status === 429 || status >= 500) {
      return new RetryableError(LLM_UNAVAILABLE_CODE, `${what}: HTTP ${status ?? '?'} ${err.message}`, { cause: err });
    }
    return new PermanentError(LLM_UNAVAILABLE_CODE, `${what}: HTTP ${status} ${err.message}`, { cause: err });
  }
  if (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError')) {
    return new RetryableError(LLM_UNAVAILABLE_CODE, `${what}: ${err.message}`, { cause: err });
  }
  return err;
}

/**
 * Creates an Llm backed by an OpenAI-compatible chat endpoint. Temperature defaults to 0 so the
 * same question over the same passages gives the same answer where the server allows it.
 *
 * Errors: see {@link Llm.complete}; codes are {@link LLM_UNAVAILABLE_CODE}, and an answer without
 * text is `PermanentError('INVALID_RESULT')`.
 *
 * @throws PermanentError `INVALID_CONFIG` for an empty model or a bad token limit.
 */
export function createOpenAiChatLlm(options: OpenAiChatLlmOptions): Llm {
  const { model } = options;
  if (!model) throw new PermanentError('INVALID_CONFIG', 'openai chat llm: model is required');
  const defaultMaxTokens = options.defaultMaxTokens ?? 800;
  if (!Number.isInteger(defaultMaxTokens) || defaultMaxTokens < 1) {
    throw new PermanentError('INVALID_CONFIG', `openai chat llm: defaultMaxTokens must be a positive integer, got ${defaultMaxTokens}`);
  }
  const tokenField = options.tokenLimitField ?? 'max_tokens';
  const client = new OpenAI({
    baseURL: options.baseURL ?? 'https://api.openai.com/v1',
    apiKey: options.apiKey ?? 'no-key',
    timeout: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries ?? 1,
  });
  const name = `openai:${model}`;
  // The request both `complete` and `stream` send, less the `stream` flag.
  const params = (messages: readonly ChatMessage[], opts: CompleteOptions) => ({
    model,
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
    temperature: opts.temperature ?? 0,
    [tokenField]: opts.maxTokens ?? defaultMaxTokens,
  });

  return {
    name,
    async complete(messages: readonly ChatMessage[], opts: CompleteOptions = {}): Promise<string> {
      opts.signal?.throwIfAborted();
      if (messages.length === 0) throw new PermanentError('INVALID_PAYLOAD', `${name}: no messages`);
      let response: OpenAI.Chat.Completions.ChatCompletion;
      try {
        response = await client.chat.completions.create(
          { ...params(messages, opts), stream: false },
          opts.signal ? { signal: opts.signal } : undefined,
        );
      } catch (err) {
        throw classify(err, name, opts.signal);
      }
      const content: unknown = response?.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new PermanentError('INVALID_RESULT', `${name}: response has no message content`);
      return content;
    },
    async stream(messages: readonly ChatMessage[], onToken: (text: string) => void, opts: CompleteOptions = {}): Promise<string> {
      opts.signal?.throwIfAborted();
      if (messages.length === 0) throw new PermanentError('INVALID_PAYLOAD', `${name}: no messages`);
      let text = '';
      let sawContent = false;
      try {
        const chunks = await client.chat.completions.create(
          { ...params(messages, opts), stream: true },
          opts.signal ? { signal: opts.signal } : undefined,
        );
        for await (const chunk of chunks) {
          const piece: unknown = chunk.choices?.[0]?.delta?.content;
          if (typeof piece !== 'string') continue;
          sawContent = true;
          if (!piece) continue;
          text += piece;
          onToken(piece);
        }
      } catch (err) {
        throw classify(err, name, opts.signal);
      }
      if (!sawContent) throw new PermanentError('INVALID_RESULT', `${name}: streamed response has no message content`);
      return text;
    },
  };
}
