import { keywordSearchText, layeredDocWeights, mergeFacetWeights, routeQuery, scoreLayers, type DocumentLayers, type QueryScope } from '../retrieval/index.ts';
import { and, eq, isIn, temporalClamp, type Filter, type HybridHit } from '../store/index.ts';
import { BRANCH_FACETS, type AgentDeps, type FacetWeights } from './deps.ts';
import { FAR_COVERAGE, fuseHits, wordingCoverage } from './hyde.ts';
import type { AgentStateType, AgentUpdate } from './state.ts';

/** What a node returns: its state change and what the trace should show of it (no document text). */
export interface NodeResult {
  update: AgentUpdate;
  trace: Record<string, unknown>;
}

/** listener: normalise, detect language and "as of" date, light entities; embed the question. */
export async function listener(s: AgentStateType, deps: AgentDeps): Promise<NodeResult> {
  const today = deps.today();
  const u = deps.understand(s.query, today);
  const asOf = s.requestedAsOf ?? u.asOf ?? today;
  const queryVector = await deps.embed(u.stripped || u.normalised);
  // Keyword text carries both spellings of Korean terms ("출산 장려금" and "출산장려금").
  return {
    update: { understanding: u, asOf, queryVector, searchText: keywordSearchText(u) || u.normalised },
    trace: { lang: u.lang, asOf, asOfFrom: s.requestedAsOf ? 'request' : u.asOf ? 'question' : 'today', entities: u.entities.length },
  };
}

/** planner: intent, alpha and facet hypotheses; on a loop, applies the validator's action. */
export async function planner(s: AgentStateType, deps: AgentDeps): Promise<NodeResult> {
  const u = s.understanding;
  if (!u) throw new Error('planner before listener');
  const plan = s.plan ?? deps.plan(u);
  if (!s.action) {
    const alpha = s.requestedAlpha ?? plan.alpha;
    const { scope, layers } = await routeScope(u.normalised, deps);
    return {
      update: { plan, alpha, scope, layers },
      trace: {
        intent: plan.intent,
        alpha,
        alphaReason: plan.alphaReason,
        hypotheses: plan.facetHypotheses,
        routing: scope ? { documents: scope.docIds.length, reason: scope.reason } : null,
        // Ids, scores and counts only: headings are document text.
        layers: layers ? { documents: layers.documents.slice(0, 5).map((d) => ({ docId: d.docId, score: Math.round(d.score * 1000) / 1000 })), read: layers.read.length, sections: Object.values(layers.sections) } : null,
      },
    };
  }
  const update: AgentUpdate = { plan, loops: s.loops + 1, action: null };
  if (s.action === 'RELAX') {
    Object.assign(update, { branchFilter: null, branchLabel: null, relaxed: true, alpha: 0.5 });
  } else if (s.action === 'PIVOT') {
    // Lean the other way, and search the entities' spacing variants too.
    const alpha = s.alpha >= 0.5 ? 0.25 : 0.75;
    Object.assign(update, { alpha, searchText: [keywordSearchText(u), ...u.entities].join(' ') });
  }
  return { update, trace: { action: s.action, loop: s.loops + 1, alpha: update.alpha ?? s.alpha } };
}

/**
 * The question routed over the document directory, and the document and section layers scored
 * for it; null without a directory, when it named nothing a document matches (the layers may
 * still be there), or when the directory cannot be read (routing is a refinement: the search
 * still runs, unrouted).
 */
async function routeScope(question: string, deps: AgentDeps): Promise<{ scope: QueryScope | null; layers: DocumentLayers | null }> {
  if (!deps.documents) return { scope: null, layers: null };
  const directory = await deps.documents().catch(() => null);
  if (!directory) return { scope: null, layers: null };
  const routed = routeQuery(question, directory);
  const scope = routed.docIds.length > 0 ? routed : null;
  // The document and section layers, scored before any chunk (seed 004).
  const layers = scoreLayers(question, directory, scope);
  return { scope, layers: layers.documents.length > 0 ? layers : null };
}

function clampFor(s: AgentStateType): Filter {
  return temporalClamp(s.asOf);
}

