import { describe, expect, it } from 'vitest';
import { validator } from '../../shared/agent/decide-nodes.ts';
import { DEFAULT_KNOBS, type AgentDeps, type QueryScope, type RankedCandidate } from '../../shared/agent/deps.ts';
import type { AgentStateType } from '../../shared/agent/state.ts';
import { understandQuery } from '../../shared/retrieval/index.ts';

function ranked(docId: string, body: string, rerank = 0.9): RankedCandidate {
  return {
    hit: {
      chunk: {
        chunk_id: '00000000-0000-5000-8000-000000000001', doc_id: docId, version: 'a'.repeat(64), section: 'Results', section_path: 'Results',
        body, embedding_text: body, page_start: 2, page_end: 2, chunk_index: 0, total_chunks: 1, token_count: 10, entities: [],
        valid_from: null, valid_to: null, doc_type: '10-Q', jurisdiction: 'US', lang: 'en', created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z',
      },
      score: 0.9, keywordScore: 0.9, vectorScore: 0.9, bm25: 1, cosine: 0.9,
    },
    terms: { chunkId: 'c', hybrid: 0.9, content: 0.9, rerank, prior: 0, memory: 0, mmrPenalty: 0, final: 0.9, rankBefore: 1, rankAfter: 1, explored: false },
  };
}

const SCOPE: QueryScope = {
  organisations: [{ name: 'Orchard Devices Inc.', alias: 'orchard', docIds: ['orch-q2', 'orch-q3'] }],
  period: { phrase: 'Q3 2023', year: 2023, quarter: 3, fiscal: false },
  latest: false,
  form: null,
  docWeights: { 'orch-q2': 0.4, 'orch-q3': 1 },
  docIds: ['orch-q3'],
  unmatched: [],
  ambiguousPeriod: false,
  reason: 'organisation Orchard Devices Inc.; period Q3 2023: 1',
};

const QUESTION = "What were Orchard's net sales in Q3 2023?";

/** The validator's view of a run: the ranking, the routing, the loop count. */
function state(over: Partial<AgentStateType>): AgentStateType {
  const base: Partial<AgentStateType> = {
    query: QUESTION,
    understanding: understandQuery(QUESTION, { today: '2026-01-01' }),
    asOf: '2026-01-01',
    ranked: [],
    scope: SCOPE,
    loops: 0,
    relaxed: false,
    branchFilter: null,
    branchLabel: null,
    narrowed: null,
    candidates: [],
  };
  return { ...base, ...over } as AgentStateType;
}

const deps = { knobs: DEFAULT_KNOBS } as AgentDeps;

describe('validator: checks what was asked', () => {
  it('confirms a well-grounded passage of the named filing that holds a figure', async () => {
    const { update } = await validator(state({ ranked: [ranked('orch-q3', 'Net sales were $81,797 million.')] }), deps);
    expect(update).toMatchObject({ verdict: 'OK', validated: true, notFound: false });
  });

  it("another quarter's passage, however well grounded, sends it back to the named filings (DRILLDOWN)", async () => {
    const { update, trace } = await validator(state({ ranked: [ranked('orch-q2', 'Net sales were $94,836 million.')] }), deps);
    expect(update).toMatchObject({ verdict: 'DRILLDOWN', validated: false, action: 'DRILLDOWN' });
    expect(trace).toMatchObject({ documentOk: false });
  });

  it('a passage without the figure asked for PIVOTs; after the last loop the named filing is answered from, unconfirmed (issue 29: the agent keeps what it found)', async () => {
    const words = [ranked('orch-q3', 'Net sales are discussed in the results section.')];
    expect((await validator(state({ ranked: words }), deps)).update).toMatchObject({ verdict: 'PIVOT', action: 'PIVOT' });
    const last = (await validator(state({ ranked: words, loops: DEFAULT_KNOBS.maxLoops }), deps)).update;
    expect(last).toMatchObject({ verdict: 'FALLBACK', validated: false, fallback: true, notFound: false, action: null });
  });

  it('"not found" when no passage of the named filing is near the top, or the named period is in no filing', async () => {
    const other = [ranked('orch-q2', 'Net sales were $94,836 million.')];
    expect((await validator(state({ ranked: other, loops: DEFAULT_KNOBS.maxLoops }), deps)).update).toMatchObject({ verdict: 'FALLBACK', notFound: true });
    const missing = { ...SCOPE, unmatched: ['period Q1 2021'], docIds: ['orch-q2', 'orch-q3'] };
    const words = [ranked('orch-q3', 'Net sales were $81,797 million.')];
    expect((await validator(state({ ranked: words, scope: missing, loops: DEFAULT_KNOBS.maxLoops }), deps)).update).toMatchObject({ notFound: true });
  });

  it('a later loop that loses the named filing does not get the last word: the best ranking of the run is answered from', async () => {
    const good = [ranked('orch-q3', 'Net sales are discussed in the results section.', 0.45)];
    const first = (await validator(state({ ranked: good }), deps)).update as Partial<AgentStateType>;
    const bad = [ranked('orch-q2', 'Net sales are discussed in the results section.', 0.45)];
    const last = (await validator(state({ ranked: bad, loops: DEFAULT_KNOBS.maxLoops, best: first.best ?? null }), deps)).update as Partial<AgentStateType>;
    expect(last).toMatchObject({ verdict: 'FALLBACK', notFound: false });
    expect(last.ranked?.[0]?.hit.chunk.doc_id).toBe('orch-q3');
  });

  it('a period read two ways is answered, not confirmed, without looping', async () => {
    const { update } = await validator(state({ ranked: [ranked('orch-q3', 'Net sales were $81,797 million.')], scope: { ...SCOPE, ambiguousPeriod: true } }), deps);
    expect(update).toMatchObject({ verdict: 'AMBIGUOUS', validated: false, fallback: true, notFound: false, action: null });
  });

  it('without routing, grounding alone decides (as before)', async () => {
    const { update } = await validator(state({ ranked: [ranked('any', 'Net sales were $1 million.')], scope: null }), deps);
    expect(update).toMatchObject({ verdict: 'OK', validated: true });
  });
});
