/**
 * How well an indexed document's period matches a period a question names (issues 13, 29). A
 * quarter or a year is counted several ways, and a question may mean any of them:
 * - fiscal: as the company numbers its own periods ("fiscal 2023 Q1" of a June year end ended
 *   September 2022);
 * - filed: the n-th quarterly report the company files in a calendar year ("Q1 2023" as the
 *   first 10-Q of 2023: the quarter ended December 2022 for a June year end), a 10-K by the year
 *   it is filed in;
 * - calendar: the calendar quarter or year the period ended in.
 * Documents whose profile has no period at all compete on their content: a period check never
 * rules them out. Pure.
 */
import type { DocumentPeriod, DocumentProfile } from '../domain/index.ts';
import { addDays, addMonths, fiscalYearOfQuarter, bareName, fileTitle } from '../enrich/index.ts';
import { findQueryPeriods, type QueryPeriod } from './query-periods.ts';
import { createLru } from '../lru.ts';

/** Weight of a document without any period against a named period: it may be the one. */
export const PERIODLESS_WEIGHT = 0.6;

/** Days after its period end a quarterly report is filed (10-Q: 40–45 days). */
const QUARTERLY_FILING_DAYS = 40;
/** Days after its year end an annual report is filed (10-K: 60–90 days). */
const ANNUAL_FILING_DAYS = 75;

/** Whether a profile says anything about a period (an end, a fiscal or calendar year). */
export function hasPeriod(profile: DocumentProfile | null): boolean {
  const d = profile?.period;
  return Boolean(d && (d.end !== null || d.fiscalYear !== null || d.calendarYear !== null));
}

/** A quarterly document: a fiscal or calendar quarter, or a quarterly form. */
export function isQuarterly(profile: DocumentProfile): boolean {
  return profile.period.fiscalQuarter !== null || profile.period.calendarQuarter !== null || /^(?:10-Q|6-K|quarterly report)$/i.test(profile.form ?? '');
}

function isTenQ(profile: DocumentProfile): boolean {
  return /^(?:10-Q|quarterly report)$/i.test(profile.form ?? '');
}

/**
 * The calendar year a quarterly report is filed in and its place among the company's quarterly
 * reports filed that year (1–3 for 10-Qs, which skip the quarter the 10-K reports; 1–4 for
 * releases), from its period end and fiscal quarter. Null without both.
 */
export function filedQuarter(profile: DocumentProfile): { year: number; quarter: number } | null {
  const { end, fiscalQuarter } = profile.period;
  if (!end || fiscalQuarter === null) return null;
  const own = addDays(end, QUARTERLY_FILING_DAYS);
  const year = Number(own.slice(0, 4));
  const skipFourth = isTenQ(profile);
  let quarter = 0;
  for (let k = -4; k <= 4; k += 1) {
    const fq = ((((fiscalQuarter - 1 + k) % 4) + 4) % 4) + 1;
    if (skipFourth && fq === 4) continue;
    const filed = addDays(addMonths(end, 3 * k), QUARTERLY_FILING_DAYS);
    if (Number(filed.slice(0, 4)) === year && filed <= own) quarter += 1;
  }
  return quarter > 0 ? { year, quarter } : null;
}

function daysBetween(a: string, b: string): number {
  return Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;
}

/** Weight of a match by some reckoning for a document whose file is named for another quarter. */
const NAMED_OTHERWISE_WEIGHT = 0.9;

const sourcePeriods = createLru<string, QueryPeriod | null>(4096);

/**
 * The quarter a document's file name says it reports on ("2023 Q3 MSFT.pdf", "AAPL_FY2023_Q1_10Q.pdf",
 * "2023-q3-nvda.pdf"), as a question would name it; null when the name names no quarter or
 * several periods. A person who names their files so counts quarters their way: a question asking
 * for "Q3 2023" means the file they named so, where Microsoft's fiscal Q3 2023 is another quarter.
 */
export function sourcePeriod(source: string | undefined): QueryPeriod | null {
  if (!source) return null;
  const cached = sourcePeriods.get(source);
  if (cached !== undefined) return cached;
  const name = fileTitle(decoded(source)).replace(/-+/gu, ' ');
  const found = findQueryPeriods(name);
  const named = found.length === 1 && found[0]?.quarter !== null ? (found[0] as QueryPeriod) : null;
  sourcePeriods.set(source, named);
  return named;
}

