/**
 * What the acceptance suites compare the store and the agent against: the chunks the artifacts
 * say were written, filter cases over the example corpus with their expected documents, and the
 * rank-lift arithmetic of the facet-prior and memory tests.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DocumentMeta } from '../../shared/domain/index.ts';
import { and, containsAny, eq, isIn, isNull, or, range, temporalClamp, type Filter } from '../../shared/store/filter.ts';
import type { FacetWeights } from '../../shared/retrieval/index.ts';
import type { DocStatus } from '../../shared/status/doc-status.ts';
import type { Ports } from '../../workers/runtime/ports.ts';
import { EXAMPLES_DIR, exampleDocId, mean, ranksIn, type AcceptanceAgent, type RankCall } from './acceptance.ts';

/** A chunk as the upsert stage wrote it, read back from the artifacts rather than the store. */
export interface ExpectedChunk {
  chunk_id: string;
  doc_id: string;
  doc_type: string;
  jurisdiction: string;
  lang: string;
  entities: string[];
  valid_from: string | null;
  valid_to: string | null;
}

/** Every chunk of every indexed document, from its current version's enriched.json. */
export async function expectedChunks(ports: Ports, statuses: readonly DocStatus[]): Promise<ExpectedChunk[]> {
  const perDoc = await Promise.all(
    statuses.map(async (s) => {
      const { document, chunks } = await ports.artifacts.getJson(s.docId, s.version, 'enriched.json');
      return chunks.map((c) => ({
        chunk_id: c.chunk_id,
        doc_id: c.doc_id,
        doc_type: document.doc_type,
        jurisdiction: document.jurisdiction,
        lang: document.lang,
        entities: c.entities,
        valid_from: c.valid_from,
        valid_to: c.valid_to,
      }));
    }),
  );
  return perDoc.flat();
}

/** The sidecar of every example document, by doc id: what a person said about it, independent of the pipeline. */
export async function exampleSidecars(): Promise<Map<string, DocumentMeta>> {
  const out = new Map<string, DocumentMeta>();
  for (const file of await readdir(EXAMPLES_DIR)) {
    if (!file.endsWith('.meta.json')) continue;
    out.set(exampleDocId(file.slice(0, -'.meta.json'.length)), JSON.parse(await readFile(path.join(EXAMPLES_DIR, file), 'utf8')) as DocumentMeta);
  }
  return out;
}

/** A filter, the same condition written as a predicate, and the example documents it should reach. */
export interface FilterCase {
  name: string;
  filter: Filter;
  matches(c: ExpectedChunk): boolean;
  /** Example documents with at least one matching chunk (from the corpus README, by hand). */
  docs: string[];
}

const validAt = (c: ExpectedChunk, d: string) => (c.valid_from === null || c.valid_from <= d) && (c.valid_to === null || c.valid_to > d);
const KO_DOCS = ['ko-birth-incentive-guideline', 'ko-childbirth-support-act', 'ko-childbirth-support-faq', 'ko-remote-work-guideline'];
const ALL_DOCS = [...KO_DOCS, 'benefits-faq', 'data-retention-policy', 'parental-leave-policy-2023', 'parental-leave-policy-2025', 'records-exchange-protocol', 'remote-work-handbook'];

