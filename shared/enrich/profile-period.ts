/**
 * How a report names its own period when its cover does not spell out the fiscal one (issue 29):
 * - a 10-Q's place in its fiscal year from the spans it reports ("nine months ended" → the third
 *   quarter), so a company whose year ends in June or September gets the right fiscal year;
 * - a 10-K's fiscal-year label: the one the text binds to the year-end date ("fiscal 2022 ended
 *   January 28, 2023"), else the one it uses most of the two that can name the year, else the
 *   calendar year the year ends in;
 * - the period a release or a call transcript names in its title ("Third Quarter 2023 Results",
 *   "Q3 FY24 Earnings Call") when no date says it.
 * Pure; nothing here knows a company.
 */

const ORDINAL: Readonly<Record<string, number>> = { first: 1, second: 2, third: 3, fourth: 4, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4 };
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function yearOf(s: string): number {
  return s.length === 2 ? 2000 + Number(s) : Number(s);
}

/** `iso` moved by `months` calendar months (the day kept, clipped to the month's end). */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** `iso` moved by `days` days. */
export function addDays(iso: string, days: number): string {
  const t = new Date(`${iso}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}

/**
 * The fiscal quarter a quarterly report covers, from the longest span it reports: "nine months
 * ended" (or 39 weeks) → 3, "six months ended" (26 weeks) → 2, only "three months ended" (13
 * weeks) → 1; null when it names none of them.
 */
export function quarterFromSpans(text: string): number | null {
  const count = (re: RegExp): number => text.match(re)?.length ?? 0;
  const nine = count(/\b(?:nine|9)\s+months\s+ended\b|\b(?:thirty-nine|39)\s+weeks\s+ended\b/gi);
  const six = count(/\b(?:six|6)\s+months\s+ended\b|\b(?:twenty-six|26)\s+weeks\s+ended\b/gi);
  const three = count(/\b(?:three|3)\s+months\s+ended\b|\b(?:thirteen|13)\s+weeks\s+ended\b/gi);
  if (nine === 0 && six === 0) return three > 0 ? 1 : null;
  return nine >= six ? 3 : 2;
}

/** The fiscal year a quarter ended on `end` belongs to when it is the year's `quarter`-th: the year the fiscal year ends in. */
export function fiscalYearOfQuarter(end: string, quarter: number): number {
  // A 52/53-week quarter ended on the 1st–7th belongs to the month before.
  const d = new Date(`${end}T00:00:00Z`);
  if (d.getUTCDate() <= 7) d.setUTCDate(0);
  const month = d.getUTCMonth() + (4 - quarter) * 3;
  return d.getUTCFullYear() + Math.floor(month / 12);
}

/** "January 28, 2023" as a pattern that also takes "Jan. 28, 2023" and "January 28 2023". */
function datePattern(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const name = MONTH_NAMES[m - 1] as string;
  return `${name.slice(0, 3)}(?:${name.slice(3)}|\\.)?\\s+${d},?\\s+${y}`;
}

/**
 * The label of the fiscal year that ended on `end`, as the document itself names it: a label
 * bound to the date ("fiscal 2022 ended January 28, 2023", "January 28, 2023 (“fiscal 2022”)"),
 * else the label it uses most among the calendar year the year ends in and — for a year ending in
 * the first half of a calendar year, which some companies name by the year it began — the year
 * before; else the calendar year it ends in.
 */
export function fiscalYearLabel(text: string, end: string): number {
  const d = new Date(`${end}T00:00:00Z`);
  if (d.getUTCDate() <= 7) d.setUTCDate(0);
  const y = d.getUTCFullYear();
  const candidates = d.getUTCMonth() < 6 ? [y, y - 1] : [y];
  const label = `(?:fiscal(?:\\s+year)?\\s*|FY\\s?'?)(\\d{4}|\\d{2})\\b`;
  const date = datePattern(end);
  const bound = [
    new RegExp(`${label}[^.;\\n]{0,30}?\\b(?:ended|ending|ends)\\s+${date}`, 'i'),
    new RegExp(`${date}\\s*[(,]\\s*(?:["“]|the\\s+)?${label}`, 'i'),
  ];
  for (const re of bound) {
    const m = re.exec(text);
    const year = m?.[1] ? yearOf(m[1]) : null;
    if (year !== null && candidates.includes(year)) return year;
  }
  const counts = new Map<number, number>();
  for (const m of text.matchAll(new RegExp(label, 'gi'))) {
    const year = yearOf(m[1] ?? '');
    if (candidates.includes(year)) counts.set(year, (counts.get(year) ?? 0) + 1);
  }
  const own = counts.get(y) ?? 0;
  const before = counts.get(y - 1) ?? 0;
  // The year before wins only clearly: a 10-K compares its year with the one before throughout.
  return candidates.length > 1 && before > 1.5 * own && before >= 3 ? y - 1 : y;
}

/**
 * The period a release or a transcript names in its title lines: "Third Quarter 2023 Results",
 * "second-quarter 2023", "Q3 FY24 Earnings Call", "fiscal 2023 fourth quarter", "Fourth Quarter
 * and Full Year 2022" (the quarter), "Full Year 2022 Results" (the year). Null without one.
 */
export function titlePeriod(lines: readonly string[]): { year: number; quarter: number | null } | null {
  const rules: ReadonlyArray<{ re: RegExp; read: (m: RegExpExecArray) => { year: number; quarter: number | null } }> = [
    { re: /\b(first|second|third|fourth|1st|2nd|3rd|4th)[-\s]+quarter(?:\s+(?:and\s+(?:full|fiscal)[-\s]+year|results))?(?:\s+(?:of\s+)?(?:fiscal(?:\s+year)?|FY)\s*'?)?\s*(\d{4}|(?<=FY\s?'?)\d{2})\b/i, read: (m) => ({ year: yearOf(m[2] ?? ''), quarter: ORDINAL[(m[1] ?? '').toLowerCase()] ?? null }) },
    { re: /\b(?:fiscal(?:\s+year)?|FY)\s*'?(\d{4}|\d{2})\s+(first|second|third|fourth)[-\s]+quarter\b/i, read: (m) => ({ year: yearOf(m[1] ?? ''), quarter: ORDINAL[(m[2] ?? '').toLowerCase()] ?? null }) },
    { re: /\b(\d{4})\s+(first|second|third|fourth)[-\s]+quarter\b/i, read: (m) => ({ year: Number(m[1]), quarter: ORDINAL[(m[2] ?? '').toLowerCase()] ?? null }) },
    { re: /\bQ([1-4])\s*(?:FY|fiscal\s+(?:year\s+)?)?\s*'?(\d{4}|\d{2})\b/i, read: (m) => ({ year: yearOf(m[2] ?? ''), quarter: Number(m[1]) }) },
    { re: /\b(?:FY|fiscal(?:\s+year)?)\s*'?(\d{4}|\d{2})\s*Q([1-4])\b/i, read: (m) => ({ year: yearOf(m[1] ?? ''), quarter: Number(m[2]) }) },
    { re: /\b(?:full[-\s]+year|fiscal(?:\s+year)?|FY)\s*'?(\d{4})\s+(?:results|earnings|financial\s+results)\b/i, read: (m) => ({ year: Number(m[1]), quarter: null }) },
  ];
  for (const line of lines.slice(0, 20)) {
    for (const rule of rules) {
      const m = rule.re.exec(line);
      if (!m) continue;
      const p = rule.read(m);
      if (p.year >= 1990 && p.year <= 2199) return p;
    }
  }
  return null;
}
