/**
 * Query-time routing over documents (issue 13): which organisations, period and kind of
 * document a question names, matched against the profiles of the indexed documents — the index
 * is the gazetteer, nothing is listed in advance. The result is a soft per-document prior and,
 * when the question names an organisation or a period some documents match, the set of documents
 * a narrowed branch searches. Pure: the directory of documents is passed in.
 */
import type { DocumentProfile } from '../domain/document.ts';

/** What routing needs of an indexed document. */
export interface DirectoryEntry {
  doc_id: string;
  title: string;
  doc_type: string;
  profile: DocumentProfile | null;
}

/** A period a question names: a year, optionally a quarter, fiscal when it said so. */
export interface QueryPeriod {
  /** The phrase as written ("Q3 2023", "fiscal 2018", "2023년 3분기"). */
  phrase: string;
  year: number;
  quarter: number | null;
  /** The question said "fiscal"/"FY"/"회계연도". */
  fiscal: boolean;
}

/** What a question names about documents. */
export interface QueryScope {
  /** Organisations named, each with the alias that matched and the documents about it. */
  organisations: Array<{ name: string; alias: string; docIds: string[] }>;
  period: QueryPeriod | null;
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
   * The named period fits one organisation's documents by different reckonings ("Q3 2023" is
   * Microsoft's fiscal third quarter, ended March 2023, and the calendar quarter ended September
   * 2023): an answer can be given, not confirmed.
   */
  ambiguousPeriod: boolean;
  /** Why, for the trace ("organisation Apple Inc.; period Q3 2023: 1 of 4"). */
  reason: string;
}

const ORDINALS: Readonly<Record<string, number>> = { first: 1, second: 2, third: 3, fourth: 4, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4 };
const ORD = '(first|second|third|fourth|1st|2nd|3rd|4th)';
const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';

function yearOf(s: string): number {
  const n = Number(s);
  return s.length === 2 ? 2000 + n : n;
}

/** Period phrases, most specific first; each yields year, quarter and whether it said fiscal. */
const PERIOD_RULES: ReadonlyArray<{ re: RegExp; read: (m: RegExpExecArray) => Omit<QueryPeriod, 'phrase'> }> = [
  { re: new RegExp(`${B}${ORD}\\s+(?:fiscal\\s+)?quarter\\s+(?:of\\s+)?(fiscal\\s+(?:year\\s+)?)?(?:FY\\s?)?(\\d{4})${E}`, 'iu'), read: (m) => ({ year: yearOf(m[3] ?? ''), quarter: ORDINALS[(m[1] ?? '').toLowerCase()] ?? null, fiscal: Boolean(m[2]) || /fiscal|FY/i.test(m[0]) }) },
  { re: new RegExp(`${B}Q([1-4])\\s*(?:of\\s+)?(FY|fiscal(?:\\s+year)?)?\\s*'?(\\d{4}|\\d{2})${E}`, 'iu'), read: (m) => ({ year: yearOf(m[3] ?? ''), quarter: Number(m[1]), fiscal: Boolean(m[2]) }) },
  { re: new RegExp(`${B}(FY|fiscal(?:\\s+year)?\\s+)?(\\d{4})\\s*Q([1-4])${E}`, 'iu'), read: (m) => ({ year: yearOf(m[2] ?? ''), quarter: Number(m[3]), fiscal: Boolean(m[1]) }) },
  { re: /(\d{4})\s*(회계)?\s*(?:년도?)?\s*제?\s*([1-4])\s*분기/u, read: (m) => ({ year: Number(m[1]), quarter: Number(m[3]), fiscal: Boolean(m[2]) }) },
  { re: new RegExp(`${B}(?:FY\\s?'?(\\d{4}|\\d{2})|fiscal(?:\\s+year)?\\s+(\\d{4}))${E}`, 'iu'), read: (m) => ({ year: yearOf(m[1] ?? m[2] ?? ''), quarter: null, fiscal: true }) },
  { re: new RegExp(`${B}(\\d{4})\\s+(?:annual\\s+report|10-K|form\\s+10-K)${E}`, 'iu'), read: (m) => ({ year: Number(m[1]), quarter: null, fiscal: true }) },
  { re: /(\d{4})\s*회계\s*연도/u, read: (m) => ({ year: Number(m[1]), quarter: null, fiscal: true }) },
];

