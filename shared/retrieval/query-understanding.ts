/**
 * The agent's listener (seed 000 §7): normalise the question, detect its language, find the
 * date it asks about ("as of …", "… 기준") and light entities. Pure: `today` is injected.
 */
import { IsoDate } from '../domain/index.ts';
import { isoDate, parseDate, extractEntities, detectLang } from '../enrich/index.ts';
import { PermanentError } from '../errors.ts';
import { spelledOutAbbreviations } from './abbreviations.ts';
import { limitSearchWords } from './limit-words.ts';

/** How much of a date the question gave: a day, a month or a year. */
export type DatePrecision = 'day' | 'month' | 'year';

/** One date phrase found in a question. */
export interface DateMention {
  /** The phrase as written (in the normalised question), e.g. "as of March 1, 2024". */
  phrase: string;
  /** The YYYY-MM-DD it resolves to (see {@link understandQuery} for months and years). */
  date: string;
  precision: DatePrecision;
}

/** What the listener understood. */
export interface UnderstoodQuery {
  /** The question, NFKC-normalised, control characters removed, whitespace folded; case kept. */
  normalised: string;
  /** ISO 639-1 code of the question (`detectLang`), `und` when it has no letters. */
  lang: string;
  /** The date the question asks about (first date phrase), or null when it names none. */
  asOf: string | null;
  /** Precision of `asOf`, null with it. */
  asOfPrecision: DatePrecision | null;
  /** Every date phrase, in order (a comparison may name two). */
  dates: DateMention[];
  /** Phrases that looked like dates but are not real ones ("as of February 30, 2024"); kept in `stripped`. */
  invalidDates: string[];
  /** The question without its date phrases: what to search for. */
  stripped: string;
  /** Entities of `stripped` with their spacing variants ("출산 장려금", "출산장려금"). */
  entities: string[];
}

/** Options of {@link understandQuery}. */
export interface UnderstandOptions {
  /** Today's date, YYYY-MM-DD, in the deployment's time zone (injected: no clock here). */
  today: string;
  /**
   * Most entities kept, variants included.
   * @defaultValue 24
   */
  maxEntities?: number;
}

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
};
const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const YEAR = '(?:19|20|21)\\d{2}';

/** English day dates: ISO, slashed or dotted year-first, "March 1, 2024", "1 March 2024", "1st of March 2024". */
const EN_DAY = [
  `${YEAR}-\\d{1,2}-\\d{1,2}`,
  `${YEAR}/\\d{1,2}/\\d{1,2}`,
  `${YEAR}\\.\\s?\\d{1,2}\\.\\s?\\d{1,2}\\.?`,
  `${MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+${YEAR}`,
  `\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\.?,?\\s+${YEAR}`,
].join('|');
const EN_MONTH = `${MONTH}\\.?,?\\s+${YEAR}|${YEAR}-\\d{1,2}(?![\\d-])`;
const EN_DAY_TRIGGER = '(?:as\\s+(?:of|at|on)|(?:in\\s+effect|in\\s+force|effective|valid|applicable)(?:\\s+(?:on|as\\s+of|at))?|on)';
const EN_PERIOD_TRIGGER = '(?:as\\s+(?:of|at)|(?:in\\s+effect|in\\s+force|effective|valid|applicable)(?:\\s+(?:in|as\\s+of|during))?|in|during)';

/** Korean dates: "2024년 3월 1일", "2024. 3. 1.", ISO; months "2024년 3월", "2024. 3."; years "2024년(도)". */
const KO_DAY = `${YEAR}\\s*년\\s*\\d{1,2}\\s*월\\s*\\d{1,2}\\s*일|${YEAR}\\s*\\.\\s*\\d{1,2}\\s*\\.\\s*\\d{1,2}\\s*\\.?|${YEAR}-\\d{1,2}-\\d{1,2}|${YEAR}/\\d{1,2}/\\d{1,2}`;
const KO_MONTH = `${YEAR}\\s*년\\s*\\d{1,2}\\s*월|${YEAR}\\s*\\.\\s*\\d{1,2}\\s*\\.?|${YEAR}-\\d{1,2}(?![\\d-])`;
const KO_YEAR = `${YEAR}\\s*년(?:도)?`;
/** What makes a Korean date an "as of": 기준, 현재, 당시, 시점, 자, or a locative 에 — with any particle after. */
const KO_SUFFIX = '\\s*(?:기준(?:일)?|현재|당시|시점|자(?=\\s|$|로)|에(?=\\s|$|는))(?:으로는|으로|에서|에는|의|로|에|는)?';
/** Particles a relative date word may carry ("현재는", "올해의", "작년에"). */
const KO_PARTICLE = '(?:으로는|으로|에서|에는|의|은|는|로|에)?';

type Resolver = (m: RegExpExecArray, today: string) => { date: string | null; precision: DatePrecision };

