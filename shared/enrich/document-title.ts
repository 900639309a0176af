/**
 * Document titles for filings and reports. A PDF printed by a filing system often carries an
 * identifier as its Title ("0000320193-23-000077", an SEC accession number; "04.01.2023 10Q
 * Document"), which reads as noise in a list of twenty look-alike documents, while the document's
 * profile knows who filed what for which period. Pure functions; nothing here knows a company.
 */
import type { DocumentProfile } from '../domain/index.ts';
import { isReportForm } from './document-profile.ts';

// Words that name no document on their own: what is left of "04.01.2023 10Q Document" or "scan_0012 final".
const GENERIC_WORDS = new Set(['document', 'doc', 'file', 'filing', 'form', 'report', 'draft', 'final', 'copy', 'scan', 'pdf', 'page', 'untitled', 'version', 'rev', 'print', 'output', 'htm', 'html']);
// Words a filing system's label is made of besides the filer, the form and dates ("Form 10-Q for Microsoft Corp filed 10/24/2022").
const LABEL_WORDS = new Set(['form', 'for', 'filed', 'filing', 'document', 'report', 'quarterly', 'annual', 'the', 'of', 'and', 'on', 'inc', 'corp', 'corporation', 'co', 'company', 'ltd', 'llc', 'plc', 'holdings', 'group']);
const SEC_FORM = /^(?:10-K|10-Q|8-K|20-F|6-K|40-F|11-K|S-1|S-4|DEF 14A)$/iu;
const ANNUAL_FORM = /^(?:10-K|20-F|40-F|11-K)$/iu;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Whether a title is an identifier rather than a name: once every token holding a digit (numbers,
 * dates, codes such as "10Q" or "0000320193-23-000077") is set aside, no word is left that names
 * anything ("Document", "Final" and the like do not).
 */
export function isIdentifierTitle(title: string): boolean {
  return wordsOf(title).every((w) => GENERIC_WORDS.has(w));
}

/** Lower-case words of a title, tokens holding a digit (numbers, dates, codes) set aside. */
function wordsOf(title: string): string[] {
  return title
    .split(/[\s_/|,;:()[\]]+/u)
    .filter((w) => w !== '' && !/\d/u.test(w))
    .map((w) => w.replace(/[^\p{L}]+/gu, '').toLowerCase())
    .filter((w) => w.length >= 2);
}

/**
 * Whether a title says no more than the profile: a filing system's label made of the filer's
 * name, the form and a date ("10-Q - 10/28/2022 - Intel Corporation", "Form 10-Q for Microsoft
 * Corp filed 10/24/2022"), whose date is the filing's, not the period's.
 */
function restatesProfile(title: string, profile: DocumentProfile): boolean {
  if (!/\d/u.test(title)) return false;
  const known = new Set(profile.organisations.flatMap((o) => [...wordsOf(o.name), ...o.aliases.flatMap(wordsOf)]));
  return wordsOf(title).every((w) => known.has(w) || LABEL_WORDS.has(w));
}

/**
 * The title to show for a document whose PDF Title is `pdfTitle`: that title, unless it is an
 * identifier ({@link isIdentifierTitle}) or, for a report the profile can name, a label saying no
 * more than the profile — then the profile's ({@link profileTitle}). Null when neither serves
 * (the caller falls back to the first heading or the file name).
 */
export function reportTitle(pdfTitle: string | null, profile: DocumentProfile | null | undefined): string | null {
  const fromProfile = profileTitle(profile);
  const t = pdfTitle?.trim();
  if (!t || isIdentifierTitle(t)) return fromProfile;
  return fromProfile && profile && restatesProfile(t, profile) ? fromProfile : t;
}

/** "2023-03-31" → "March 31, 2023". */
function longDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${MONTHS[(m ?? 1) - 1] ?? ''} ${d}, ${y}`;
}

/** The period part of a title: "quarter ended March 31, 2023", "fiscal year ended …", "fiscal 2023 Q3"; null when unknown. */
function periodPhrase(profile: DocumentProfile): string | null {
  const { period, form } = profile;
  const quarterly = period.fiscalQuarter !== null || period.calendarQuarter !== null || /^10-Q$/iu.test(form ?? '');
  if (period.end) {
    if (quarterly) return `quarter ended ${longDate(period.end)}`;
    if (ANNUAL_FORM.test(form ?? '') || /annual/iu.test(form ?? '')) return `fiscal year ended ${longDate(period.end)}`;
    return `period ended ${longDate(period.end)}`;
  }
  if (period.fiscalYear !== null) return `fiscal ${period.fiscalYear}${period.fiscalQuarter ? ` Q${period.fiscalQuarter}` : ''}`;
  return null;
}

/**
 * A readable title from a report's profile: "Microsoft Corporation — Form 10-Q — quarter ended
 * March 31, 2023". Only for documents that report on a period (filings, annual reports) and
 * name their organisation; null otherwise, so a policy or a law keeps its printed title.
 */
export function profileTitle(profile: DocumentProfile | null | undefined): string | null {
  const org = profile?.organisations[0]?.name.trim();
  if (!profile || !org || !isReportForm(profile.form)) return null;
  const form = profile.form ?? '';
  const kind = SEC_FORM.test(form) ? `Form ${form.toUpperCase()}` : form.charAt(0).toUpperCase() + form.slice(1);
  return [org, kind, periodPhrase(profile)].filter((p): p is string => Boolean(p)).join(' — ');
}