/** The period a question names, or null ("Q3 2023", "third quarter of 2023", "FY2018", "fiscal 2018", "2018 annual report", "2023년 3분기"). */
export function findQueryPeriod(question: string): QueryPeriod | null {
  const text = question.normalize('NFKC');
  for (const rule of PERIOD_RULES) {
    const m = rule.re.exec(text);
    if (!m) continue;
    const p = rule.read(m);
    if (p.year >= 1900 && p.year <= 2199) return { phrase: m[0].trim(), ...p };
  }
  return null;
}

/** "The latest quarter compared with the previous ones": the earlier periods are asked about too. */
const COMPARING = /\b(?:previous|prior|preceding|earlier|past|other|last\s+(?:few|several|\d+))\s+(?:\w+\s+)?(?:quarters?|periods?|years?|filings?|reports?|10-qs?)\b|\b(?:previous|prior|earlier)\s+ones\b|\bover\s+time\b|\bacross\s+(?:the\s+)?(?:quarters|periods|years|filings)\b|\bquarter[-\s]over[-\s]quarter\b|\byear[-\s]over[-\s]year\b|이전\s*분기|전\s*분기|분기별/iu;

const LATEST = /\b(?:latest|most\s+recent|newest|last\s+(?:reported\s+)?(?:quarter|10-q|10-k|filing|report))\b|최근|최신|가장\s*최근/iu;

