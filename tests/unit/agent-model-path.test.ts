/**
 * What changes when a model is configured: HyDE for questions worded far from what the first
 * search found, tables sent as Markdown plus one "facts" line per row, and a validator that
 * requires every figure of the model's answer to be printed in a cited passage.
 */
import { describe, expect, it } from 'vitest';
import { answerStatesWhatWasAsked } from '../../shared/agent/answer-checks.ts';
import { DEFAULT_KNOBS, type AgentDeps } from '../../shared/agent/deps.ts';
import { fuseHits, wordingCoverage } from '../../shared/agent/hyde.ts';
import { candidateSearch } from '../../shared/agent/search-nodes.ts';
import type { AgentStateType } from '../../shared/agent/state.ts';
import type { DocTable } from '../../shared/domain/table.ts';
import { buildAnswerPrompt, PASSAGES_CLOSE, PASSAGES_OPEN } from '../../shared/llm/answer-prompt.ts';
import { planQuery, understandQuery } from '../../shared/retrieval/index.ts';
import type { HybridHit } from '../../shared/store/chunk-index.ts';

function hit(id: string, body: string): HybridHit {
  return {
    chunk: {
      chunk_id: id, doc_id: 'doc-1', version: 'a'.repeat(64), section: 's', section_path: 'S', body, embedding_text: body, page_start: 1, page_end: 1, chunk_index: 0, total_chunks: 1, token_count: 10, entities: [],
      valid_from: null, valid_to: null, doc_type: 'report', jurisdiction: 'US', lang: 'en', created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z',
    },
    score: 1, keywordScore: 0.5, vectorScore: 0.5, bm25: 1, cosine: 0.5,
  };
}

const FOUND = [hit('a', 'The weather was mild in spring.'), hit('b', 'Employees may carry over vacation days.')];
const WRITTEN = [hit('c', 'Purchases of property and equipment were $2,093 million.'), hit('a', 'The weather was mild in spring.')];

function state(query: string): AgentStateType {
  const understanding = understandQuery(query, { today: '2026-11-27' });
  return { query, understanding, plan: planQuery(understanding), searchText: query, queryVector: Float32Array.of(1, 0), alpha: 0.5, asOf: '2026-11-27', loops: 0, candidatesKey: null } as unknown as AgentStateType;
}

function deps(hypothetical: AgentDeps['hypothetical'], searched: string[]): AgentDeps {
  return {
    knobs: DEFAULT_KNOBS,
    embed: async () => Float32Array.of(0, 1),
    hybrid: async (q: { text: string }) => {
      searched.push(q.text);
      return q.text.startsWith('Purchases') ? WRITTEN : FOUND;
    },
    ...(hypothetical ? { hypothetical } : {}),
  } as unknown as AgentDeps;
}

/** The candidate ids a search node put in the state. */
const ids = (r: { update: { candidates?: unknown } }): string[] => ((r.update.candidates ?? []) as HybridHit[]).map((h) => h.chunk.chunk_id);

describe('HyDE', () => {
  it('measures how much of the question the first hits say, and fuses two lists by reciprocal rank', () => {
    expect(wordingCoverage('How much did they spend on buildings and machines?', FOUND)).toBeLessThan(0.5);
    expect(wordingCoverage('Can employees carry over vacation days?', FOUND)).toBeGreaterThanOrEqual(0.5);
    // "a" is in both lists: it rises to the top; "c" joins.
    expect(fuseHits(FOUND, WRITTEN, 10).map((h) => h.chunk.chunk_id)).toEqual(['a', 'c', 'b']);
    expect(fuseHits(FOUND, WRITTEN, 2)).toHaveLength(2);
  });

  it('a question worded far from the hits is searched again by the passage the model writes; a near one is not', async () => {
    const searched: string[] = [];
    const far = await candidateSearch(state('How much did they spend on buildings and machines?'), deps(async () => 'Purchases of property and equipment were $2,000 million.', searched));
    expect(searched).toEqual(['How much did they spend on buildings and machines?', 'Purchases of property and equipment were $2,000 million.']);
    expect(ids(far)).toContain('c');
    expect(far.trace).toMatchObject({ hyde: { used: true, added: 1 } });

    const nearSearched: string[] = [];
    const near = await candidateSearch(state('Can employees carry over vacation days?'), deps(async () => 'never asked', nearSearched));
    expect(nearSearched).toHaveLength(1);
    expect(near.trace['hyde']).toBeUndefined();
  });

  it('without a model, or when the model fails, the first search stands', async () => {
    const q = 'How much did they spend on buildings and machines?';
    const none = await candidateSearch(state(q), deps(undefined, []));
    expect(ids(none)).toEqual(['a', 'b']);
    const failed = await candidateSearch(
      state(q),
      deps(async () => {
        throw new Error('model down');
      }, []),
    );
    expect(ids(failed)).toEqual(['a', 'b']);
    expect(failed.trace).toMatchObject({ hyde: { used: false, error: 'Error' } });
  });
});

describe('a table for the model', () => {
  const table: DocTable = {
    title: 'CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS',
    columns: ['Three Months Ended July 1, 2023'],
    rows: [{ label: 'Total net sales', level: 0, parents: [], cells: [{ text: '81,797', value: 81797, page: 4 }], line: 0, page: 4 }],
    unit: '$',
    scale: 'millions',
    pageStart: 4,
    pageEnd: 4,
  };

  it('goes as its Markdown text and one facts line per row; the rules ask for the figure as printed, cited', () => {
    const [system, user] = buildAnswerPrompt('What were total net sales?', [{ chunkId: 'c', docId: 'd', title: 'T', sectionPath: 'S', pageStart: 4, pageEnd: 4, body: '| | Three Months Ended July 1, 2023 |\n| Total net sales | 81,797 |', validFrom: null, validTo: null, table }]);
    const line = (user?.content ?? '').split(PASSAGES_OPEN)[1]?.split(PASSAGES_CLOSE)[0]?.trim() ?? '';
    const data = JSON.parse(line) as { text: string; facts: string[] };
    expect(data.text).toContain('| Total net sales | 81,797 |');
    expect(data.facts).toEqual(['Total net sales — Three Months Ended July 1, 2023: $81,797 million']);
    expect(system?.content).toMatch(/states it with its unit, scale and period exactly as a passage prints it/u);
  });
});

describe("the validator and a model's figures", () => {
  const cited = [{ docId: 'd', body: 'Total net sales were $81,797 million and services net sales $21,213 million.' }];
  it('every figure a model states must be printed in a cited passage; one is enough for an answer Quarry composed', () => {
    const text = 'Total net sales were $81,797 million [1], and services were $24,000 million [1].';
    expect(answerStatesWhatWasAsked({ question: 'What were total net sales?', text, cited, wantedDocIds: null, everyFigure: true })).toMatchObject({ ok: false, problems: ['figure(s) 24000 of the answer are printed in no cited passage'] });
    expect(answerStatesWhatWasAsked({ question: 'What were total net sales?', text, cited, wantedDocIds: null }).ok).toBe(true);
    expect(answerStatesWhatWasAsked({ question: 'What were total net sales?', text: 'Total net sales were $81,797 million [1].', cited, wantedDocIds: null, everyFigure: true }).ok).toBe(true);
  });
});