/** candidate_search: broad hybrid search under the time clamp (seed: limit≈300). */
export async function candidateSearch(s: AgentStateType, deps: AgentDeps): Promise<NodeResult> {
  if (!s.queryVector) throw new Error('candidate_search before listener');
  // A DRILLDOWN loop (and a RELAX whose alpha is unchanged) asks the very same search again: the
  // query vector is fixed for the run, so the same text, alpha, date and limit give the same hits.
  const key = JSON.stringify([s.searchText, s.alpha, s.asOf, deps.knobs.stage1Limit]);
  if (key === s.candidatesKey) {
    return { update: {}, trace: { alpha: s.alpha, asOf: s.asOf, candidates: s.candidates.length, reused: true } };
  }
  // Vectors come with the hits: rerank_diversify's MMR needs them, and one read is cheaper than two.
  const first = await deps.hybrid({ text: s.searchText, vector: s.queryVector, alpha: s.alpha, filter: clampFor(s), limit: deps.knobs.stage1Limit, withVectors: true });
  const { candidates, hyde } = await withHypothetical(s, deps, first);
  return { update: { candidates, candidatesKey: key }, trace: { alpha: s.alpha, asOf: s.asOf, candidates: candidates.length, ...(hyde ? { hyde } : {}) } };
}

/**
 * With a model, a question worded far from what the first search found is searched again by the
 * passage the model writes for it, and both lists are fused (HyDE). A model that fails leaves
 * the first search as it was: the hypothetical passage only widens recall.
 */
async function withHypothetical(s: AgentStateType, deps: AgentDeps, first: HybridHit[]): Promise<{ candidates: HybridHit[]; hyde: Record<string, unknown> | null }> {
  if (!deps.hypothetical || s.loops > 0) return { candidates: first, hyde: null };
  const question = s.understanding?.normalised ?? s.query;
  const coverage = Math.round(wordingCoverage(question, first) * 100) / 100;
  if (coverage >= FAR_COVERAGE) return { candidates: first, hyde: null };
  try {
    const passage = await deps.hypothetical(question);
    if (passage.trim() === '') return { candidates: first, hyde: { coverage, used: false } };
    const vector = await deps.embed(passage);
    const second = await deps.hybrid({ text: passage, vector, alpha: s.alpha, filter: clampFor(s), limit: deps.knobs.stage1Limit, withVectors: true });
    return { candidates: fuseHits(first, second, deps.knobs.stage1Limit), hyde: { coverage, used: true, added: second.filter((h) => !first.some((f) => f.chunk.chunk_id === h.chunk.chunk_id)).length } };
  } catch (err) {
    return { candidates: first, hyde: { coverage, used: false, error: err instanceof Error ? err.name : 'Error' } };
  }
}

/** The 1–3 facet sets worth trying: the strongest value of the two strongest facets, and both together. */
export function proposeBranches(weights: FacetWeights): { label: string; filter: Filter; weight: number }[] {
  const picks = BRANCH_FACETS.map((facet) => {
    const [value, weight] = Object.entries(weights[facet] ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] ?? ['', 0];
    return { facet, value, weight };
  })
    .filter((t) => t.value && t.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.facet.localeCompare(b.facet));
  const branches = picks.slice(0, 2).map((p) => ({ label: `${p.facet}=${p.value}`, filter: eq(p.facet, p.value), weight: p.weight }));
  const [a, b] = picks;
  if (a && b) branches.push({ label: `${a.facet}=${a.value} & ${b.facet}=${b.value}`, filter: and(eq(a.facet, a.value), eq(b.facet, b.value)), weight: (a.weight + b.weight) / 2 });
  return branches;
}

/** The branch over the documents a question was routed to. */
export function documentBranch(scope: QueryScope): { label: string; filter: Filter; weight: number } {
  const names = scope.organisations.map((o) => o.name).join(', ');
  const period = scope.period ? ` ${scope.period.phrase}` : scope.latest ? ' latest' : '';
  return { label: `documents=${names || 'named'}${period} (${scope.docIds.length})`, filter: isIn('doc_id', scope.docIds), weight: 1 };
}

/**
 * The branch a RELAX of a routed question falls back to: every document of the organisations it
 * names, when that is more than the routed documents; null otherwise (the whole index then).
 */