/** A file URL as written ("…/2023%20Q3%20MSFT.pdf" → "…/2023 Q3 MSFT.pdf"); a malformed escape leaves it as it is. */
function decoded(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** A file named for the quarter asked ("2023 Q3" for "Q3 2023"; "FY2023 Q1" only for a fiscal or unqualified Q1 2023). */
export function namedFor(named: QueryPeriod | null, p: QueryPeriod): boolean {
  return named !== null && p.quarter !== null && !p.end && named.year === p.year && named.quarter === p.quarter && (named.fiscal || !p.fiscal);
}

/**
 * How well a document matches a named period, 0 when it does not:
 * - a period given by its end: 1 for a document whose period ends within ten days of it (0.5 for
 *   a quarter when a year was asked);
 * - a year: 1 for the fiscal year's annual report, 0.8 for its quarterly ones, 0.7 for the
 *   calendar year (0.6 quarterly), 0.5 for the annual report filed in that year;
 * - a quarter: 1 by the fiscal reckoning or the filed one, 0.7 by the calendar quarter, 0.5 for
 *   the annual report of the fiscal year whose fourth quarter it is.
 * A question that says "fiscal" takes the fiscal reckoning only, unless the document never states
 * its fiscal period. A document without any period gets {@link PERIODLESS_WEIGHT}. A quarter asked
 * for: a document whose file is named for it ({@link sourcePeriod}) matches at 1 however its own
 * period reckons; one named for another quarter matches by the reckonings at 0.9 of their weight.
 */
export function periodMatchWeight(profile: DocumentProfile | null, p: QueryPeriod, named: QueryPeriod | null = null): number {
  if (namedFor(named, p)) return 1;
  const own = reckonedWeight(profile, p);
  return named !== null && p.quarter !== null ? own * NAMED_OTHERWISE_WEIGHT : own;
}

function reckonedWeight(profile: DocumentProfile | null, p: QueryPeriod): number {
  if (!profile || !hasPeriod(profile)) return PERIODLESS_WEIGHT;
  const d: DocumentPeriod = profile.period;
  const quarterly = isQuarterly(profile);
  if (p.end) {
    if (!d.end || daysBetween(d.end, p.end) > 10) return 0;
    return p.quarter === null && quarterly && /year/i.test(p.phrase) ? 0.5 : 1;
  }
  if (p.quarter === null) {
    if (d.fiscalYear === p.year) return quarterly ? 0.8 : 1;
    if (p.fiscal && d.fiscalYear !== null) return 0;
    if (d.calendarYear === p.year) return quarterly ? 0.6 : 0.7;
    if (!quarterly && d.end && Number(addDays(d.end, ANNUAL_FILING_DAYS).slice(0, 4)) === p.year) return 0.5;
    return 0;
  }
  if (d.fiscalYear === p.year && d.fiscalQuarter === p.quarter) return 1;
  const annualOfFourth = !quarterly && d.fiscalYear === p.year && p.quarter === 4 ? 0.5 : 0;
  if (p.fiscal && d.fiscalYear !== null) return annualOfFourth;
  const filed = quarterly ? filedQuarter(profile) : null;
  if (filed && filed.year === p.year && filed.quarter === p.quarter) return 1;
  if (quarterly && d.calendarYear === p.year && d.calendarQuarter === p.quarter) return 0.7;
  return annualOfFourth;
}

/** A document matches a named period by any reckoning of {@link periodMatchWeight}. */
export function periodMatches(profile: DocumentProfile | null, p: QueryPeriod): boolean {
  return periodMatchWeight(profile, p) > 0;
}

/** The month (1–12) a period ending on `end` belongs to: a 52/53-week period ended on the 1st–7th counts in the month before. */
function periodMonth(end: string): number {
  const d = new Date(`${end}T00:00:00Z`);
  if (d.getUTCDate() <= 7) d.setUTCDate(0);
  return d.getUTCMonth() + 1;
}

/** The key documents of one organisation share: its name without "The" and legal form. */
export function organisationKey(profile: DocumentProfile | null): string | null {
  const o = profile?.organisations[0];
  return o ? bareName(o.name) : null;
}

/**
 * Fills in the fiscal quarter and year of quarterly documents that do not state them, from the
 * month their organisation's fiscal year ends in, as its other documents show it (a 10-K's year
 * end, or a 10-Q whose fiscal quarter is known). What a document states itself is kept.
 * Returns new profiles for the documents it changed; the others are returned as they were.
 */
export function completeFiscalPeriods<T extends { profile: DocumentProfile | null }>(entries: readonly T[]): T[] {
  const votes = new Map<string, Map<number, number>>();
  for (const e of entries) {
    const key = organisationKey(e.profile);
    const d = e.profile?.period;
    if (!key || !d?.end || !e.profile) continue;
    let month: number | null = null;
    if (!isQuarterly(e.profile)) month = periodMonth(d.end);
    else if (d.fiscalQuarter !== null) month = ((periodMonth(d.end) - 1 + (4 - d.fiscalQuarter) * 3) % 12) + 1;
    if (month === null) continue;
    const v = votes.get(key) ?? new Map<number, number>();
    v.set(month, (v.get(month) ?? 0) + 1);
    votes.set(key, v);
  }
  return entries.map((e) => {
    const key = organisationKey(e.profile);
    const d = e.profile?.period;
    if (!key || !e.profile || !d?.end || d.fiscalQuarter !== null || !isQuarterly(e.profile)) return e;
    const v = [...(votes.get(key) ?? new Map<number, number>()).entries()].sort((a, b) => b[1] - a[1])[0];
    if (!v) return e;
    const delta = (periodMonth(d.end) - v[0] + 12) % 12;
    if (delta === 0 || delta % 3 !== 0) return e;
    const quarter = delta / 3;
    const period = { ...d, fiscalQuarter: quarter, fiscalYear: d.fiscalYear ?? fiscalYearOfQuarter(d.end, quarter) };
    return { ...e, profile: { ...e.profile, period } };
  });
}

/**
 * Every quarter a document's period is by some reckoning: fiscal, calendar, the quarter it was
 * filed in, the one its file is named for. A question naming none of them is about another period.
 */
export function reckonedQuarters(profile: DocumentProfile, source?: string): { year: number | null; quarter: number }[] {
  const { fiscalYear, fiscalQuarter, calendarYear, calendarQuarter } = profile.period;
  const filed = filedQuarter(profile);
  const named = sourcePeriod(source);
  return [
    ...(fiscalQuarter !== null ? [{ year: fiscalYear, quarter: fiscalQuarter }] : []),
    ...(calendarQuarter !== null ? [{ year: calendarYear, quarter: calendarQuarter }] : []),
    ...(filed ? [filed] : []),
    ...(named?.quarter ? [{ year: named.year, quarter: named.quarter }] : []),
  ];
}