interface DateRule {
  re: RegExp;
  resolve: Resolver;
}

function lastDayOfMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * A month or a year as one date: `today` when the period contains today (the question is about
 * now, and later days of the period are not known yet), otherwise the period's last day — the
 * state at its end, after every change that took effect during it. "2024년 기준 재택근무 지침" so
 * finds the guideline that took effect on 2024-03-01, which the period's first day would miss.
 */
export function resolvePeriod(year: number, month: number | null, today: string): string | null {
  const first = isoDate(year, month ?? 1, 1);
  const last = isoDate(year, month ?? 12, lastDayOfMonth(year, month ?? 12));
  if (first === null || last === null) return null;
  return first <= today && today <= last ? today : last;
}

const day: Resolver = (m) => ({ date: parseDate((m[1] ?? '').replace(/\s+of\s+/i, ' ')), precision: 'day' });

const month: Resolver = (m, today) => {
  const t = (m[1] ?? '').trim();
  const ko = /^(\d{4})\s*(?:년|\.|-)\s*(\d{1,2})/.exec(t);
  if (ko) return { date: resolvePeriod(Number(ko[1]), Number(ko[2]), today), precision: 'month' };
  const en = new RegExp(`^(${MONTH})\\.?,?\\s+(\\d{4})$`, 'i').exec(t);
  const mm = en ? (MONTHS[(en[1] ?? '').slice(0, 3).toLowerCase()] ?? 0) : 0;
  return { date: en ? resolvePeriod(Number(en[2]), mm, today) : null, precision: 'month' };
};

const year: Resolver = (m, today) => ({ date: resolvePeriod(Number(/\d{4}/.exec(m[1] ?? '')?.[0]), null, today), precision: 'year' });

function thisYear(today: string): number {
  return Number(today.slice(0, 4));
}

const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';

function rx(source: string): RegExp {
  return new RegExp(source, 'giu');
}

/** Longest, most specific rules first; overlaps are resolved by position and length anyway. */
const RULES: readonly DateRule[] = [
  { re: rx(`${B}${EN_DAY_TRIGGER}\\s+(?:the\\s+)?(${EN_DAY})${E}`), resolve: day },
  { re: rx(`${B}${EN_PERIOD_TRIGGER}\\s+(${EN_MONTH})${E}`), resolve: month },
  { re: rx(`${B}${EN_PERIOD_TRIGGER}\\s+(?:the\\s+year\\s+)?(${YEAR})${E}(?!\\s*(?:년|[-/.]\\s*\\d))`), resolve: year },
  { re: rx(`${B}(?:as\\s+(?:of|at)\\s+|(?:in\\s+effect|in\\s+force|valid|applicable)\\s+)?(?:today|right\\s+now|at\\s+present|presently|currently)(?:\\s+(?:in\\s+effect|in\\s+force|valid|applicable))?${E}|${B}as\\s+(?:of|at)\\s+now${E}|${B}(?:in\\s+effect|in\\s+force)\\s+now${E}`), resolve: (_m, today) => ({ date: today, precision: 'day' }) },
  { re: rx(`${B}(?:as\\s+of\\s+|in\\s+|during\\s+)?this\\s+year${E}`), resolve: (_m, today) => ({ date: today, precision: 'year' }) },
  { re: rx(`${B}(?:as\\s+of\\s+|in\\s+|during\\s+)?last\\s+year${E}`), resolve: (_m, today) => ({ date: resolvePeriod(thisYear(today) - 1, null, today), precision: 'year' }) },
  { re: rx(`(?<!\\d)(${KO_DAY})${KO_SUFFIX}`), resolve: day },
  { re: rx(`(?<!\\d)(${KO_MONTH})${KO_SUFFIX}`), resolve: month },
  { re: rx(`(?<!\\d)(${KO_YEAR})${KO_SUFFIX}`), resolve: year },
  { re: rx(`${B}(?:오늘|현재|지금)(?:\\s*(?:기준|시점))?${KO_PARTICLE}${E}`), resolve: (_m, today) => ({ date: today, precision: 'day' }) },
  { re: rx(`${B}(?:올해|금년|이번\\s*해)(?:도)?(?:\\s*기준)?${KO_PARTICLE}${E}`), resolve: (_m, today) => ({ date: today, precision: 'year' }) },
  { re: rx(`${B}(?:작년|지난해|전년)(?:도)?(?:\\s*기준)?${KO_PARTICLE}${E}`), resolve: (_m, today) => ({ date: resolvePeriod(thisYear(today) - 1, null, today), precision: 'year' }) },
];

