/**
 * The passages an answer reads: the ranking's best, and a provision the question names by number
 * ("section 4.2", "제8조") from below the cut, where a document's other sections share more of
 * the question's words than the one it asks about.
 */
import { describe, expect, it } from 'vitest';
import { answerPassages } from '../../shared/agent/compose-answer.ts';

const ranked = (paths: string[]) => paths.map((section_path, i) => ({ id: i, hit: { chunk: { section_path, body: `Body ${i}.` } } }));

describe('answer passages', () => {
  const RANKED = ranked(['1. Introduction', '2. Terminology', '6. Error Handling', '4. Message Format > 4.1. Envelope', '4. Message Format > 4.2. Payload']);

  it('are the best of the ranking, the last giving way to a named provision ranked below the cut', () => {
    expect(answerPassages('What does section 4.2 of the protocol say?', RANKED, 3).map((r) => r.id)).toEqual([0, 1, 4]);
    // Already among the best, or not named: the ranking stands.
    expect(answerPassages('What does section 2 of the protocol say?', RANKED, 3).map((r) => r.id)).toEqual([0, 1, 2]);
    expect(answerPassages('What does the protocol say about payloads?', RANKED, 3).map((r) => r.id)).toEqual([0, 1, 2]);
    // A provision the search did not find changes nothing.
    expect(answerPassages('What does section 9 say?', RANKED, 3).map((r) => r.id)).toEqual([0, 1, 2]);
  });

  it('reads Korean articles too, never taking 제8조의2 for 제8조', () => {
    const law = ranked(['제1장 총칙', '제2장 출산 지원 > 제6조(출산장려금의 지급)', '제2장 출산 지원 > 제8조의2(특례)', '제2장 출산 지원 > 제8조(신청 및 지급)']);
    expect(answerPassages('제8조는 무엇을 규정하나요?', law, 2).map((r) => r.id)).toEqual([0, 3]);
  });
});
