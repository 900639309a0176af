import { describe, expect, it } from 'vitest';
import { ChatCompletionBody, chatChunk, chatCompletion, chatContent, lastUserQuestion, sourcesFootnote } from '../../apps/gateway/chat-format.ts';
import type { AgentAnswer, Citation } from '../../shared/runs/answer.ts';

const cite = (n: number, pages: [number, number], sectionPath = 'Policy > Leave'): Citation => ({
  n,
  chunkId: `00000000-0000-5000-8000-00000000000${n}`,
  docId: `doc-${n}`,
  title: `Title ${n}`,
  sectionPath,
  pages: { start: pages[0], end: pages[1] },
  validFrom: null,
  validTo: null,
});

const ANSWER: AgentAnswer = {
  runId: 'run12345',
  text: 'As of 2025-01-01: Sixteen weeks. [1] Paid in full. [2]',
  citations: [cite(1, [3, 3]), cite(2, [4, 5], '')],
  dateQualifier: 'as of 2025-01-01',
  asOf: null,
  validated: true,
  fallback: false,
  loops: 0,
  verdict: 'OK',
  reason: 'grounded',
  latencyMs: 5,
};

describe('OpenAI chat shapes', () => {
  it('the question is the last user message, text parts joined; none or an empty one is null', () => {
    const body = ChatCompletionBody.parse({
      model: 'x',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: null },
        { role: 'user', content: [{ type: 'text', text: 'How many' }, { type: 'image_url' }, { type: 'text', text: 'weeks?' }] },
      ],
      temperature: 0.2,
    });
    expect(lastUserQuestion(body.messages)).toEqual({ index: 2, text: 'How many\nweeks?' });
    expect(lastUserQuestion([{ role: 'system', content: 'x' }])).toBeNull();
    expect(lastUserQuestion([{ role: 'user', content: 'a' }, { role: 'user', content: '  ' }])).toBeNull();
  });

  it('names the bad field', () => {
    const r = ChatCompletionBody.safeParse({ model: '', messages: [] });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['messages', 'model']);
  });

  it('the content is the answer with its [n] markers, then one source line per citation', () => {
    expect(sourcesFootnote(ANSWER.citations)).toBe('\n\nSources:\n[1] Title 1 — Policy > Leave, p. 3\n[2] Title 2, pp. 4–5');
    expect(sourcesFootnote([])).toBe('');
    expect(chatContent(ANSWER)).toBe(ANSWER.text + sourcesFootnote(ANSWER.citations));
  });

  it('a completion and the last chunk carry the citations as data; other chunks do not', () => {
    const c = chatCompletion(ANSWER, 'my-model', 7);
    expect(c).toMatchObject({ id: 'chatcmpl-run12345', object: 'chat.completion', model: 'my-model', created: 7, citations: ANSWER.citations, quarry: { runId: 'run12345', validated: true } });
    expect(c.choices[0]).toMatchObject({ message: { role: 'assistant', content: chatContent(ANSWER) }, finish_reason: 'stop' });
    const mid = chatChunk('run12345', 'm', 7, { content: 'Six' });
    expect(mid).toEqual({ id: 'chatcmpl-run12345', object: 'chat.completion.chunk', created: 7, model: 'm', choices: [{ index: 0, delta: { content: 'Six' }, logprobs: null, finish_reason: null }] });
    const last = chatChunk('run12345', 'm', 7, null, ANSWER);
    expect(last.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(last).toMatchObject({ citations: ANSWER.citations });
  });
});