export function organisationBranch(scope: QueryScope): { label: string; filter: Filter } | null {
  const docs = [...new Set(scope.organisations.flatMap((o) => o.docIds))];
  if (docs.length === 0 || docs.every((d) => scope.docIds.includes(d))) return null;
  return { label: `documents=${scope.organisations.map((o) => o.name).join(', ')} relaxed (${docs.length})`, filter: isIn('doc_id', docs) };
}

/** facet_planner: query-to-facet-value cosine → weights; proposes branches. */
export async function facetPlanner(s: AgentStateType, deps: AgentDeps): Promise<NodeResult> {
  if (!s.queryVector) throw new Error('facet_planner before listener');
  // Facet-value vectors, merged with what the question itself names (doc type, jurisdiction…).
  // The document routing prior rides along as a doc_id facet: soft, and capped like every prior.
  // The document layer orders the routed documents; the section layer favours the headings the
  // question names in the documents to read (both soft, capped like every prior).
  const layers = s.layers;
  const routed: FacetWeights = s.scope ? { doc_id: layers ? layeredDocWeights(s.scope.docWeights, layers) : s.scope.docWeights } : {};
  const sections: FacetWeights = layers && Object.keys(layers.sections).length > 0 ? { section: layers.sections } : {};
  const weights = mergeFacetWeights(await deps.facetWeights(s.queryVector), s.plan?.facetHypotheses ?? {}, routed, sections);
  return { update: { weights }, trace: { weights } };
}

/**
 * narrowed_search: counts every branch in parallel and searches the one whose candidate count
 * falls in [branchMin, branchMax] (a DRILLDOWN takes the tightest branch that still leaves
 * enough to rank). Without a fitting branch the broad candidates stand.
 */
export async function narrowedSearch(s: AgentStateType, deps: AgentDeps): Promise<NodeResult> {
  if (!s.queryVector || !s.plan) throw new Error('narrowed_search before planner');
  const { branchMin, branchMax, keep, stage3Limit } = deps.knobs;
  if (s.relaxed) {
    // A RELAX widens the period, not the company: the named organisations' documents, every
    // period of them, before the whole index (which would let other companies' look-alike
    // filings crowd them out).
    const org = s.scope ? organisationBranch(s.scope) : null;
    if (!org) return { update: { narrowed: null, branchFilter: null, branchLabel: null }, trace: { skipped: 'relaxed' } };
    const narrowed = await deps.hybrid({ text: s.searchText, vector: s.queryVector, alpha: s.alpha, filter: and(clampFor(s), org.filter), limit: stage3Limit, withVectors: true });
    return { update: { narrowed, branchFilter: org.filter, branchLabel: org.label }, trace: { relaxedTo: org.label, narrowed: narrowed.length } };
  }
  const branches = proposeBranches(s.weights);
  // The documents the question names (an organisation, a period): searched whatever their size,
  // since that is where the answer must come from; the validator RELAXes it if it finds nothing.
  const docs = s.scope ? documentBranch(s.scope) : null;
  const counted = await Promise.all([...(docs ? [docs] : []), ...branches].map(async (b) => ({ ...b, count: await deps.count(and(clampFor(s), b.filter)) })));
  const routed = docs ? counted.find((b) => b.label === docs.label && b.count > 0) : undefined;
  const fitting = counted.filter((b) => b.count >= branchMin && b.count <= branchMax).sort((a, b) => b.weight - a.weight);
  const drill = s.action === 'DRILLDOWN' || s.loops > 0 ? counted.filter((b) => b.count >= Math.min(keep, branchMin)).sort((a, b) => a.count - b.count) : [];
  const chosen = routed ?? fitting[0] ?? drill[0] ?? null;
  const trace = { branches: counted.map((b) => ({ label: b.label, count: b.count, weight: Math.round(b.weight * 1000) / 1000 })), chosen: chosen?.label ?? null };
  if (!chosen) return { update: { narrowed: null, branchFilter: null, branchLabel: null }, trace };
  const narrowed = await deps.hybrid({ text: s.searchText, vector: s.queryVector, alpha: s.alpha, filter: and(clampFor(s), chosen.filter), limit: stage3Limit, withVectors: true });
  return { update: { narrowed, branchFilter: chosen.filter, branchLabel: chosen.label }, trace: { ...trace, narrowed: narrowed.length } };
}
