/**
 * Provisions named by number in a question ("제8조", "Section 4.2", "§ 3"), and whether a passage
 * is one by its section path or first line: what the answerer and the agent's ranking read.
 */
import { describe, expect, it } from 'vitest';
import { holdsReference, namedReferences } from '../../shared/retrieval/provisions.ts';

describe('named provisions', () => {
  it('reads the numbers: 제N조 (의M), article, section, clause, §; not a rule or a section with letters', () => {
    expect(namedReferences('제8조는 무엇을 규정하나요?')).toEqual(['제8조']);
    expect(namedReferences('제 8 조의2에 따르면 언제까지인가요?')).toEqual(['제8조의2']);
    expect(namedReferences('What does Section 4.2 say, and § 3?')).toEqual(['4.2', '3']);
    expect(namedReferences('What Rule 10b5-1 plans were adopted under section 10b?')).toEqual([]);
    const at = (sectionPath: string, body = 'Text.') => ({ sectionPath, body });
    expect(holdsReference(at('제2장 > 제8조(신청 및 지급)'), '제8조')).toBe(true);
    expect(holdsReference(at('제2장 > 제8조의2(특례)'), '제8조')).toBe(false);
    expect(holdsReference(at('제2장 > 제18조(벌칙)'), '제8조')).toBe(false);
    expect(holdsReference(at('4. Message Format > 4.2. Payload'), '4.2')).toBe(true);
    expect(holdsReference(at('4. Message Format > 4.21. Other'), '4.2')).toBe(false);
    expect(holdsReference(at('Standard', 'Section 4.2 Payload\nA receiver must accept 64 MiB.'), '4.2')).toBe(true);
    // A first line that is a sentence is no heading, whatever number it starts with.
    expect(holdsReference(at('Results', '4.2 million customers were served in the quarter.\nMore followed.'), '4.2')).toBe(false);
  });
});
