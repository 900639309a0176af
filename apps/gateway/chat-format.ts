/**
 * The OpenAI chat-completions shapes of Quarry's answers (`POST /v1/chat/completions`): the body a
 * client sends, and the `chat.completion` / `chat.completion.chunk` objects it reads. Pure.
 */
import { z } from 'zod';
import type { AgentAnswer, Citation } from '../../shared/runs/index.ts';

/** The one model Quarry serves (any model name is accepted and echoed). */
export const QUARRY_MODEL = 'quarry';

const TextPart = z.object({ type: z.string(), text: z.string().optional() });

/** A chat message as OpenAI clients send it; content may be text or a list of parts. */
export const ChatMessageIn = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: z.union([z.string(), z.array(TextPart), z.null()]).optional(),
});

/**
 * The request body. Fields Quarry does not use (temperature, max_tokens, user, …) are accepted and
 * ignored, as chat clients send them unasked; `stream_options` too.
 */
export const ChatCompletionBody = z.object({
  model: z.string().min(1, 'must name a model (any name; "quarry" is listed)'),
  messages: z.array(ChatMessageIn).min(1, 'must hold at least one message'),
  stream: z.boolean().nullable().optional(),
});
export type ChatCompletionBody = z.infer<typeof ChatCompletionBody>;

/** The text of a message's content (text parts joined; other parts ignored). */
export function contentText(content: z.infer<typeof ChatMessageIn>['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content
    .filter((p) => p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');
}

/**
 * The question: the last user message's text, trimmed; null when there is none or it is empty.
 * Earlier turns are not sent to the agent: each question is answered from the documents alone.
 */
export function lastUserQuestion(messages: ChatCompletionBody['messages']): { index: number; text: string } | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'user') continue;
    const text = contentText(m.content).trim();
    return text ? { index: i, text } : null;
  }
  return null;
}

/** One line per citation, numbered as in the text: "[1] Title — Section > Path, p. 3". */
export function sourcesFootnote(citations: readonly Citation[]): string {
  if (citations.length === 0) return '';
  const lines = citations.map((c) => {
    const pages = c.pages.start === c.pages.end ? `p. ${c.pages.start}` : `pp. ${c.pages.start}–${c.pages.end}`;
    return `[${c.n}] ${c.title}${c.sectionPath ? ` — ${c.sectionPath}` : ''}, ${pages}`;
  });
  return `\n\nSources:\n${lines.join('\n')}`;
}

/** The assistant's message: the answer (with its `[n]` markers) and the sources it cites. */
export function chatContent(answer: Pick<AgentAnswer, 'text' | 'citations'>): string {
  return answer.text + sourcesFootnote(answer.citations);
}

/** Quarry's extra fields on a completion and on the last chunk: structured citations and the run. */
function quarryExtras(answer: AgentAnswer) {
  return { citations: answer.citations, quarry: { runId: answer.runId, validated: answer.validated, fallback: answer.fallback, dateQualifier: answer.dateQualifier } };
}

/** A non-streamed `chat.completion`. */
export function chatCompletion(answer: AgentAnswer, model: string, created: number) {
  return {
    id: `chatcmpl-${answer.runId}`,
    object: 'chat.completion' as const,
    created,
    model,
    choices: [{ index: 0, message: { role: 'assistant' as const, content: chatContent(answer), refusal: null }, logprobs: null, finish_reason: 'stop' as const }],
    // The agent counts no tokens: zeros rather than invented numbers.
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    ...quarryExtras(answer),
  };
}

/** One `chat.completion.chunk`: a piece of content, or (with `answer`) the last chunk with finish_reason and citations. */
export function chatChunk(runId: string, model: string, created: number, piece: { role?: 'assistant'; content?: string } | null, answer?: AgentAnswer) {
  return {
    id: `chatcmpl-${runId}`,
    object: 'chat.completion.chunk' as const,
    created,
    model,
    choices: [{ index: 0, delta: piece ?? {}, logprobs: null, finish_reason: answer ? ('stop' as const) : null }],
    ...(answer ? quarryExtras(answer) : {}),
  };
}