/** The document kind a question names: SEC forms by number, quarterly and annual reports. */
export function findQueryForm(question: string): string | null {
  const m = /\b(10-K|10-Q|8-K|20-F|6-K)\b/i.exec(question);
  if (m?.[1]) return m[1].toUpperCase();
  if (/\bquarterly\s+(?:report|filing)\b|분기\s*보고서/iu.test(question)) return '10-Q';
  if (/\bannual\s+(?:report|filing)\b|사업\s*보고서/iu.test(question)) return '10-K';
  return null;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `alias` occurs in the question: Hangul by substring (particles follow), Latin on word boundaries; short tickers only as written in capitals. */
function mentions(question: string, lower: string, alias: string): boolean {
  if (alias.length < 2) return false;
  if (/[\uAC00-\uD7A3]/.test(alias)) return lower.includes(alias);
  if (/^[a-z]{1,5}$/.test(alias) && alias.length <= 4) {
    return new RegExp(`${B}${escape(alias.toUpperCase())}${E}`, 'u').test(question);
  }
  return new RegExp(`${B}${escape(alias)}${E}`, 'u').test(lower);
}

/**
 * How well a document matches a named period, 0 when it does not: 1 by the document's own
 * (fiscal) reckoning, or by its fiscal quarter number in the calendar year the quarter ended
 * ("NVIDIA's Q3 2023" is read both ways: fiscal 2023's third quarter, ended October 2022, and
 * the third quarter it reported in 2023, fiscal 2024's), 0.7 by the calendar quarter its
 * period ended in. A question that says "fiscal" takes the fiscal reckoning
 * only, unless the document never states its fiscal period.
 */
export function periodMatchWeight(profile: DocumentProfile | null, p: QueryPeriod): number {
  if (!profile) return 0;
  const d = profile.period;
  const fiscal = d.fiscalYear === p.year && (p.quarter === null || d.fiscalQuarter === p.quarter);
  if (fiscal) return 1;
  if (p.fiscal && d.fiscalYear !== null) return 0;
  if (p.quarter !== null && d.fiscalQuarter === p.quarter && d.calendarYear === p.year) return 1;
  return d.calendarYear === p.year && (p.quarter === null || d.calendarQuarter === p.quarter) ? 0.7 : 0;
}

/** A document matches a named period by any reckoning of {@link periodMatchWeight}. */
export function periodMatches(profile: DocumentProfile | null, p: QueryPeriod): boolean {
  return periodMatchWeight(profile, p) > 0;
}

function formMatches(entry: DirectoryEntry, form: string): boolean {
  const f = form.toLowerCase();
  return (entry.profile?.form ?? '').toLowerCase() === f || entry.doc_type.toLowerCase() === f;
}

/**
 * Routes a question over the indexed documents:
 * - organisations: every document whose profile alias (name, short name, ticker) the question
 *   names; the longest alias wins an overlap ("3M Company" over "3M");
 * - period: {@link findQueryPeriod}, weighted by {@link periodMatchWeight} (the branch keeps the
 *   best-weighted tier); "latest" takes the newest period end of each organisation, and only
 *   prefers it (others × 0.6) when the question compares with earlier periods;
 * - form: {@link findQueryForm}.
 * Weights: the product of the form and period weights for documents matching them; documents of
 * a named organisation matching neither keep 0.4 (the period may be counted another way than the
 * question counts it); nothing named → no weights. `docIds` are the matching documents, best
 * first, empty when nothing was named.
 * A period or form no document of the named organisations matches is listed in `unmatched`
 * (the organisation's documents stay the branch; the validator will not confirm an answer).
 */
export function routeQuery(question: string, directory: readonly DirectoryEntry[]): QueryScope {
  const text = question.normalize('NFKC');
  const lower = text.toLowerCase();
  const byOrg = new Map<string, { name: string; alias: string; docIds: string[] }>();
  for (const entry of directory) {
    for (const org of entry.profile?.organisations ?? []) {
      const hit = org.aliases.filter((a) => mentions(text, lower, a)).sort((a, b) => b.length - a.length)[0];
      if (!hit) continue;
      const key = org.aliases[org.aliases.length > 1 ? 1 : 0] ?? org.name.toLowerCase();
      const found = byOrg.get(key) ?? { name: org.name, alias: hit, docIds: [] };
      if (hit.length > found.alias.length) found.alias = hit;
      if (!found.docIds.includes(entry.doc_id)) found.docIds.push(entry.doc_id);
      byOrg.set(key, found);
    }
  }
  // An alias inside a longer matched one ("3m" inside "3m company") is not a second organisation.
  const organisations = [...byOrg.values()].filter((o, _i, all) => !all.some((x) => x !== o && x.alias.length > o.alias.length && x.alias.includes(o.alias)));
  const period = findQueryPeriod(text);
  const latest = LATEST.test(text);
  const form = findQueryForm(text);

  let pool = organisations.length > 0 ? directory.filter((d) => organisations.some((o) => o.docIds.includes(d.doc_id))) : [...directory];
  const named = organisations.length > 0 || period !== null || latest || form !== null;
  const docWeights: Record<string, number> = {};
  const reasons: string[] = organisations.map((o) => `organisation ${o.name} (${o.alias})`);
  const unmatched: string[] = [];
  if (!named || directory.length === 0) return { organisations, period, latest, form, docWeights, docIds: [], unmatched, ambiguousPeriod: false, reason: 'no organisation, period or form named' };

  // Weight per document of the pool: the form and the period multiply, "latest" prefers the newest.
  const weight = new Map<string, number>(pool.map((d) => [d.doc_id, 1]));
  const scale = (d: DirectoryEntry, w: number): void => void weight.set(d.doc_id, (weight.get(d.doc_id) ?? 0) * w);
  if (form) {
    const f = pool.filter((d) => formMatches(d, form));
    if (f.length === 0) unmatched.push(`form ${form}`);
    else for (const d of pool) if (!f.includes(d)) scale(d, 0);
    reasons.push(`form ${form}: ${f.length}`);
  }
  if (period) {
    const matched = pool.filter((d) => (weight.get(d.doc_id) ?? 0) > 0 && periodMatchWeight(d.profile, period) > 0);
    if (matched.length === 0) unmatched.push(`period ${period.phrase}`);
    else for (const d of pool) scale(d, periodMatchWeight(d.profile, period));
    reasons.push(`period ${period.phrase}: ${matched.length}`);
  } else if (latest) {
    // The newest per organisation ("Apple's and Intel's latest 10-Q" means one of each) is
    // preferred, the others stay in the branch: "the latest quarter compared with the previous ones".
    const groups = organisations.length > 0 ? organisations.map((o) => pool.filter((d) => o.docIds.includes(d.doc_id))) : [pool];
    const comparing = COMPARING.test(text);
    for (const g of groups) {
      const top = g.map((d) => d.profile?.period.end ?? '').sort().pop() ?? '';
      for (const d of g) if (top && d.profile?.period.end !== top) scale(d, comparing ? 0.6 : 0);
    }
    reasons.push(comparing ? 'latest, compared with earlier periods' : 'latest');
  }
  const matching = pool.filter((d) => (weight.get(d.doc_id) ?? 0) > 0);
  // Only a period or a form, matching every document or none: nothing to route by.
  if (organisations.length === 0 && (matching.length === directory.length || unmatched.length > 0)) {
    return { organisations, period, latest, form, docWeights, docIds: [], unmatched: [], ambiguousPeriod: false, reason: `${reasons.join('; ')}; matches every document or none` };
  }
  if (organisations.length === 0) pool = matching;
  // The branch holds the best-matching tier (the period by the documents' own reckoning before
  // another); a "latest … compared with previous quarters" keeps every matching document.
  // Tiers are per organisation: "Q3 2023" over several companies keeps each one's best match.
  const orgOf = (d: DirectoryEntry): string => d.profile?.organisations[0]?.name ?? d.doc_id;
  const top = new Map<string, number>();
  for (const d of matching) top.set(orgOf(d), Math.max(top.get(orgOf(d)) ?? 0, weight.get(d.doc_id) ?? 0));
  const best = unmatched.length > 0 ? pool : period ? matching.filter((d) => (weight.get(d.doc_id) ?? 0) === top.get(orgOf(d))) : matching;
  // Documents of the organisation that match nothing else named keep a small prior.
  for (const d of pool) docWeights[d.doc_id] = Math.max(0.4, unmatched.length > 0 ? 0.4 : (weight.get(d.doc_id) ?? 0));
  best.sort((a, b) => (docWeights[b.doc_id] ?? 0) - (docWeights[a.doc_id] ?? 0) || (a.doc_id < b.doc_id ? -1 : 1));
  // Ambiguous: some organisation has more than one document matching the period, by different reckonings.
  const ambiguousPeriod = period !== null && !period.fiscal && [...top.keys()].some((org) => matching.filter((d) => orgOf(d) === org).length > 1);
  if (ambiguousPeriod) reasons.push('period ambiguous between fiscal and calendar reckonings');
  return { organisations, period, latest, form, docWeights, docIds: best.map((d) => d.doc_id), unmatched, ambiguousPeriod, reason: reasons.join('; ') };
}

/**
 * The qualifier of an answer about a period: the period the cited document reports on
 * ("for the period ended 2023-07-01 (Apple Inc. · 10-Q · fiscal 2023 Q3)"), or null when the
 * document has no period end. Korean: "2023년 7월 1일 종료 기간 기준 (…)".
 */
export function periodQualifier(profile: DocumentProfile | null | undefined, lang: string): string | null {
  const end = profile?.period.end;
  if (!profile || !end) return null;
  const what = profile.form === 'law' || profile.form === 'policy' || profile.form === 'standard' || profile.form === null;
  const label = profile.label.split(' · ').filter((p) => !/^(?:period ended|effective|calendar)\s/.test(p)).join(' · ');
  const tail = label ? ` (${label})` : '';
  if (lang === 'ko') {
    const [y, m, d] = end.split('-').map(Number);
    return what ? `${y}년 ${m}월 ${d}일 시행본 기준${tail}` : `${y}년 ${m}월 ${d}일 종료 기간 기준${tail}`;
  }
  return what ? `as of the edition effective ${end}${tail}` : `for the period ended ${end}${tail}`;
}
