/**
 * The reporting periods and document kinds a question names (issues 13, 29): quarters and years,
 * fiscal or not, every year of a span ("FY2017–FY2019", "between FY2022 and FY2023"), a period
 * given by its end ("the fiscal year ended June 30, 2023"), "latest", and forms. Pure.
 */
import { parseDate } from '../enrich/index.ts';

/** A period a question names: a year, optionally a quarter, fiscal when it said so. */
export interface QueryPeriod {
  /** The phrase as written ("Q3 2023", "fiscal 2018", "2023년 3분기"). */
  phrase: string;
  year: number;
  quarter: number | null;
  /** The question said "fiscal"/"FY"/"회계연도". */
  fiscal: boolean;
  /** The period's last day when the question gave it ("the year ended December 31, 2022"), else absent. */
  end?: string;
}

const ORDINALS: Readonly<Record<string, number>> = { first: 1, second: 2, third: 3, fourth: 4, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4 };
const ORD = '(first|second|third|fourth|1st|2nd|3rd|4th)';
const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';
const MONTH = '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';

function yearOf(s: string): number {
  const n = Number(s);
  return s.length === 2 ? 2000 + n : n;
}

type Read = (m: RegExpExecArray) => Omit<QueryPeriod, 'phrase'> | null;

/** Period phrases, most specific first; each yields year, quarter and whether it said fiscal. */
const PERIOD_RULES: ReadonlyArray<{ re: RegExp; read: Read }> = [
  {
    // "the fiscal year ended June 30, 2023", "the quarter ended October 1, 2022": the end itself.
    re: new RegExp(`${B}(fiscal\\s+)?(year|quarter|three\\s+months|quarterly\\s+period)\\s+end(?:ed|ing)\\s+(${MONTH}\\.?\\s+\\d{1,2},?\\s+\\d{4})${E}`, 'giu'),
    read: (m) => {
      const end = parseDate((m[3] ?? '').replace(/\s+/g, ' '));
      return end ? { year: Number(end.slice(0, 4)), quarter: null, fiscal: Boolean(m[1]), end } : null;
    },
  },
  { re: new RegExp(`${B}${ORD}[-\\s]+(?:fiscal\\s+)?quarter\\s+(?:of\\s+)?(fiscal\\s+(?:year\\s+)?)?(?:FY\\s?)?(\\d{4})${E}`, 'giu'), read: (m) => ({ year: yearOf(m[3] ?? ''), quarter: ORDINALS[(m[1] ?? '').toLowerCase()] ?? null, fiscal: Boolean(m[2]) || /fiscal|FY/i.test(m[0]) }) },
  { re: new RegExp(`${B}Q([1-4])\\s*(?:of\\s+)?(FY|fiscal(?:\\s+year)?)?\\s*'?(\\d{4}|\\d{2})${E}`, 'giu'), read: (m) => ({ year: yearOf(m[3] ?? ''), quarter: Number(m[1]), fiscal: Boolean(m[2]) }) },
  { re: new RegExp(`${B}(FY|fiscal(?:\\s+year)?\\s+)?(\\d{4})\\s*Q([1-4])${E}`, 'giu'), read: (m) => ({ year: yearOf(m[2] ?? ''), quarter: Number(m[3]), fiscal: Boolean(m[1]) }) },
  // "3Q23", "3Q 2023", "3QFY24": how releases and their files name a quarter.
  { re: new RegExp(`${B}([1-4])Q\\s*(FY\\s?)?'?(\\d{4}|\\d{2})${E}`, 'giu'), read: (m) => ({ year: yearOf(m[3] ?? ''), quarter: Number(m[1]), fiscal: Boolean(m[2]) }) },
  { re: /(\d{4})\s*(회계)?\s*(?:년도?)?\s*제?\s*([1-4])\s*분기/gu, read: (m) => ({ year: Number(m[1]), quarter: Number(m[3]), fiscal: Boolean(m[2]) }) },
  { re: new RegExp(`${B}(?:FY\\s?'?(\\d{4}|\\d{2})|fiscal(?:\\s+year)?\\s+(\\d{4}))${E}`, 'giu'), read: (m) => ({ year: yearOf(m[1] ?? m[2] ?? ''), quarter: null, fiscal: true }) },
  // "the 2019 10-K" may be fiscal 2019's or the one filed in 2019: not said to be fiscal.
  { re: new RegExp(`${B}(\\d{4})\\s+(?:annual\\s+report|10-K|form\\s+10-K)${E}`, 'giu'), read: (m) => ({ year: Number(m[1]), quarter: null, fiscal: false }) },
  { re: /(\d{4})\s*회계\s*연도/gu, read: (m) => ({ year: Number(m[1]), quarter: null, fiscal: true }) },
  // Bare years count only in a span ("between 2021 and 2023", "from 2017 to 2019", "2017–2019").
  { re: new RegExp(`${B}(?:between|from)\\s+(?:(?:calendar\\s+)?years?\\s+)?(\\d{4})(?=\\s+(?:and|to|through|until)\\s+\\d{4}${E})`, 'giu'), read: (m) => ({ year: Number(m[1]), quarter: null, fiscal: false }) },
  { re: new RegExp(`(?<=${B}(?:between|from)\\s+(?:(?:calendar\\s+)?years?\\s+)?\\d{4}\\s+(?:and|to|through|until)\\s+)(\\d{4})${E}`, 'giu'), read: (m) => ({ year: Number(m[1]), quarter: null, fiscal: false }) },
  { re: new RegExp(`${B}(\\d{4})(?=\\s*[-–—]\\s*(?:\\d{4}|\\d{2})${E}(?![-/.]\\d))`, 'gu'), read: (m) => ({ year: Number(m[1]), quarter: null, fiscal: false }) },
  { re: new RegExp(`(?<=\\d{4}\\s*[-–—]\\s*)(\\d{4}|\\d{2})${E}(?![-/.]\\d)`, 'gu'), read: (m) => ({ year: yearOf(m[1] ?? ''), quarter: null, fiscal: false }) },
];

