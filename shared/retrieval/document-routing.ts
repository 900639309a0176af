/**
 * Query-time routing over documents (issue 13): which organisations, period and kind of
 * document a question names, matched against the profiles of the indexed documents — the index
 * is the gazetteer, nothing is listed in advance. The result is a soft per-document prior and,
 * when the question names an organisation or a period some documents match, the set of documents
 * a narrowed branch searches. Pure: the directory of documents is passed in.
 */
import type { DocumentProfile } from '../domain/index.ts';
import { bareName, reportsOnPeriod } from '../enrich/index.ts';
import { mentionsAlias } from './organisation-match.ts';
import { PERIODLESS_WEIGHT, completeFiscalPeriods, hasPeriod, isQuarterly, namedFor, organisationKey, periodMatchWeight, sourcePeriod } from './period-match.ts';
import { COMPARING, LATEST, findQueryForm, findQueryPeriods, formsMatch, type QueryPeriod } from './query-periods.ts';

/** What routing needs of an indexed document. */
export interface DirectoryEntry {
  doc_id: string;
  /** The version of the document the entry was read from (absent where none is known). */
  version?: string;
  title: string;
  doc_type: string;
  profile: DocumentProfile | null;
  /** Where the document came from (its file's path or address): its name may say its period ("2023 Q3 MSFT.pdf"). */
  source?: string;
  /** Section headings of the document (its document layer; absent when not read). */
  headings?: readonly string[];
}

export type { QueryPeriod } from './query-periods.ts';
export { findQueryForm, findQueryPeriod, findQueryPeriods } from './query-periods.ts';
export { periodMatchWeight, periodMatches } from './period-match.ts';

/** What a question names about documents. */
export interface QueryScope {
  /** Organisations named, each with the alias that matched and the documents about it. */
  organisations: Array<{ name: string; alias: string; docIds: string[] }>;
  /** The first period named (see `periods`), or null. */
  period: QueryPeriod | null;
  /** Every period named, each year of a span included ("FY2017–FY2019": three); absent in scopes built before spans were read. */
  periods?: QueryPeriod[];
  /** "latest", "most recent", "최근": the newest period among the matching documents. */
  latest: boolean;
  /** A document kind named ("10-Q", "10-K"), or null. */
  form: string | null;
  /** Per-document prior weight in [0, 1]: 1 for documents matching all that was named. */
  docWeights: Record<string, number>;
  /** Documents a narrowed branch should search, best first; empty when the question named nothing a document matches. */
  docIds: string[];
  /** Parts the question named that no document (of the named organisations) matches, e.g. "period Q2 2019". */
  unmatched: string[];
  /**
   * Documents the question rules out: those whose profile names only other organisations than
   * the ones it names, and the named organisation's documents whose own period or kind
   * contradicts the one named. Everything else — documents without an organisation or a period,
   * another reckoning of the named period — may still hold the answer a broad search finds.
   */
  excluded?: string[];
  /**
   * The named period fits one organisation's documents by different reckonings ("Q3 2023" is
   * Microsoft's fiscal third quarter, ended March 2023, and the calendar quarter ended September
   * 2023): an answer can be given, not confirmed.
   */
  ambiguousPeriod: boolean;
  /** Why, for the trace ("organisation Apple Inc.; period Q3 2023: 1 of 4"). */
  reason: string;
}

/** Weight of a document of no stated kind when the question names a kind: it may be one. */
const FORMLESS_WEIGHT = 0.6;

function formWeight(entry: DirectoryEntry, form: string): number {
  const own = entry.profile?.form ?? (entry.doc_type && entry.doc_type !== 'unknown' ? entry.doc_type : null);
  if (!own) return FORMLESS_WEIGHT;
  return formsMatch(own, form) || formsMatch(entry.doc_type, form) ? 1 : 0;
}

/** The organisation a document is grouped under for tiers: its organisation's key, else itself. */
function orgOf(d: DirectoryEntry): string {
  return organisationKey(d.profile) ?? d.doc_id;
}

/**
 * The organisations a question names, each with its documents: every document whose profile
 * alias (name, short name, ticker, brand) the question names — the longest alias wins an overlap
 * ("3M Company" over "3M") — and every document without an organisation in its profile whose
 * title names one of them (an earnings release titled by its issuer).
 */
