import { describe, expect, it } from 'vitest';
import { createLexicalReranker } from '../../shared/retrieval/lexical-reranker.ts';
import { createSeededRng } from '../../shared/retrieval/priors.ts';
import { rankCandidates, type ChunkMemory, type RankCandidate, type RankInput } from '../../shared/retrieval/rank.ts';
import { rerankHits } from '../../shared/retrieval/rerank-hits.ts';
import type { HybridHit } from '../../shared/store/vector-store.ts';

interface Spec {
  id: string;
  hybrid: number;
  rerank?: number | null;
  vector?: number[] | null;
  doc_type?: string;
  section?: string;
  lang?: string;
}

function hit(s: Spec): HybridHit {
  return {
    chunk: {
      chunk_id: s.id,
      doc_id: 'doc',
      version: 'v'.repeat(64),
      section: s.section ?? 'general',
      section_path: `Doc > ${s.section ?? 'general'}`,
      body: `secret body text of ${s.id}`,
      embedding_text: `Doc > ${s.section ?? 'general'}\n\nsecret body text of ${s.id}`,
      page_start: 1,
      page_end: 1,
      chunk_index: 0,
      total_chunks: 1,
      token_count: 10,
      entities: [],
      valid_from: null,
      valid_to: null,
      doc_type: s.doc_type ?? 'policy',
      jurisdiction: 'US',
      lang: s.lang ?? 'en',
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:00:00.000Z',
    },
    score: s.hybrid,
    keywordScore: s.hybrid,
    vectorScore: s.hybrid,
    bm25: null,
    cosine: null,
  };
}

/** Orthogonal-ish vectors so MMR has nothing to diversify unless a test wants it. */
function basis(i: number, dim = 64): number[] {
  const out = new Array<number>(dim).fill(0);
  out[i % dim] = 1;
  return out;
}

function cands(specs: Spec[]): RankCandidate[] {
  return specs.map((s, i) => ({ hit: hit(s), rerank: s.rerank === undefined ? null : s.rerank, vector: s.vector === undefined ? basis(i) : s.vector }));
}

function input(candidates: RankCandidate[], extra: Partial<RankInput> = {}): RankInput {
  return { candidates, keep: Math.min(20, candidates.length), intent: 'eligibility', queryVector: null, rng: createSeededRng(1), ...extra };
}

/** `n` candidates with hybrid scores 1.0, 1 − step, … and no reranker scores. */
const ladder = (n = 40, step = 0.02): Spec[] => Array.from({ length: n }, (_, i) => ({ id: `c${String(i).padStart(2, '0')}`, hybrid: 1 - i * step }));