/** What joins two periods into a span whose years in between are meant too. */
const SPAN_JOIN = /^\s*(?:[-–—]|to|through|thru|until)\s*$/iu;
const SPAN_LEAD = /\b(?:between|from)\s+(?:(?:calendar\s+|fiscal\s+)?years?\s+)?$/iu;

interface Found {
  p: QueryPeriod;
  start: number;
  end: number;
}

/**
 * Every period a question names, in order ("Q3 2023", "third quarter of 2023", "FY2018", "fiscal
 * 2018", "2018 annual report", "2023년 3분기", "the year ended December 31, 2022"). A span names
 * every year in it ("FY2017–FY2019", "FY2017-2019", "between FY2022 and FY2023", "from 2017 to
 * 2019": at most ten), and "fiscal" said of one end of a span holds for all of it.
 */
export function findQueryPeriods(question: string): QueryPeriod[] {
  const text = question.normalize('NFKC');
  const all: Found[] = [];
  for (const rule of PERIOD_RULES) {
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(text); m !== null; m = rule.re.exec(text)) {
      const p = rule.read(m);
      if (p && p.year >= 1900 && p.year <= 2199) all.push({ p: { phrase: m[0].trim(), ...p }, start: m.index, end: m.index + m[0].length });
    }
  }
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const found: Found[] = [];
  for (const f of all) if (!found.some((g) => f.start < g.end && g.start < f.end)) found.push(f);
  const out: QueryPeriod[] = [];
  const push = (p: QueryPeriod): void => {
    if (!out.some((o) => o.year === p.year && o.quarter === p.quarter && o.end === p.end)) out.push(p);
  };
  for (let i = 0; i < found.length; i += 1) {
    const a = found[i] as Found;
    const b = found[i + 1];
    const between = b ? text.slice(a.end, b.start) : '';
    const joined = b && a.p.quarter === null && b.p.quarter === null && !a.p.end && !b.p.end && (SPAN_JOIN.test(between) || (/^\s*and\s*$/i.test(between) && (SPAN_LEAD.test(text.slice(0, a.start)) || /^(?:between|from)\b/i.test(a.p.phrase))));
    if (!b || !joined) {
      push(a.p);
      continue;
    }
    const fiscal = a.p.fiscal || b.p.fiscal;
    const [from, to] = a.p.year <= b.p.year ? [a.p.year, b.p.year] : [b.p.year, a.p.year];
    if (to - from <= 10) for (let y = from; y <= to; y += 1) push({ phrase: `${a.p.phrase}${between}${b.p.phrase}`.replace(/\s+/g, ' '), year: y, quarter: null, fiscal });
    i += 1;
  }
  return out;
}

/** The first period a question names, or null (see {@link findQueryPeriods}). */
export function findQueryPeriod(question: string): QueryPeriod | null {
  return findQueryPeriods(question)[0] ?? null;
}

/** "The latest quarter compared with the previous ones": the earlier periods are asked about too. */
export const COMPARING = /\b(?:previous|prior|preceding|earlier|past|other|last\s+(?:few|several|\d+))\s+(?:\w+\s+)?(?:quarters?|periods?|years?|filings?|reports?|10-qs?)\b|\b(?:previous|prior|earlier)\s+ones\b|\bover\s+time\b|\bacross\s+(?:the\s+)?(?:quarters|periods|years|filings)\b|\bquarter[-\s]over[-\s]quarter\b|\byear[-\s]over[-\s]year\b|이전\s*분기|전\s*분기|분기별/iu;

/** "latest", "most recent", "최근": the newest period among the matching documents. */
export const LATEST = /\b(?:latest|most\s+recent|newest|last\s+(?:reported\s+)?(?:quarter|10-q|10-k|filing|report))\b|최근|최신|가장\s*최근/iu;

/** The document kind a question names: SEC forms by number, quarterly and annual reports, earnings releases, call transcripts. */
export function findQueryForm(question: string): string | null {
  const m = /\b(10-K|10-Q|8-K|20-F|6-K)\b/i.exec(question);
  if (m?.[1]) return m[1].toUpperCase();
  if (/\bquarterly\s+(?:report|filing)\b|분기\s*보고서/iu.test(question)) return '10-Q';
  if (/\bannual\s+(?:report|filing)\b|사업\s*보고서/iu.test(question)) return '10-K';
  if (/\b(?:earnings|press|news)\s+release\b/iu.test(question)) return 'earnings release';
  if (/\b(?:earnings|conference)\s+call\b|\btranscript\b/iu.test(question)) return 'transcript';
  return null;
}

/** Kinds of document that answer for one another: a "10-K" question is answered by an annual report, a 20-F… */
const FORM_FAMILIES: ReadonlyArray<readonly string[]> = [
  ['10-k', 'annual report', '20-f', '40-f', '10-k405'],
  ['10-q', 'quarterly report', '6-k'],
  ['8-k', 'press release', 'earnings release', 'news release'],
  ['transcript', 'earnings call'],
];

/** Whether a document of kind `docForm` answers a question naming `asked` (same kind or the same family). */
export function formsMatch(docForm: string, asked: string): boolean {
  const d = docForm.toLowerCase();
  const a = asked.toLowerCase();
  return d === a || FORM_FAMILIES.some((f) => f.includes(d) && f.includes(a));
}
