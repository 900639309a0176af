import { describe, expect, it } from 'vitest';
import { DEFAULT_KNOBS, type AgentDeps, type RankedCandidate } from '../../shared/agent/deps.ts';
import { planQuery, understandQuery } from '../../shared/retrieval/index.ts';
import { buildAgentGraph, runAgent } from '../../shared/agent/graph.ts';
import { proposeBranches } from '../../shared/agent/search-nodes.ts';
import type { Trace } from '../../shared/runs/trace.ts';
import { matchesFilter } from '../../shared/store/filter-eval.ts';
import type { HybridHit } from '../../shared/store/vector-store.ts';

function hit(i: number, opts: { validFrom?: string | null; validTo?: string | null } = {}): HybridHit {
  return {
    chunk: {
      chunk_id: `00000000-0000-5000-8000-${String(i).padStart(12, '0')}`,
      doc_id: `doc-${i % 3}`,
      version: 'a'.repeat(64),
      section: 'eligibility',
      section_path: 'A > Eligibility',
      body: `passage ${i}`,
      embedding_text: `passage ${i}`,
      page_start: 1,
      page_end: 2,
      chunk_index: i,
      total_chunks: 50,
      token_count: 10,
      entities: [],
      valid_from: opts.validFrom ?? null,
      valid_to: opts.validTo ?? null,
      doc_type: 'policy',
      jurisdiction: 'US',
      lang: 'en',
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:00:00.000Z',
    },
    score: 1 - i / 100,
    keywordScore: 0.5,
    vectorScore: 0.5,
    bm25: 1,
    cosine: 0.5,
  };
}

/** Deterministic stand-ins: the graph's control flow is what is under test here. */
function fakeDeps(opts: { grounding: (loop: number) => number; candidates: number; remembered?: string[]; traces?: Trace[] }): AgentDeps {
  let searches = 0;
  return {
    knobs: { ...DEFAULT_KNOBS, confidenceThreshold: 0.6 },
    today: () => '2026-11-22',
    understand: (q, today) => understandQuery(q, { today }),
    plan: (u) => planQuery(u),
    embed: async () => Float32Array.of(1, 0),
    hybrid: async (q) => {
      searches += 1;
      return Array.from({ length: Math.min(q.limit, opts.candidates) }, (_, i) => hit(i));
    },
    count: async () => 120,
    facetWeights: async () => ({ section: { eligibility: 0.95 }, doc_type: { policy: 0.6 } }),
    memory: async () => new Map(),
    rank: async ({ candidates, keep }) =>
      candidates.slice(0, keep).map((h, i): RankedCandidate => ({
        hit: h,
        terms: { chunkId: h.chunk.chunk_id, hybrid: h.score, content: h.score, rerank: opts.grounding(Math.floor(searches / 2)), prior: 0, memory: 0, mmrPenalty: 0, final: h.score, rankBefore: i + 1, rankAfter: i + 1, explored: false },
      })),
    answer: async ({ ranked, asOf }) => ({
      text: 'sixteen weeks [1]',
      citations: ranked.slice(0, 1).map((r) => ({ n: 1, chunkId: r.terms.chunkId, docId: r.hit.chunk.doc_id, title: 'T', sectionPath: r.hit.chunk.section_path, pages: { start: 1, end: 2 }, validFrom: null, validTo: null })),
      dateQualifier: `as of ${asOf}`,
    }),
    remember: async (ctx) => {
      opts.remembered?.push(...ctx.citedChunkIds);
    },
    record: async (trace) => {
      opts.traces?.push(trace);
    },
  };
}

