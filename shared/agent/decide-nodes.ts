import type { DocumentProfile } from '../domain/document.ts';
import { sha256Hex } from '../domain/ids.ts';
import { periodQualifier } from '../retrieval/document-routing.ts';
import { coverDocuments } from '../retrieval/document-coverage.ts';
import { checkAnswerFit } from './answer-checks.ts';
import type { AgentDeps, RankedCandidate } from './deps.ts';
import type { RunContext } from './run-context.ts';
import type { NodeResult } from './search-nodes.ts';
import type { AgentStateType } from './state.ts';
import type { Trace } from './trace.ts';

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The places within which every document a question was routed to gets a passage. */
const COVER_WITHIN = 10;

/** rerank_diversify: reranker + soft metadata prior + chunk-memory bonus, then MMR; keeps 20–40. */
export async function rerankDiversify(s: AgentStateType, deps: AgentDeps): Promise<NodeResult> {
  if (!s.queryVector || !s.plan) throw new Error('rerank_diversify before planner');
  const candidates = s.narrowed ?? s.candidates;
  // Not awaited here: the lookup runs while the reranker scores (rank awaits it). Should rank fail
  // first, a failed lookup has no reader left: it must not surface as an unhandled rejection.
  const memory = deps.memory(candidates.map((c) => c.chunk.chunk_id));
  memory.catch(() => undefined);
  // The reranker scores passages against the question itself (date phrase removed), not the
  // keyword text: that one appends spacing variants and entities for BM25, and a bag of variants
  // read as a question gains word-boundary bigrams no passage has ("금출" from "장려금 출산장려금"),
  // so "출산 장려금 …" and "출산장려금 …" would be graded differently (seed 000 §9.6).
  const question = s.understanding?.stripped || s.understanding?.normalised || s.searchText;
  let ranked = await deps.rank({
    runId: s.runId,
    query: question,
    queryVector: s.queryVector,
    intent: s.plan.intent,
    candidates,
    weights: s.weights,
    memory,
    keep: deps.knobs.keep,
  });
  // Several documents asked about: each keeps a place near the top (see coverDocuments).
  const covered = s.scope && s.scope.docIds.length > 1 ? coverDocuments(ranked, s.scope.docIds, (r) => r.hit.chunk.doc_id, COVER_WITHIN) : { items: ranked, promoted: [] };
  ranked = covered.items;
  const top = ranked.slice(0, deps.knobs.traceTopK).map((r) => ({
    chunkId: r.terms.chunkId,
    docId: r.hit.chunk.doc_id,
    before: r.terms.rankBefore,
    after: r.terms.rankAfter,
    content: round(r.terms.content),
    rerank: r.terms.rerank === null ? null : round(r.terms.rerank),
    hybrid: round(r.terms.hybrid),
    explored: r.terms.explored,
    prior: round(r.terms.prior),
    memory: round(r.terms.memory),
    mmrPenalty: round(r.terms.mmrPenalty),
    final: round(r.terms.final),
    instruction: round(r.terms.instructionPenalty ?? 0),
  }));
  // Kept passages that read as instructions to a model: ids and cue names, never their text.
  const flagged = ranked
    .filter((r) => (r.terms.instructionCues?.length ?? 0) > 0)
    .map((r) => ({ chunkId: r.terms.chunkId, rank: r.terms.rankAfter, cues: [...(r.terms.instructionCues ?? [])] }));
  return { update: { ranked }, trace: { candidates: candidates.length, withMemory: (await memory).size, kept: ranked.length, top, flagged, promotedDocs: covered.promoted.length } };
}

function validAt(r: RankedCandidate, date: string): boolean {
  const { valid_from: from, valid_to: to } = r.hit.chunk;
  return (from === null || from <= date) && (to === null || to > date);
}

/**
 * validator: grounded (the best passage covers the question well enough) and valid at the
 * answer's date. Otherwise a loop — RELAX a narrowing that starved the ranking, DRILLDOWN into a
 * facet when there is too much, PIVOT the search otherwise — at most `maxLoops` times; then the
 * answer is a fallback, marked as such.
 */
