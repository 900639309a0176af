import { sha256Hex, type DocumentProfile } from '../domain/index.ts';
import { citedPeriodQualifier, periodQualifier, coverDocuments } from '../retrieval/index.ts';
import { formatDateQualifier } from '../llm/index.ts';
import { answerPassages, evidencePool, leadWithNamed, LEAD_WITHIN } from './evidence.ts';
import { answerStatesWhatWasAsked, checkAnswerFit } from './answer-checks.ts';
import type { AgentDeps, RankedCandidate } from './deps.ts';
import type { RunContext, Trace } from '../runs/index.ts';
import type { NodeResult } from './search-nodes.ts';
import type { AgentStateType } from './state.ts';

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The places within which every document a question was routed to gets a passage. */
const COVER_WITHIN = 10;

/** rerank_diversify: reranker + soft metadata prior + chunk-memory bonus, then MMR; keeps 20–40. */
export async function rerankDiversify(s: AgentStateType, deps: AgentDeps): Promise<NodeResult> {
  if (!s.queryVector || !s.plan) throw new Error('rerank_diversify before planner');
  // The branch's hits, and the broad search's evidence from documents it left out but nothing
  // rules out (routing is a prior, not a gate).
  const pool = evidencePool(s.scope, s.narrowed, s.candidates, s.branchLabel?.startsWith('documents=') === true);
  const candidates = pool.hits;
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
  // Several documents asked about, or broad evidence kept: each keeps a place near the top (see coverDocuments).
  const cover = [...(s.scope?.docIds ?? []), ...pool.broadDocs];
  const covered = cover.length > 1 ? coverDocuments(ranked, cover, (r) => r.hit.chunk.doc_id, COVER_WITHIN) : { items: ranked, promoted: [] };
  // The answer leads with a named document's passage when one is near the top.
  const lead = s.scope ? leadWithNamed(covered.items, s.scope.docIds, (r) => r.hit.chunk.doc_id) : { items: covered.items, led: null };
  ranked = lead.items;
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
  return {
    update: { ranked },
    trace: { candidates: candidates.length, withMemory: (await memory).size, kept: ranked.length, top, flagged, promotedDocs: covered.promoted.length, broadEvidenceDocs: pool.broadDocs.length, ledFrom: lead.led },
  };
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
  const lead = s.ranked[0]?.terms;
  const confidence = lead ? (lead.rerank ?? lead.content) : 0;
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
  // The run keeps the best ranking it saw: a loop that lost the named document's passages (or
  // the figure asked for) does not replace one that had them.
  const wantedDocs = new Set(s.scope?.docIds ?? []);
  const namedShare = wantedDocs.size === 0 ? 0 : s.ranked.slice(0, LEAD_WITHIN).filter((r) => wantedDocs.has(r.hit.chunk.doc_id)).length / LEAD_WITHIN;
  const score = (fit.documentOk ? 2 : 0) + (fit.kindOk ? 1 : 0) + confidence + namedShare;
  const best = !s.best || score > s.best.score ? { ranked: s.ranked, score, loop: s.loops } : s.best;
  const final = fallback && !ambiguous ? best.ranked : s.ranked;
  // "Not found" only when the documents asked about are not there: a named period or form no
  // document has, or no passage of the named documents near the top of the best ranking. A
  // named document that is there is answered from, unconfirmed.
  const wanted = s.scope && s.scope.docIds.length > 0 ? new Set(s.scope.docIds) : null;
  const absent = (s.scope?.unmatched.length ?? 0) > 0 || (wanted !== null && !final.slice(0, LEAD_WITHIN).some((r) => wanted.has(r.hit.chunk.doc_id)));
  return {
    update: {
      verdict: fallback && !ambiguous ? 'FALLBACK' : verdict,
      reason: fallback && !ambiguous ? `${reason}; no loops left` : reason,
      confidence,
      validated: ok,
      fallback,
      ranked: final,
      best,
      // Nothing of the documents asked about is there: say so rather than quote another's.
      notFound: fallback && fit.problems.length > 0 && absent,
      action: loopAgain ? (verdict as 'RELAX' | 'DRILLDOWN' | 'PIVOT') : null,
    },
    trace: {
      verdict,
      reason,
      confidence: round(confidence),
      loops: s.loops,
      timeValid: timeOk,
      documentOk: fit.documentOk,
      answerKind: fit.kind,
      kindOk: fit.kindOk,
      next: ok ? 'answer' : loopAgain ? 'loop' : 'fallback',
      ...(fallback && best.loop !== s.loops ? { answeredFromLoop: best.loop } : {}),
    },
  };
}