function namedOrganisations(text: string, directory: readonly DirectoryEntry[]): QueryScope['organisations'] {
  const byOrg = new Map<string, { name: string; alias: string; docIds: string[]; aliases: Set<string> }>();
  for (const entry of directory) {
    for (const org of entry.profile?.organisations ?? []) {
      const hit = org.aliases.filter((a) => mentionsAlias(text, a)).sort((a, b) => b.length - a.length)[0];
      if (!hit) continue;
      const key = bareName(org.name) || hit;
      const found = byOrg.get(key) ?? { name: org.name, alias: hit, docIds: [], aliases: new Set<string>() };
      if (hit.length > found.alias.length) found.alias = hit;
      if (!found.docIds.includes(entry.doc_id)) found.docIds.push(entry.doc_id);
      for (const a of org.aliases) found.aliases.add(a);
      byOrg.set(key, found);
    }
  }
  // An alias inside a longer matched one ("3m" inside "3m company") is not a second organisation.
  const named = [...byOrg.values()].filter((o, _i, all) => !all.some((x) => x !== o && x.alias.length > o.alias.length && x.alias.includes(o.alias)));
  for (const entry of directory) {
    if ((entry.profile?.organisations.length ?? 0) > 0) continue;
    for (const o of named) {
      if ([...o.aliases].some((a) => a.length >= 3 && mentionsAlias(entry.title, a)) && !o.docIds.includes(entry.doc_id)) o.docIds.push(entry.doc_id);
    }
  }
  return named.map(({ name, alias, docIds }) => ({ name, alias, docIds }));
}

/**
 * Routes a question over the indexed documents (a prior, not a gate: every document stays
 * searchable, and the agent keeps what its broad search found):
 * - organisations: {@link namedOrganisations};
 * - periods: every period named ({@link findQueryPeriods}: each year of a span), weighted by
 *   {@link periodMatchWeight} after the organisation's documents lend one another their fiscal
 *   calendar ({@link completeFiscalPeriods}); the branch keeps, per organisation and period, the
 *   best-weighted tier, and documents without any period beside it; "latest" takes the newest
 *   period end of each organisation, and only prefers it (others × 0.6) when the question
 *   compares with earlier periods;
 * - form: {@link findQueryForm}, a kind's family counting ("10-K" and an annual report); a
 *   document of no stated kind competes at a lower weight.
 * Weights: the product of the form and period weights for documents matching them; documents of
 * a named organisation matching neither keep 0.4; nothing named → no weights. `docIds` are the
 * matching documents, best first, empty when nothing was named.
 * A period or form no document of the named organisations matches is listed in `unmatched`
 * (the organisation's documents stay the branch; the validator will not confirm an answer).
 */