/** NFKC, no control characters, whitespace folded and trimmed. Case is kept (entities need it). */
export function normaliseQuery(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

interface Found extends DateMention {
  start: number;
  end: number;
}

/** Date phrases of a normalised question: non-overlapping, earliest first, the longer one winning a tie. */
export function findDateMentions(text: string, today: string): { found: DateMention[]; invalid: string[]; spans: Array<[number, number]> } {
  const all: Array<Found | (Omit<Found, 'date'> & { date: null })> = [];
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(text); m !== null; m = rule.re.exec(text)) {
      const { date, precision } = rule.resolve(m, today);
      all.push({ phrase: m[0].trim(), date, precision, start: m.index, end: m.index + m[0].length });
    }
  }
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const found: DateMention[] = [];
  const invalid: string[] = [];
  const spans: Array<[number, number]> = [];
  let covered = -1;
  for (const f of all) {
    if (f.start < covered) continue;
    covered = f.end;
    if (f.date === null) invalid.push(f.phrase);
    else {
      found.push({ phrase: f.phrase, date: f.date, precision: f.precision });
      spans.push([f.start, f.end]);
    }
  }
  return { found, invalid, spans };
}

/** `text` without `spans`, tidied: no doubled spaces, no space before punctuation, no dangling commas. */
function cut(text: string, spans: ReadonlyArray<[number, number]>): string {
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += `${text.slice(at, start)} `;
    at = end;
  }
  out += text.slice(at);
  return out
    .replace(/\(\s*\)/g, ' ')
    .replace(/\s+([,.?!;:)])/g, '$1')
    .replace(/([(])\s+/g, '$1')
    .replace(/,\s*(?=[,.?!;:]|$)/g, '')
    .replace(/^[\s,;:]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Understands a question: normalised text, language, the date it asks about, light entities and
 * the question without its date phrase.
 *
 * Dates (only real calendar dates between 1900 and 2199 count; "February 30" is reported in
 * `invalidDates` and left in the text):
 * - English: "as of March 1, 2024", "as of 2024-03-01", "on 1 March 2024", "in effect on …",
 *   "effective …", "valid on …"; months and years after "as of", "in", "during", "in effect in"
 *   ("as of March 2024", "in 2024"); "as of today/now", "today", "currently", "this/last year".
 * - Korean: "2024년 3월 1일 기준", "2024. 3. 1. 기준", "2024-03-01 현재", "… 당시/시점/자/에";
 *   "2024년 3월 기준", "2024년(도) 기준"; "오늘/현재/지금 (기준)", "올해", "작년/지난해".
 * - A month or a year resolves by {@link resolvePeriod}: today when it contains today, else its
 *   last day ("2024년 기준" → 2024-12-31 when asked in 2025). `asOfPrecision` says which it was,
 *   so a validator can RELAX to the period's start if the clamp finds nothing.
 *
 * @throws PermanentError `INVALID_PAYLOAD` when `today` is not a real YYYY-MM-DD date.
 */
export function understandQuery(text: string, options: UnderstandOptions): UnderstoodQuery {
  const { today } = options;
  if (!IsoDate.safeParse(today).success) throw new PermanentError('INVALID_PAYLOAD', `today must be YYYY-MM-DD, got ${JSON.stringify(today)}`);
  const normalised = normaliseQuery(text);
  const { found, invalid, spans } = findDateMentions(normalised, today);
  const stripped = cut(normalised, spans);
  const first = found[0];
  return {
    normalised,
    lang: detectLang(stripped !== '' ? stripped : normalised),
    asOf: first?.date ?? null,
    asOfPrecision: first?.precision ?? null,
    dates: found,
    invalidDates: invalid,
    stripped,
    entities: stripped === '' ? [] : extractEntities(stripped, { maxEntities: options.maxEntities ?? 24 }),
  };
}

/**
 * Keyword-side text for candidate_search: the stripped question plus the spacing variants of its
 * Korean entities that it does not already spell ("출산장려금" gains "출산 장려금" and vice versa),
 * so BM25 sees both spellings whichever one was typed (seed 000 §9.6), the spelled-out forms
 * of its abbreviations ("R&D" gains "research and development"; {@link spelledOutAbbreviations})
 * and the words rules state an asked limit with ("maximum" gains "exceed"; {@link limitSearchWords}).
 * Latin variants are left out: BM25 tokenises them alike anyway. Returns `stripped` itself when
 * there is nothing to add.
 */
export function keywordSearchText(query: Pick<UnderstoodQuery, 'stripped' | 'entities'>): string {
  const have = query.stripped.replace(/\s+/g, ' ');
  const compact = have.replace(/\s+/g, '');
  const extra: string[] = [];
  for (const e of query.entities) {
    if (!/[\uAC00-\uD7A3]/.test(e) || !compact.includes(e.replace(/\s+/g, ''))) continue;
    if (!have.includes(e) && !extra.includes(e)) extra.push(e);
  }
  // "R&D", "capex", "CFO": reports print them spelled out; a maximum is a rule's "MUST NOT exceed".
  extra.push(...spelledOutAbbreviations(have), ...limitSearchWords(have));
  return extra.length === 0 ? query.stripped : `${query.stripped} ${extra.join(' ')}`;
}