describe('rankCandidates', () => {
  it('content = 0.5·hybrid + 0.5·rerank (hybrid alone without a rerank score); final = content + prior + memory', () => {
    const out = rankCandidates(input(cands([{ id: 'a', hybrid: 0.8, rerank: 0.4 }, { id: 'b', hybrid: 0.7 }])));
    const a = out.find((o) => o.terms.chunkId === 'a')?.terms;
    const b = out.find((o) => o.terms.chunkId === 'b')?.terms;
    expect(a?.content).toBeCloseTo(0.6);
    expect(b?.content).toBeCloseTo(0.7);
    expect(out.map((o) => o.terms.chunkId)).toEqual(['b', 'a']);
    for (const o of out) expect(o.terms.final).toBeCloseTo(o.terms.content + o.terms.prior + o.terms.memory, 12);
  });

  it('reports rankBefore (hybrid order) and rankAfter (output order), keeps `keep`, numbers and ids only', () => {
    const out = rankCandidates(input(cands(ladder()), { keep: 25 }));
    expect(out).toHaveLength(25);
    expect(out.map((o) => o.terms.rankAfter)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(out[0]?.terms.rankBefore).toBe(1);
    expect(JSON.stringify(out.map((o) => o.terms))).not.toContain('secret');
    expect(Object.keys(out[0]?.terms ?? {}).sort()).toEqual(
      ['chunkId', 'content', 'explored', 'final', 'hybrid', 'instructionCues', 'instructionPenalty', 'memory', 'mmrPenalty', 'prior', 'rankAfter', 'rankBefore', 'rerank'].sort(),
    );
  });

  it('facet priors lift matching candidates by ≥ 5 ranks on average', () => {
    // Content 1.0 … 0.61: as dense as a real top 40 (facet weights as in seed 000 §5.3).
    const specs = ladder(40, 0.01).map((s, i) => ({ ...s, doc_type: i % 4 === 3 ? 'law' : 'policy' }));
    const weights = { doc_type: { law: 0.82 }, lang: { en: 0.3 } };
    const off = rankCandidates(input(cands(specs), { keep: 40 }));
    const on = rankCandidates(input(cands(specs), { keep: 40, facetWeights: weights }));
    const pos = (list: typeof on, id: string) => list.findIndex((o) => o.terms.chunkId === id);
    const lawIds = specs.filter((s) => s.doc_type === 'law').map((s) => s.id);
    const lift = lawIds.reduce((sum, id) => sum + (pos(off, id) - pos(on, id)), 0) / lawIds.length;
    expect(lift).toBeGreaterThanOrEqual(5);
    for (const o of on) expect(o.terms.prior).toBeLessThanOrEqual(0.15);
  });

  it('the caps hold: a perfect prior and memory cannot lift a weak match over a strong one', () => {
    const specs: Spec[] = [
      { id: 'strong', hybrid: 0.95, rerank: 0.9 },
      { id: 'weak', hybrid: 0.4, rerank: 0.3, doc_type: 'law', section: 'eligibility', lang: 'ko' },
    ];
    const memory = new Map<string, ChunkMemory>([['weak', { decayedUtility: 100, centroid: [1, 0], intentHist: { eligibility: 50 } }]]);
    const out = rankCandidates(
      input(cands(specs), {
        facetWeights: { doc_type: { law: 1 }, section: { eligibility: 1 }, lang: { ko: 1 }, jurisdiction: { US: 1 } },
        memory,
        queryVector: [1, 0],
        options: { explorationRatio: 0 },
      }),
    );
    const weak = out.find((o) => o.terms.chunkId === 'weak')?.terms;
    expect(weak?.prior).toBeLessThanOrEqual(0.15);
    expect(weak?.prior).toBeGreaterThan(0.14);
    expect(weak?.memory).toBeLessThanOrEqual(0.2);
    expect(weak?.memory).toBeGreaterThan(0.19);
    expect(out[0]?.terms.chunkId).toBe('strong');
  });

  it('memory lifts a chunk that helped before by ≥ 5 ranks', () => {
    const specs = ladder();
    const helped = 'c25';
    const memory = new Map<string, ChunkMemory>([[helped, { decayedUtility: 3, centroid: basis(5), intentHist: { eligibility: 3 } }]]);
    const before = rankCandidates(input(cands(specs), { keep: 40 })).findIndex((o) => o.terms.chunkId === helped);
    const after = rankCandidates(input(cands(specs), { keep: 40, memory, queryVector: basis(5) })).findIndex((o) => o.terms.chunkId === helped);
    expect(before - after).toBeGreaterThanOrEqual(5);
  });

  it('MMR pushes near-duplicates of the top result down and reports the penalty', () => {
    const dup = basis(0).map((x, i) => (i === 1 ? 0.05 : x));
    const specs: Spec[] = [
      { id: 'top', hybrid: 1, vector: basis(0) },
      { id: 'copy1', hybrid: 0.97, vector: dup },
      { id: 'copy2', hybrid: 0.96, vector: dup },
      ...Array.from({ length: 10 }, (_, i) => ({ id: `other${i}`, hybrid: 0.8 - i * 0.01, vector: basis(i + 2) })),
    ];
    const out = rankCandidates(input(cands(specs), { keep: 8 }));
    const ids = out.map((o) => o.terms.chunkId);
    expect(ids[0]).toBe('top');
    expect(ids.slice(0, 5)).not.toContain('copy1');
    expect(out.find((o) => o.terms.chunkId === 'other0')?.terms.mmrPenalty).toBe(0);
    const copies = rankCandidates(input(cands(specs), { keep: 13 })).filter((o) => o.terms.chunkId.startsWith('copy'));
    for (const c of copies) expect(c.terms.mmrPenalty).toBeGreaterThan(0.3);
  });

  it('keeps the exploration ratio when memory dominates the top', () => {
    const specs = ladder();
    const memory = new Map<string, ChunkMemory>(specs.slice(0, 30).map((s) => [s.id, { decayedUtility: 1, centroid: null, intentHist: {} }]));
    const out = rankCandidates(input(cands(specs), { keep: 20, memory }));
    const fresh = out.filter((o) => !memory.has(o.terms.chunkId));
    expect(fresh.length).toBeGreaterThanOrEqual(3);
    expect(fresh.every((o) => o.terms.explored)).toBe(true);
    const none = rankCandidates(input(cands(specs), { keep: 20, memory, options: { explorationRatio: 0 } }));
    expect(none.filter((o) => !memory.has(o.terms.chunkId))).toHaveLength(0);
  });

  it('a negligible decayed utility counts as no memory', () => {
    const memory = new Map<string, ChunkMemory>([['c10', { decayedUtility: 0.01, centroid: null, intentHist: { eligibility: 1 } }]]);
    const out = rankCandidates(input(cands(ladder()), { keep: 40, memory }));
    expect(out.find((o) => o.terms.chunkId === 'c10')?.terms.memory).toBe(0);
  });

  it('is deterministic, dedupes chunk ids and refuses a bad keep', () => {
    const specs = [...ladder(), { id: 'c00', hybrid: 0.1 }];
    const memory = new Map<string, ChunkMemory>(ladder().slice(0, 30).map((s) => [s.id, { decayedUtility: 1, centroid: null, intentHist: {} }]));
    const a = rankCandidates(input(cands(specs), { memory, rng: createSeededRng(9) }));
    const b = rankCandidates(input(cands(specs), { memory, rng: createSeededRng(9) }));
    expect(a.map((o) => o.terms)).toEqual(b.map((o) => o.terms));
    expect(a.filter((o) => o.terms.chunkId === 'c00')).toHaveLength(1);
    expect(a.find((o) => o.terms.chunkId === 'c00')?.terms.hybrid).toBe(1);
    expect(() => rankCandidates(input(cands(specs), { keep: 0 }))).toThrow(RangeError);
    expect(rankCandidates(input([], { keep: 5 }))).toEqual([]);
  });
});

describe('rerankHits', () => {
  it('scores hits by chunk id from their embedding text, best hybrid first, up to `limit`', async () => {
    const hits = [hit({ id: 'x', hybrid: 0.2, section: 'eligibility' }), hit({ id: 'y', hybrid: 0.9, section: 'pay' }), hit({ id: 'z', hybrid: 0.5 })];
    const scores = await rerankHits(createLexicalReranker(), 'eligibility', hits);
    expect([...scores.keys()].sort()).toEqual(['x', 'y', 'z']);
    expect(scores.get('x') ?? 0).toBeGreaterThan(scores.get('y') ?? 1);
    const limited = await rerankHits(createLexicalReranker(), 'eligibility', hits, undefined, 2);
    expect([...limited.keys()].sort()).toEqual(['y', 'z']);
  });
});
