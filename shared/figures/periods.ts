/**
 * Periods as statements print them in column headers ("Three Months Ended / July 1, 2023",
 * "Nine Months Ended September 30, 2023", "December 31, 2022", "Fiscal 2023", "Q3 2023") and as
 * questions ask for them ("in the quarter ended July 1, 2023", "for the first nine months of
 * fiscal 2023", "as of December 31, 2022", "in Q3 2023"). Pure.
 */

/** What a period says; every part may be unknown. */
export interface PeriodFacts {
  /** Last day, YYYY-MM-DD. */
  endDate: string | null;
  /** Length in months (3 a quarter, 6, 9, 12 a year); null for a point in time or unknown. */
  months: number | null;
  /** A year named on its own ("2023", "fiscal 2023", "FY23"). */
  year: number | null;
  /** A quarter named (1–4). */
  quarter: number | null;
}

/** A month by the first three letters of its name. */
const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE = new RegExp(`\\b${MONTH}\\s+(\\d{1,2}),?\\s+(\\d{4})\\b`, 'iu');
const ISO = /\b(\d{4})-(\d{2})-(\d{2})\b/u;
const LENGTH_WORDS: Record<string, number> = { three: 3, '3': 3, six: 6, '6': 6, nine: 9, '9': 9, twelve: 12, '12': 12 };
const LENGTH = /\b(three|six|nine|twelve|3|6|9|12)[\s-]+months?\b/iu;
const QUARTER = /\b(?:q([1-4])|([1-4])q|(first|second|third|fourth)\s+(?:fiscal\s+)?quarter)\b/iu;
const ORDINAL: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4 };
const YEAR = /\b(?:fy|fiscal(?:\s+year)?|year)?\s*'?((?:19|20)\d{2})\b|\bfy\s*'?(\d{2})\b/iu;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** The first date the text names, as YYYY-MM-DD. */
export function dateIn(text: string): string | null {
  const iso = ISO.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const m = DATE.exec(text);
  if (!m) return null;
  const month = MONTHS[(m[1] ?? '').toLowerCase().slice(0, 3)];
  if (!month) return null;
  return `${m[3]}-${pad(month)}-${pad(Number(m[2]))}`;
}

/**
 * The header a cell's period is read from: its column's, or — when that names no date — the date
 * heading its row is printed under (a note's "June 30, 2022" block, under a "Recorded Basis"
 * column). A column naming a length only ("Three Months Ended") takes the heading's date.
 */
export function periodHeader(column: string, parents: readonly string[]): string {
  if (dateIn(column) !== null) return column;
  const dated = parents.find((p) => dateIn(p) !== null)?.replace(/[:：]\s*$/u, '').trim();
  if (dated === undefined) return column;
  return lengthIn(column) !== null && lengthIn(dated) === null ? `${column} ${dated}` : dated;
}

/**
 * The periods of a row's cells: the columns' own (`plain`, read once per table), or — under a
 * date heading — each column's read with it ({@link periodHeader}).
 */
export function rowPeriods(columns: readonly string[], parents: readonly string[], plain: readonly PeriodFacts[]): readonly PeriodFacts[] {
  return parents.some((p) => dateIn(p) !== null) ? columns.map((h) => periodFacts(periodHeader(h, parents))) : plain;
}

/**
 * How long a period the text names, when it says so outright: 3, 6, 9 or 12 for "three / six /
 * nine / twelve months" and "quarter ended", 12 for a year ("year ended", "fiscal year", "annual").
 * A quarter named by its number ("Q3", "third quarter") or "the latest quarter" says no length:
 * a 10-Q's cash flows are printed for the year to date only, and they are what it reports for Q3.
 */
export function lengthIn(text: string): number | null {
  const t = text.toLowerCase();
  const len = LENGTH.exec(t);
  if (len) return LENGTH_WORDS[(len[1] ?? '').toLowerCase()] ?? null;
  if (/\bquarters?\s+ended\b/u.test(t)) return 3;
  if (/\b(?:(?:fiscal\s+)?years?\s+ended|fiscal\s+year|annual|twelve months|full[\s-]year)\b/u.test(t)) return 12;
  return null;
}

/** The facts of a period as a column header or a question says them. */
export function periodFacts(text: string): PeriodFacts {
  const endDate = dateIn(text);
  const q = QUARTER.exec(text);
  const quarter = q ? Number(q[1] ?? q[2] ?? ORDINAL[(q[3] ?? '').toLowerCase()]) || null : null;
  const y = YEAR.exec(text);
  const year = endDate ? Number(endDate.slice(0, 4)) : y ? (y[1] ? Number(y[1]) : 2000 + Number(y[2])) : null;
  return { endDate, months: lengthIn(text), year, quarter };
}

/** Days between two YYYY-MM-DD dates (absolute). */
export function daysApart(a: string, b: string): number {
  return Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;
}

/**
 * How well a column's period fits the one asked for, in [0, 1]; 0 when they contradict (another
 * end date, another length). `documentEnd` is the period end of the document the table is in:
 * a question naming a quarter or year but no date ("Q3 2023") is about that document's period, so
 * the column ending on it fits.
 */
export function periodFit(column: PeriodFacts, asked: PeriodFacts, documentEnd: string | null): number {
  // A column whose header says no period at all (one the extractor could not read) is taken to be
  // the document's own period, a quarter or a year: not the six or nine months a question asks for.
  const unread = column.endDate === null && column.months === null && column.year === null && column.quarter === null;
  if (unread && (asked.months === 6 || asked.months === 9)) return 0;
  let score = 0.5;
  const askedEnd = asked.endDate ?? (asked.quarter !== null || asked.year !== null ? documentEnd : null);
  if (askedEnd && column.endDate) {
    // Fiscal periods end on a weekday near the month's end: a few days apart is the same period.
    if (daysApart(askedEnd, column.endDate) > 7) return 0;
    score += 0.3;
  } else if (asked.year !== null && column.year !== null) {
    if (asked.year !== column.year) return 0;
    score += 0.15;
  }
  if (asked.months !== null && column.months !== null) {
    if (asked.months !== column.months) return 0;
    score += 0.2;
  } else if (asked.months === null && column.months !== null) {
    // Unsaid: the shortest period (the quarter of a 10-Q) is what "what was X in Q3" means.
    score += column.months <= 3 ? 0.1 : 0;
  }
  return Math.min(1, score);
}