/** Profiles by document id, from the (cached) document directory; empty without one. */
async function profiles(deps: AgentDeps): Promise<Map<string, DocumentProfile | null>> {
  if (!deps.documents) return new Map();
  const directory = await deps.documents().catch(() => []);
  return new Map(directory.map((d) => [d.doc_id, d.profile]));
}

/** "for the period …" → "For the period …" (the form an answer's text leads with). */
function leadForm(q: string): string {
  return `${q.charAt(0).toUpperCase()}${q.slice(1)}`;
}

/**
 * The answer's text and qualifier under the period of the documents it cites: when the qualifier
 * given beforehand (the first passage's document) is not theirs, the lead of the text is changed
 * to theirs. Pure.
 */
export function requalify(text: string, used: string | null, cited: string | null, fallback: string): { text: string; qualifier: string } {
  const before = used ?? fallback;
  const after = cited ?? fallback;
  if (before === after) return { text, qualifier: after };
  const lead = [`${leadForm(before)}:`, `${before}:`].find((l) => text.startsWith(l));
  const next = lead ? `${lead === `${before}:` ? after : leadForm(after)}:${text.slice(lead.length)}` : text;
  return { text: next, qualifier: after };
}

/**
 * answerer: citations and date qualifiers; a fallback says it could not confirm the answer. An
 * answer about a reporting period is qualified by the period of the documents it cites ("for the
 * period ended 2023-07-01 (…)"), never by another document's, and not by today's date, even
 * when the question says "this year" or "currently".
 */
export async function answerer(s: AgentStateType, deps: AgentDeps, observer?: { delta?(text: string): void }): Promise<NodeResult> {
  const u = s.understanding;
  if (!u) throw new Error('answerer before listener');
  // "This year", "currently", 올해 date a question today, which names no report's period: an
  // answer from a report is still qualified by the period it reports ("for fiscal 2024 Q1", not
  // "as of" today beside a call's "we plan to add 300 employees this year").
  const dated = Boolean(s.requestedAsOf || (u.asOf && u.asOf !== deps.today()));
  const byDoc = dated ? new Map<string, DocumentProfile | null>() : await profiles(deps);
  // The answer draws on the named documents' passages first (the ranking stays as it is).
  const passages = s.scope && !s.notFound ? answerPassages(s.ranked, s.scope, (r) => r.hit.chunk.doc_id) : s.ranked;
  const firstDoc = passages[0]?.hit.chunk.doc_id;
  const qualifier = dated || !firstDoc ? null : periodQualifier(byDoc.get(firstDoc) ?? null, u.lang);
  const onDelta = observer?.delta?.bind(observer);
  const out = await deps.answer({ query: s.query, asOf: s.asOf, today: deps.today(), ranked: passages, qualifier, notFound: s.notFound, ...(onDelta ? { onDelta } : {}) });
  const citedDocs = [...new Set(out.citations.map((c) => c.docId))];
  // The qualifier is the cited documents' own period: re-read once the citations are known.
  const today = formatDateQualifier(s.asOf || deps.today(), u.lang);
  const fixed =
    dated || citedDocs.length === 0 || s.notFound
      ? { text: out.text, qualifier: out.dateQualifier }
      : requalify(out.text, qualifier, citedPeriodQualifier(citedDocs.map((d) => byDoc.get(d) ?? null), u.lang, today), today);
  // Validated only when the answer itself says what was asked, from documents asked about.
  const bodies = new Map(s.ranked.map((r) => [r.hit.chunk.chunk_id, r.hit.chunk.body]));
  const stated = answerStatesWhatWasAsked({
    question: u.normalised ?? s.query,
    text: out.text,
    cited: out.citations.map((c) => ({ docId: c.docId, body: bodies.get(c.chunkId) ?? c.cell?.text ?? '' })),
    wantedDocIds: s.scope && s.scope.docIds.length > 0 ? new Set(s.scope.docIds) : null,
    everyFigure: out.guard?.byModel === true,
  });
  const validated = s.validated && stated.ok;
  return {
    update: { text: fixed.text, citations: out.citations, dateQualifier: fixed.qualifier, validated },
    trace: {
      citations: out.citations.map((c) => ({ n: c.n, chunkId: c.chunkId, docId: c.docId })),
      ...(s.validated && !stated.ok ? { unvalidatedBecause: stated.problems } : {}),
      fallback: s.fallback,
      withheld: out.guard?.withheld ?? [],
      requalified: fixed.text !== out.text || fixed.qualifier !== out.dateQualifier,
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