export async function validator(s: AgentStateType, deps: AgentDeps): Promise<NodeResult> {
  const { confidenceThreshold, maxLoops, keep, branchMax } = deps.knobs;
  // Grounding: how well the best passage covers the question (the reranker's score, else content).
  const best = s.ranked[0]?.terms;
  const confidence = best ? (best.rerank ?? best.content) : 0;
  const timeOk = s.ranked.every((r) => validAt(r, s.asOf));
  const fit = checkAnswerFit(s.understanding?.normalised ?? s.query, s.scope, s.ranked.map((r) => ({ docId: r.hit.chunk.doc_id, body: r.hit.chunk.body })));
  let verdict: string;
  let reason: string;
  if (!s.ranked.length) {
    verdict = 'RELAX';
    reason = `no candidates valid at ${s.asOf}`;
  } else if (!timeOk) {
    verdict = 'RELAX';
    reason = `a passage is not valid at ${s.asOf}`;
  } else if (confidence >= confidenceThreshold && fit.problems.length === 0) {
    verdict = 'OK';
    reason = `grounded: best passage covers ${Math.round(confidence * 100)}% of the question`;
  } else if (!fit.documentOk) {
    // A passage of another organisation or period: search the named documents (DRILLDOWN), or,
    // once they were relaxed away, search differently with the document prior still on.
    verdict = s.relaxed || s.branchLabel?.startsWith('documents=') ? 'PIVOT' : 'DRILLDOWN';
    reason = fit.problems.join('; ');
  } else if (!fit.kindOk) {
    verdict = 'PIVOT';
    reason = fit.problems.join('; ');
  } else if (s.branchFilter && (s.narrowed?.length ?? 0) < keep) {
    verdict = 'RELAX';
    reason = `narrowed to ${s.branchLabel} left ${s.narrowed?.length ?? 0} candidates and weak grounding (${round(confidence)})`;
  } else if (!s.branchFilter && !s.relaxed && s.candidates.length >= branchMax) {
    verdict = 'DRILLDOWN';
    reason = `weak grounding (${round(confidence)}) among ${s.candidates.length} candidates`;
  } else {
    verdict = 'PIVOT';
    reason = `weak grounding (${round(confidence)})`;
  }
  // A period that reads two ways (fiscal and calendar) may be answered, never confirmed: no loop
  // would make it less ambiguous.
  const ambiguous = verdict === 'OK' && s.scope?.ambiguousPeriod === true;
  if (ambiguous) {
    verdict = 'AMBIGUOUS';
    reason = `${reason}; but ${s.scope?.period?.phrase ?? 'the period'} names different filings by fiscal and by calendar reckoning`;
  }
  const ok = verdict === 'OK';
  const loopAgain = !ok && !ambiguous && s.loops < maxLoops;
  const fallback = !ok && !loopAgain;
  return {
    update: {
      verdict: fallback && !ambiguous ? 'FALLBACK' : verdict,
      reason: fallback && !ambiguous ? `${reason}; no loops left` : reason,
      confidence,
      validated: ok,
      fallback,
      // Nothing of the documents asked about holds the answer: say so rather than quote another's.
      notFound: fallback && fit.problems.length > 0,
      action: loopAgain ? (verdict as 'RELAX' | 'DRILLDOWN' | 'PIVOT') : null,
    },
    trace: { verdict, reason, confidence: round(confidence), loops: s.loops, timeValid: timeOk, documentOk: fit.documentOk, answerKind: fit.kind, kindOk: fit.kindOk, next: ok ? 'answer' : loopAgain ? 'loop' : 'fallback' },
  };
}

/** The profile of the best passage's document, from the (cached) document directory. */
async function profileOf(s: AgentStateType, deps: AgentDeps): Promise<DocumentProfile | null> {
  const docId = s.ranked[0]?.hit.chunk.doc_id;
  if (!docId || !deps.documents) return null;
  const directory = await deps.documents().catch(() => []);
  return directory.find((d) => d.doc_id === docId)?.profile ?? null;
}

/** answerer: citations and date qualifiers; a fallback says it could not confirm the answer. */
export async function answerer(s: AgentStateType, deps: AgentDeps, observer?: { delta?(text: string): void }): Promise<NodeResult> {
  const u = s.understanding;
  if (!u) throw new Error('answerer before listener');
  // An answer about a reporting period is qualified by that period, not by today's date.
  const qualifier = s.requestedAsOf || u.asOf ? null : periodQualifier(await profileOf(s, deps), u.lang);
  const onDelta = observer?.delta?.bind(observer);
  const out = await deps.answer({ query: s.query, asOf: s.asOf, today: deps.today(), ranked: s.ranked, qualifier, notFound: s.notFound, ...(onDelta ? { onDelta } : {}) });
  return {
    update: { text: out.text, citations: out.citations, dateQualifier: out.dateQualifier },
    trace: {
      citations: out.citations.map((c) => ({ n: c.n, chunkId: c.chunkId, docId: c.docId })),
      fallback: s.fallback,
      withheld: out.guard?.withheld ?? [],
      ...(out.guard?.removed ? { removedFromModelOutput: out.guard.removed } : {}),
    },
  };
}

export function runContextOf(s: AgentStateType): RunContext {
  return {
    runId: s.runId,
    queryVector: Array.from(s.queryVector ?? []),
    intent: s.plan?.intent ?? 'general',
    entities: s.understanding?.entities ?? [],
    citedChunkIds: s.citations.map((c) => c.chunkId),
  };
}

export function traceOf(s: AgentStateType, extra: Trace['steps'] = []): Trace {
  return {
    runId: s.runId,
    queryHash: sha256Hex(s.query).slice(0, 16),
    lang: s.understanding?.lang ?? 'und',
    asOf: s.asOf || null,
    startedAt: s.startedAt,
    totalMs: Date.now() - Date.parse(s.startedAt),
    steps: [...s.steps, ...extra],
    verdict: s.verdict,
    reason: s.reason,
    loops: s.loops,
  };
}

/** memory_updater: a validated answer's cited chunks earn memory (applied by the memory worker). */
export async function memoryUpdater(s: AgentStateType, deps: AgentDeps): Promise<NodeResult> {
  if (!s.validated || s.fallback || s.citations.length === 0) return { update: {}, trace: { enqueued: false, chunks: [] } };
  await deps.remember(runContextOf(s), new Date());
  return { update: {}, trace: { enqueued: true, chunks: s.citations.map((c) => c.chunkId) } };
}