/** One case per filter node (eq, in, containsAny, range, isNull, and, or) and the time clamp that combines them. */
export const FILTER_CASES: readonly FilterCase[] = [
  { name: 'eq doc_type=law', filter: eq('doc_type', 'law'), matches: (c) => c.doc_type === 'law', docs: ['ko-childbirth-support-act'] },
  { name: 'in jurisdiction∈{EU}', filter: isIn('jurisdiction', ['EU']), matches: (c) => c.jurisdiction === 'EU', docs: ['data-retention-policy', 'records-exchange-protocol'] },
  {
    name: 'in doc_type∈{faq,guideline}',
    filter: isIn('doc_type', ['faq', 'guideline']),
    matches: (c) => c.doc_type === 'faq' || c.doc_type === 'guideline',
    docs: ['benefits-faq', 'ko-birth-incentive-guideline', 'ko-childbirth-support-faq', 'ko-remote-work-guideline'],
  },
  {
    name: 'containsAny entities 출산장려금',
    filter: containsAny('entities', ['출산장려금']),
    matches: (c) => c.entities.includes('출산장려금'),
    docs: ['ko-birth-incentive-guideline', 'ko-childbirth-support-act', 'ko-childbirth-support-faq'],
  },
  {
    name: 'containsAny entities {qualifying event, legal hold}',
    filter: containsAny('entities', ['qualifying event', 'legal hold']),
    matches: (c) => c.entities.includes('qualifying event') || c.entities.includes('legal hold'),
    docs: ['data-retention-policy', 'parental-leave-policy-2023', 'parental-leave-policy-2025'],
  },
  { name: 'range valid_from < 2024-01-01', filter: range('valid_from', { lt: '2024-01-01' }), matches: (c) => c.valid_from !== null && c.valid_from < '2024-01-01', docs: ['parental-leave-policy-2023'] },
  {
    name: 'range valid_from ≥ 2025-01-01',
    filter: range('valid_from', { gte: '2025-01-01' }),
    matches: (c) => c.valid_from !== null && c.valid_from >= '2025-01-01',
    docs: ['benefits-faq', 'ko-childbirth-support-act', 'ko-childbirth-support-faq', 'parental-leave-policy-2025'],
  },
  { name: 'isNull valid_to', filter: isNull('valid_to'), matches: (c) => c.valid_to === null, docs: ALL_DOCS.filter((d) => d !== 'parental-leave-policy-2023') },
  { name: 'isNull valid_to = false', filter: isNull('valid_to', false), matches: (c) => c.valid_to !== null, docs: ['parental-leave-policy-2023'] },
  {
    name: 'and(lang=ko, containsAny 육아휴직)',
    filter: and(eq('lang', 'ko'), containsAny('entities', ['육아휴직'])),
    matches: (c) => c.lang === 'ko' && c.entities.includes('육아휴직'),
    docs: ['ko-childbirth-support-act', 'ko-childbirth-support-faq'],
  },
  {
    name: 'or(doc_type=standard, jurisdiction=KR)',
    filter: or(eq('doc_type', 'standard'), eq('jurisdiction', 'KR')),
    matches: (c) => c.doc_type === 'standard' || c.jurisdiction === 'KR',
    docs: [...KO_DOCS, 'records-exchange-protocol'],
  },
  {
    name: 'temporal clamp 2024-06-01 (and/or of isNull and ranges)',
    filter: temporalClamp('2024-06-01'),
    matches: (c) => validAt(c, '2024-06-01'),
    docs: ['data-retention-policy', 'ko-birth-incentive-guideline', 'ko-remote-work-guideline', 'parental-leave-policy-2023'],
  },
];

/** 1-based rank lift of each id: rank in `before` minus rank in `after` (positive = rose). */
export function lifts(before: readonly string[], after: readonly string[], ids: readonly string[]): number[] {
  const b = ranksIn(before, ids);
  const a = ranksIn(after, ids);
  return b.map((r, i) => r - (a[i] as number));
}

const FACETS = ['doc_type', 'section', 'jurisdiction', 'lang'] as const;

/** The best-weighted value of each facet that has one (ties by value, as the branch planner breaks them). */
export function topValues(weights: FacetWeights): Partial<Record<(typeof FACETS)[number], string>> {
  const out: Partial<Record<(typeof FACETS)[number], string>> = {};
  for (const f of FACETS) {
    const best = Object.entries(weights[f] ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
    if (best && best[1] > 0) out[f] = best[0];
  }
  return out;
}

/** What the facet prior did to one query's candidates. */
export interface PriorEffect {
  query: string;
  candidates: number;
  top: Partial<Record<(typeof FACETS)[number], string>>;
  /** Candidates carrying the top-weighted value of at least one facet. */
  matching: number;
  /** Rank lift of each matching candidate, priors from the agent's weights vs no weights at all. */
  agent: number[];
  /** The same with only the facet-vector weights (the question's own facet hypotheses left out). */
  facetVectorsOnly: number[];
  /** The same with only the planner's hypotheses: what is left when no facet vectors were built. */
  hypothesesOnly: number[];
  /** Matching candidates among the first ten, priors on vs off. */
  top10: { on: number; off: number };
}

/**
 * Re-ranks the candidates of a run's first rerank_diversify pass — the same candidates, reranker
 * scores, vectors, memory and seeded exploration — with the agent's facet weights, with none
 * (no prior at all), with the facet-vector weights alone and with the planner's hypotheses alone.
 */
export async function priorEffect(agent: AcceptanceAgent, query: string, call: RankCall): Promise<PriorEffect> {
  const vectorsOnly = await agent.deps.facetWeights(call.queryVector);
  const hypotheses = agent.deps.plan(agent.deps.understand(query, agent.today)).facetHypotheses;
  const top = topValues(call.weights);
  const matching = call.candidates
    .filter((h) => FACETS.some((f) => top[f] !== undefined && h.chunk[f] === top[f]))
    .map((h) => h.chunk.chunk_id);
  const off = await agent.rankAll(call, { weights: {} });
  const on = await agent.rankAll(call);
  const count10 = (order: string[]) => order.slice(0, 10).filter((id) => matching.includes(id)).length;
  return {
    query,
    candidates: call.candidates.length,
    top,
    matching: matching.length,
    agent: lifts(off, on, matching),
    facetVectorsOnly: lifts(off, await agent.rankAll(call, { weights: vectorsOnly }), matching),
    hypothesesOnly: lifts(off, await agent.rankAll(call, { weights: hypotheses }), matching),
    top10: { on: count10(on), off: count10(off) },
  };
}

export const round2 = (x: number): number => Math.round(x * 100) / 100;
export { mean };
