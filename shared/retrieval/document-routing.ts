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

/** A document matches a named period by its fiscal or its calendar reckoning. */
export function periodMatches(profile: DocumentProfile | null, p: QueryPeriod): boolean {
  if (!profile) return false;
  const d = profile.period;
  const fiscal = d.fiscalYear === p.year && (p.quarter === null || d.fiscalQuarter === p.quarter);
  const calendar = d.calendarYear === p.year && (p.quarter === null || d.calendarQuarter === p.quarter);
  // "fiscal 2023" prefers the fiscal reckoning, but a document that never states its fiscal year is judged by its dates.
  return p.fiscal && d.fiscalYear !== null ? fiscal : fiscal || calendar;
}

function formMatches(entry: DirectoryEntry, form: string): boolean {
  const f = form.toLowerCase();
  return (entry.profile?.form ?? '').toLowerCase() === f || entry.doc_type.toLowerCase() === f;
}

/**
 * Routes a question over the indexed documents:
 * - organisations: every document whose profile alias (name, short name, ticker) the question
 *   names; the longest alias wins an overlap ("3M Company" over "3M");
 * - period: {@link findQueryPeriod}, matched by fiscal or calendar year/quarter; "latest" picks
 *   the newest period end among the candidates;
 * - form: {@link findQueryForm}.
 * Weights: a document matching every named part 1; matching the organisation but not the period
 * or form 0.4 (the period may be counted another way than the question counts it); nothing
 * named → no weights. `docIds` are the best-weighted documents, empty when nothing was named.
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
  if (!named || directory.length === 0) return { organisations, period, latest, form, docWeights, docIds: [], reason: 'no organisation, period or form named' };

  let best = pool;
  if (form) {
    const f = best.filter((d) => formMatches(d, form));
    if (f.length > 0) best = f;
    reasons.push(`form ${form}: ${f.length}`);
  }
  if (period) {
    const p = best.filter((d) => periodMatches(d.profile, period));
    if (p.length > 0) best = p;
    reasons.push(`period ${period.phrase}: ${p.length}`);
  } else if (latest) {
    // The newest per organisation: "Apple's and Intel's latest 10-Q" means one of each.
    const groups = organisations.length > 0 ? organisations.map((o) => best.filter((d) => o.docIds.includes(d.doc_id))) : [best];
    const newest = groups.flatMap((g) => {
      const top = g.map((d) => d.profile?.period.end ?? '').sort().pop() ?? '';
      return top ? g.filter((d) => d.profile?.period.end === top) : [];
    });
    if (newest.length > 0) best = newest;
    reasons.push(`latest: ${newest.length}`);
  }
  // Only a period or a form, matching every document: nothing to route by.
  if (organisations.length === 0 && best.length === directory.length) return { organisations, period, latest, form, docWeights, docIds: [], reason: `${reasons.join('; ')}; matches every document` };
  if (organisations.length === 0) pool = best;
  for (const d of pool) docWeights[d.doc_id] = 0.4;
  for (const d of best) docWeights[d.doc_id] = 1;
  return { organisations, period, latest, form, docWeights, docIds: best.map((d) => d.doc_id), reason: reasons.join('; ') };
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
