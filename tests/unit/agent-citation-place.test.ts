/**
 * Where a citation says its passage is: the document's title, then the sections under it, never
 * the title twice ("Employee Benefits FAQ — Employee Benefits FAQ" when the document's first
 * heading is its title), on every surface that prints it.
 */
import { describe, expect, it } from 'vitest';
import { createAnswerer, pathUnderTitle } from '../../shared/agent/compose-answer.ts';
import type { RankedCandidate } from '../../shared/retrieval/rank.ts';
import { formatAnswer } from '../../apps/cli/commands/query.ts';
import { sourcesFootnote } from '../../apps/gateway/chat-format.ts';
import { hybridHit, storedChunk } from '../helpers/hybrid-hits.ts';

const TITLE = 'Employee Benefits FAQ';

function ranked(sectionPath: string, body: string): RankedCandidate {
  const chunk = storedChunk({ chunk_id: '00000000-0000-5000-8000-000000000001', doc_id: 'doc-faq', section_path: sectionPath, body, page_start: 2, page_end: 2 });
  return { hit: hybridHit(chunk, 1, { bm25: 1, vector: new Float32Array(8) }), terms: {} as RankedCandidate['terms'] };
}

describe('a citation’s place', () => {
  it('is the section path under the title: leading titles that repeat it (case and punctuation aside) are left out', () => {
    expect(pathUnderTitle(TITLE, 'Employee Benefits FAQ')).toBe('');
    expect(pathUnderTitle(TITLE, 'EMPLOYEE BENEFITS FAQ > Parental leave')).toBe('Parental leave');
    // A document without headings is split into parts by size: "Part 2" names nothing printed.
    expect(pathUnderTitle('Larkspur Q4 2024 call', 'Part 2')).toBe('');
    expect(pathUnderTitle(TITLE, 'Part 1 General Provisions')).toBe('Part 1 General Provisions');
    expect(pathUnderTitle(TITLE, 'Policies > Employee Benefits FAQ')).toBe('Policies > Employee Benefits FAQ');
    expect(pathUnderTitle('Apple Inc. — Form 10-Q', 'PART I > Item 2')).toBe('PART I > Item 2');
  });

  it('the answer cites it so, and the CLI and the chat footnote print the title once', async () => {
    const answer = createAnswerer({ llm: null, titleOf: async () => TITLE });
    const body = 'Eligible employees receive sixteen weeks of paid parental leave.';
    const question = { query: 'How many weeks of paid parental leave do employees get?', asOf: null, today: '2025-06-15' };
    const under = await answer({ ...question, ranked: [ranked(`${TITLE} > Parental leave`, body)] });
    expect(under.citations[0]?.sectionPath).toBe('Parental leave');
    const top = await answer({ ...question, ranked: [ranked(TITLE, body)] });
    expect(top.citations[0]?.sectionPath).toBe('');
    const printed = formatAnswer({ runId: 'r', ...top, asOf: null, validated: true, fallback: false, loops: 1, verdict: 'ok', reason: 'fits', latencyMs: 1 });
    expect(printed).toContain(`[1] ${TITLE}, p.2`);
    expect(sourcesFootnote(top.citations)).toBe(`\n\nSources:\n[1] ${TITLE}, p. 2`);
  });
});
