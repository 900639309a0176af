/**
 * Language models: the Llm port and its OpenAI-compatible chat adapter, the answer prompt, the
 * extractive answerer (the default: no model), the sanitising of a model's answer, the pieces a
 * streamed answer is cut into.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: createLlm, composeExtractiveAnswer, buildAnswerPrompt, sanitizeModelAnswer. This
 * index loads the openai package: only the agent's side imports it.
 */

import { PermanentError } from '../errors.ts';
import type { Llm } from './llm.ts';
import { createOpenAiChatLlm } from './openai-chat-llm.ts';

export { LLM_UNAVAILABLE_CODE, type ChatMessage, type CompleteOptions, type Llm } from './llm.ts';
export { createOpenAiChatLlm, type OpenAiChatLlmOptions } from './openai-chat-llm.ts';
export { findUrls, sanitizeModelAnswer, urlKey, type SanitizedAnswer, type SanitizeReport } from './sanitize-answer.ts';
export { buildAnswerPrompt, citationNumbers, encodeData, PASSAGES_CLOSE, PASSAGES_OPEN, type AnswerPromptOptions } from './answer-prompt.ts';
export {
  composeExtractiveAnswer,
  formatDateQualifier,
  type AnswerChunk,
  type Citation,
  type ExtractiveAnswer,
  type ExtractiveAnswerInput,
} from './extractive-answer.ts';

/** LLM settings as they appear in Quarry's config. */
export type LlmConfig =
  | { provider: 'none' }
  | {
      provider: 'openai';
      model: string;
      baseUrl?: string;
      apiKey?: string;
      /** @defaultValue 60000 */
      timeoutMs?: number;
    };

/**
 * The Llm named by `config.provider`, or null for `none` (rules planner/validator and the
 * extractive answerer: the embedded default needs no model).
 *
 * @throws PermanentError `INVALID_CONFIG` for an unknown provider or a missing model.
 */
export function createLlm(config: LlmConfig): Llm | null {
  switch (config.provider) {
    case 'none':
      return null;
    case 'openai':
      return createOpenAiChatLlm({
        model: config.model,
        ...(config.baseUrl !== undefined ? { baseURL: config.baseUrl } : {}),
        ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
        ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
      });
    default: {
      const provider: never = config;
      throw new PermanentError('INVALID_CONFIG', `unknown llm provider ${JSON.stringify(provider)}`);
    }
  }
}

export { wordCount } from './extractive-answer.ts';
export { createDeltaStreamer, sentencePieces } from './stream-pieces.ts';