export function routeQuery(question: string, rawDirectory: readonly DirectoryEntry[]): QueryScope {
  const text = question.normalize('NFKC');
  const directory = completeFiscalPeriods(rawDirectory);
  const organisations = namedOrganisations(text, directory);
  const periods = findQueryPeriods(text);
  const period = periods[0] ?? null;
  const latest = LATEST.test(text);
  const form = findQueryForm(text);
  const mentioned = new Set(organisations.flatMap((o) => o.docIds));
  const excluded = organisations.length === 0 ? [] : directory.filter((d) => (d.profile?.organisations.length ?? 0) > 0 && !mentioned.has(d.doc_id)).map((d) => d.doc_id);
  const base = { organisations, period, periods, latest, form };

  let pool = organisations.length > 0 ? directory.filter((d) => organisations.some((o) => o.docIds.includes(d.doc_id))) : [...directory];
  const named = organisations.length > 0 || periods.length > 0 || latest || form !== null;
  const docWeights: Record<string, number> = {};
  const reasons: string[] = organisations.map((o) => `organisation ${o.name} (${o.alias})`);
  const unmatched: string[] = [];
  if (!named || directory.length === 0) return { ...base, excluded, docWeights, docIds: [], unmatched, ambiguousPeriod: false, reason: 'no organisation, period or form named' };

  // Weight per document of the pool: the form and the period multiply, "latest" prefers the newest.
  const weight = new Map<string, number>(pool.map((d) => [d.doc_id, 1]));
  const scale = (d: DirectoryEntry, w: number): void => void weight.set(d.doc_id, (weight.get(d.doc_id) ?? 0) * w);
  if (form) {
    const f = pool.filter((d) => formWeight(d, form) === 1);
    if (f.length === 0 && !pool.some((d) => formWeight(d, form) > 0)) unmatched.push(`form ${form}`);
    else for (const d of pool) scale(d, formWeight(d, form));
    reasons.push(`form ${form}: ${f.length}`);
  }
  // The form's weight, before any period's: each named period scales it on its own.
  const formW = new Map(weight);
  const w = (d: DirectoryEntry, p: QueryPeriod): number => (formW.get(d.doc_id) ?? 0) * periodMatchWeight(d.profile, p, sourcePeriod(d.source));
  if (periods.length > 0) {
    const dated = pool.filter((d) => hasPeriod(d.profile) && periods.some((p) => w(d, p) > 0));
    const undated = pool.filter((d) => !hasPeriod(d.profile) && (weight.get(d.doc_id) ?? 0) > 0);
    const phrase = [...new Set(periods.map((p) => p.phrase))].join(', ');
    if (dated.length === 0 && undated.length === 0) unmatched.push(`period ${phrase}`);
    else for (const d of pool) weight.set(d.doc_id, Math.max(...periods.map((p) => w(d, p))));
    reasons.push(`period ${phrase}: ${dated.length}${undated.length ? ` (+${undated.length} without a period)` : ''}`);
  } else if (latest) {
    // The newest per organisation ("Apple's and Intel's latest 10-Q" means one of each) is
    // preferred, the others stay in the branch: "the latest quarter compared with the previous ones".
    const groups = organisations.length > 0 ? organisations.map((o) => pool.filter((d) => o.docIds.includes(d.doc_id))) : [pool];
    const comparing = COMPARING.test(text);
    for (const g of groups) {
      const top = g.map((d) => d.profile?.period.end ?? '').sort().pop() ?? '';
      for (const d of g) if (top && d.profile?.period.end !== top) scale(d, hasPeriod(d.profile) ? (comparing ? 0.6 : 0) : PERIODLESS_WEIGHT);
    }
    reasons.push(comparing ? 'latest, compared with earlier periods' : 'latest');
  }
  const matching = pool.filter((d) => (weight.get(d.doc_id) ?? 0) > 0);
  // Only a period or a form, matching every document or none: nothing to route by.
  if (organisations.length === 0 && (matching.length === directory.length || unmatched.length > 0 || !matching.some((d) => hasPeriod(d.profile) || form !== null))) {
    return { ...base, excluded, docWeights, docIds: [], unmatched: [], ambiguousPeriod: false, reason: `${reasons.join('; ')}; matches every document or none` };
  }
  if (organisations.length === 0) pool = matching;
  // The branch holds, per organisation and named period, the best-matching tier (the period by
  // the documents' own reckoning before another), and the documents that state no period; a
  // "latest … compared with previous quarters" keeps every matching document.
  const top = new Map<string, number>();
  const tierKey = (d: DirectoryEntry, i: number): string => `${orgOf(d)}|${i}`;
  periods.forEach((p, i) => {
    for (const d of matching) if (hasPeriod(d.profile)) top.set(tierKey(d, i), Math.max(top.get(tierKey(d, i)) ?? 0, w(d, p)));
  });
  const inTier = (d: DirectoryEntry): boolean => !hasPeriod(d.profile) || periods.some((p, i) => w(d, p) > 0 && w(d, p) === top.get(tierKey(d, i)));
  const best = unmatched.length > 0 ? pool : periods.length > 0 ? matching.filter(inTier) : matching;
  // Documents of the organisation that match nothing else named keep a small prior.
  for (const d of pool) docWeights[d.doc_id] = Math.max(0.4, unmatched.length > 0 ? 0.4 : (weight.get(d.doc_id) ?? 0));
  best.sort((a, b) => (docWeights[b.doc_id] ?? 0) - (docWeights[a.doc_id] ?? 0) || (a.doc_id < b.doc_id ? -1 : 1));
  // Ambiguous: a period not said to be fiscal fits two of an organisation's reports of one kind
  // by different reckonings (each at least at the calendar weight).
  // A document whose file is named for the period settles it ("2023 Q3 MSFT.pdf" for "Q3 2023").
  const ambiguousPeriod = periods.some((p) => {
    if (p.fiscal || p.end || matching.some((d) => namedFor(sourcePeriod(d.source), p))) return false;
    const counts = new Map<string, number>();
    for (const d of matching) {
      if (!hasPeriod(d.profile) || w(d, p) < 0.7) continue;
      const kind = `${orgOf(d)}|${d.profile && isQuarterly(d.profile) ? 'q' : 'a'}`;
      if (p.quarter === null && kind.endsWith('|q')) continue;
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    return [...counts.values()].some((n) => n > 1);
  });
  if (ambiguousPeriod) reasons.push('period ambiguous between fiscal, filed and calendar reckonings');
  // The named organisation's documents whose own period or kind contradicts what was named are
  // ruled out too (unless nothing matched): another quarter's filing is no evidence for this one.
  if (unmatched.length === 0) for (const d of pool) if ((weight.get(d.doc_id) ?? 0) === 0 && (hasPeriod(d.profile) || form !== null)) excluded.push(d.doc_id);
  return { ...base, excluded, docWeights, docIds: best.map((d) => d.doc_id), unmatched, ambiguousPeriod, reason: reasons.join('; ') };
}

/**
 * The qualifier of an answer about a period: the period the cited document reports on
 * ("for the period ended 2023-07-01 (Apple Inc. · 10-Q · fiscal 2023 Q3)"), or, for a report that
 * states only its fiscal period (a release, a transcript), that period ("for fiscal 2023 Q3
 * (…)"); null when the document states neither. Korean: "2023년 7월 1일 종료 기간 기준 (…)".
 */
export function periodQualifier(profile: DocumentProfile | null | undefined, lang: string): string | null {
  if (!profile) return null;
  const { end, fiscalYear, fiscalQuarter } = profile.period;
  if (!end && fiscalYear === null) return null;
  // An edition in effect (a law, a policy, a guideline, a standard…), else a reporting period: as the profile's label says.
  const what = !reportsOnPeriod(profile);
  const parts = profile.label.split(' · ').filter((p) => !/^(?:period ended|effective|calendar)\s/.test(p));
  if (!end) {
    const fiscal = `fiscal ${fiscalYear}${fiscalQuarter ? ` Q${fiscalQuarter}` : ''}`;
    const rest = parts.filter((p) => p !== fiscal).join(' · ');
    if (lang === 'ko') return `${fiscalYear}회계연도${fiscalQuarter ? ` ${fiscalQuarter}분기` : ''} 기준${rest ? ` (${rest})` : ''}`;
    return `for ${fiscal}${rest ? ` (${rest})` : ''}`;
  }
  const tail = parts.length ? ` (${parts.join(' · ')})` : '';
  if (lang === 'ko') {
    const [y, m, d] = end.split('-').map(Number);
    return what ? `${y}년 ${m}월 ${d}일 시행본 기준${tail}` : `${y}년 ${m}월 ${d}일 종료 기간 기준${tail}`;
  }
  return what ? `as of the edition effective ${end}${tail}` : `for the period ended ${end}${tail}`;
}

/**
 * The qualifier of an answer citing documents with these profiles, in citation order: the one
 * period they share ({@link periodQualifier}), or each distinct period joined ("for the period
 * ended 2022-12-31 (…); for the period ended 2023-04-01 (…)"); null when none states a period.
 * The qualifier is the cited documents' own period, never another document's: a cited document
 * stating none is said with `undated` ("as of 2026-11-29"), in its place, so an undated
 * standard quoted first is not read under another document's edition.
 */
export function citedPeriodQualifier(profiles: ReadonlyArray<DocumentProfile | null | undefined>, lang: string, undated: string | null = null): string | null {
  const each = profiles.map((p) => periodQualifier(p, lang));
  if (each.every((q) => q === null)) return null;
  const out: string[] = [];
  for (const q of each.map((x) => x ?? undated)) {
    if (q && !out.includes(q)) out.push(q);
  }
  return out.join('; ');
}
