/**
 * The Llm port (docs/architecture.md §2): chat messages in, text out. The embedded default is not an
 * Llm at all — planner and validator are rules and the answer is extractive
 * (`extractive-answer.ts`) — so code that can use a model takes `Llm | null`. Every adapter
 * passes `tests/contract/llm.contract.ts`.
 */
import type { ErrorCode } from '../errors.ts';

/** One chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Per-call options. */
export interface CompleteOptions {
  /** Upper bound of generated tokens; the adapter's default when absent. */
  maxTokens?: number;
  /** Sampling temperature; the adapter's default (0: answers should be reproducible) when absent. */
  temperature?: number;
  /** Cancels the call; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The Llm port. */
export interface Llm {
  /** Adapter and model, for traces (e.g. `openai:gpt-4o-mini`). */
  readonly name: string;
  /**
   * Completes a chat and returns the assistant's text.
   *
   * @throws PermanentError `INVALID_PAYLOAD` for an empty message list.
   * @throws RetryableError when the backend is down, slow or rate-limited.
   * @throws PermanentError when the backend rejects the request or answers without text.
   * @throws the signal's reason when `opts.signal` aborts.
   */
  complete(messages: readonly ChatMessage[], opts?: CompleteOptions): Promise<string>;
  /**
   * Like {@link Llm.complete}, but hands each piece of the text to `onToken` as the backend
   * writes it; resolves to the whole text. Optional: callers fall back to `complete`.
   * @throws as {@link Llm.complete}.
   */
  stream?(messages: readonly ChatMessage[], onToken: (text: string) => void, opts?: CompleteOptions): Promise<string>;
}

/**
 * Error code of an unreachable or failing model backend. `ErrorCode` has no LLM code yet;
 * `LLM_UNAVAILABLE` has been asked for. Until then: INTERNAL, changed here only.
 */
export const LLM_UNAVAILABLE_CODE: ErrorCode = 'LLM_UNAVAILABLE';