describe('agent graph', () => {
  it('a grounded question answers without looping, remembers its citations and traces every node', async () => {
    const remembered: string[] = [];
    const traces: Trace[] = [];
    const graph = buildAgentGraph(fakeDeps({ grounding: () => 0.9, candidates: 400, remembered, traces }));
    const a = await runAgent(graph, { runId: 'run-ok-0001', query: 'How many weeks of parental leave do employees get?' });
    expect(a).toMatchObject({ validated: true, fallback: false, loops: 0, verdict: 'OK', dateQualifier: 'as of 2026-11-22', asOf: '2026-11-22' });
    expect(remembered).toEqual([a.citations[0]!.chunkId]);
    expect(traces[0]!.steps.map((s) => s.node)).toEqual([
      'listener', 'planner', 'facet_planner', 'candidate_search', 'narrowed_search', 'rerank_diversify', 'validator', 'answerer', 'memory_updater', 'observer',
    ]);
    expect(JSON.stringify(traces[0])).not.toContain('How many weeks'); // the query is hashed, not stored
    const narrowed = traces[0]!.steps.find((s) => s.node === 'narrowed_search')!.data;
    expect(narrowed).toMatchObject({ chosen: 'section=eligibility' });
  });

  it('hard questions loop at most twice, then fall back and remember nothing', async () => {
    const remembered: string[] = [];
    const traces: Trace[] = [];
    const graph = buildAgentGraph(fakeDeps({ grounding: () => 0.1, candidates: 400, remembered, traces }));
    const a = await runAgent(graph, { runId: 'run-hard-001', query: 'something unanswerable' });
    expect(a).toMatchObject({ validated: false, fallback: true, loops: 2, verdict: 'FALLBACK' });
    expect(remembered).toEqual([]);
    const validations = traces[0]!.steps.filter((s) => s.node === 'validator');
    expect(validations).toHaveLength(3);
    expect(validations.map((v) => v.data.next)).toEqual(['loop', 'loop', 'fallback']);
  });

  it('a question naming an organisation searches its documents (doc_id branch and prior); an unreadable directory leaves the run unrouted', async () => {
    const profile = {
      organisations: [{ name: 'Orchard Devices Inc.', aliases: ['orchard devices inc.', 'orchard devices', 'orchard'] }],
      form: 'policy',
      period: { end: null, fiscalYear: null, fiscalQuarter: null, calendarYear: null, calendarQuarter: null, edition: null },
      label: 'Orchard Devices Inc. · policy',
    };
    const traces: Trace[] = [];
    const filters: unknown[] = [];
    const base = fakeDeps({ grounding: () => 0.9, candidates: 400, traces });
    const graph = buildAgentGraph({
      ...base,
      hybrid: async (q) => {
        filters.push(q.filter);
        return (await base.hybrid(q)).filter((h) => !q.filter || matchesFilter(q.filter, h.chunk));
      },
      documents: async () => [{ doc_id: 'doc-1', title: 'Orchard leave policy', doc_type: 'policy', profile }],
    });
    const a = await runAgent(graph, { runId: 'run-route-001', query: 'How many weeks of parental leave does Orchard give?' });
    expect(a.validated).toBe(true);
    const steps = traces[0]!.steps;
    expect(steps.find((x) => x.node === 'planner')!.data).toMatchObject({ routing: { documents: 1 } });
    expect(steps.find((x) => x.node === 'narrowed_search')!.data).toMatchObject({ chosen: 'documents=Orchard Devices Inc. (1)' });
    expect(steps.find((x) => x.node === 'facet_planner')!.data).toMatchObject({ weights: { doc_id: { 'doc-1': 1 } } });
    expect(JSON.stringify(filters)).toContain('"doc-1"');

    const broken = buildAgentGraph({ ...base, documents: async () => Promise.reject(new Error('store down')) });
    const b = await runAgent(broken, { runId: 'run-route-002', query: 'How many weeks of parental leave does Orchard give?' });
    expect(b).toMatchObject({ validated: true, verdict: 'OK' });
  });

  it('a loop can recover: weak first, grounded after a loop', async () => {
    const graph = buildAgentGraph(fakeDeps({ grounding: (loop) => (loop < 2 ? 0.2 : 0.9), candidates: 50 }));
    const a = await runAgent(graph, { runId: 'run-recover1', query: 'q' });
    expect(a).toMatchObject({ validated: true, fallback: false, loops: 1 });
  });

  it('the memory lookup overlaps the reranker: rank gets it pending; when both fail, the run fails with rank\'s error alone', async () => {
    let lookupSettled = false;
    const pending: unknown[] = [];
    const deps = fakeDeps({ grounding: () => 0.9, candidates: 50 });
    const lookup = () =>
      new Promise<Awaited<ReturnType<AgentDeps['memory']>>>((resolve) => setTimeout(() => {
        lookupSettled = true;
        resolve(new Map());
      }, 20));
    const ok = buildAgentGraph({
      ...deps,
      memory: lookup,
      rank: async (input) => {
        pending.push(lookupSettled ? 'settled' : input.memory instanceof Promise ? 'pending' : 'map');
        return deps.rank({ ...input, memory: await input.memory });
      },
    });
    expect(await runAgent(ok, { runId: 'run-mem-0001', query: 'q' })).toMatchObject({ validated: true });
    expect(pending).toEqual(['pending']);

    const failing = buildAgentGraph({
      ...deps,
      memory: () => new Promise((_, reject) => setTimeout(() => reject(new Error('redis down')), 5)),
      rank: async () => {
        throw new Error('reranker broke');
      },
    });
    // An unhandled rejection of the lookup would fail this test file.
    await expect(runAgent(failing, { runId: 'run-mem-0002', query: 'q' })).rejects.toThrow('reranker broke');
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('branches: the strongest facet values, hypotheses first, then both together', () => {
    const b = proposeBranches({ section: { eligibility: 0.8, amounts: 0.3 }, doc_type: { law: 0.5 }, lang: { ko: 0.9 }, unknown_facet: { x: 1 } });
    expect(b.map((x) => x.label)).toEqual(['lang=ko', 'section=eligibility', 'lang=ko & section=eligibility']);
    expect(proposeBranches({})).toEqual([]);
  });
});
