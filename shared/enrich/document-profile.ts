/**
 * Document-level understanding (issue 13): which organisation(s) a document is about, which
 * period or edition it covers and what kind of document it is, read from its title page, running
 * headers and first pages. Over many look-alike documents (twenty 10-Q filings with the same
 * sections and tables) these are what tells one document from another, so they become document
 * entities, breadcrumb text on every chunk, and the gazetteer the query side routes with.
 *
 * Pure functions over extracted lines; nothing here knows a company or a ticker in advance.
 */
import type { DocumentMeta, DocumentOrganisation, DocumentPeriod, DocumentProfile } from '../domain/index.ts';
import { parseDate } from './dates.ts';
import { fiscalYearLabel, fiscalYearOfQuarter, quarterFromSpans, titlePeriod } from './profile-period.ts';
import { ORG_SUFFIX, findCoverBrand, findReleaseIssuer, mayBeLetterSpaced, organisationAliases, organisationOf, repairLetterSpacing, wordVocabulary } from './organisation-names.ts';

export { displayName, organisationAliases } from './organisation-names.ts';

const MONTH = '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';
const EN_DATE = `${MONTH}\\.?\\s+\\d{1,2},?\\s+\\d{4}`;
const KO_DATE = '\\d{4}\\s*[.년]\\s*\\d{1,2}\\s*[.월]\\s*\\d{1,2}\\s*[.일]?';

const KO_ORG = /^(?:주식회사\s*\S+|\S+\s*주식회사|㈜\s*\S+|\S+\s*㈜|\S+(?:부|처|청|위원회|공단|공사|협회|재단))$/u;

function isOrgLine(line: string): boolean {
  const t = line.trim();
  if (t.length < 3 || t.length > 80 || t.split(/\s+/).length > 8) return false;
  if (/^(?:the|a|an)\s/i.test(t) || /[:;]$/.test(t)) return false;
  return ORG_SUFFIX.test(t) || KO_ORG.test(t);
}

/** Tickers of an SEC cover page: the symbol column of the "Trading Symbol(s)" table. */
function findTickers(lines: readonly string[]): string[] {
  const at = lines.findIndex((l) => /trading\s+symbol/i.test(l));
  if (at < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(at + 1, at + 16)) {
    if (/^indicate\b/i.test(line.trim())) break;
    const m = /\s([A-Z]{1,5}(?:[.-][A-Z])?)\s+(?:the\s+)?(?:nasdaq|new york stock exchange|nyse|chicago|cboe|london|euronext)/i.exec(line);
    const sym = m?.[1];
    if (sym && /^[A-Z]/.test(sym) && sym === sym.toUpperCase() && !out.includes(sym)) out.push(sym);
  }
  return out;
}

/**
 * The organisations a document is about, every name from the document itself:
 * - an SEC registrant: the line above "(Exact name of registrant …)" (or before it on the same
 *   line), else the first name with a legal form after the commission file number;
 * - else the issuer of a release ("NVIDIA (NASDAQ: NVDA) today reported …", "Johnson & Johnson
 *   Reports …");
 * - else the first line near the top that reads as an organisation's name.
 * Lines are read back from letter-spaced small capitals first ({@link repairLetterSpacing}).
 * Aliases come from the name, the tickers of the cover or release, the names the document defines
 * for itself, a brand printed above its cover ({@link findCoverBrand}) and an initialism the
 * document prints ("J&J"). `text` (the body) is where those are checked; without it, the lines.
 */
export function findOrganisations(rawLines: readonly string[], text = ''): DocumentOrganisation[] {
  const all = `${rawLines.join('\n')}\n${text}`;
  // The document's words are collected only when a line may need them (most lines have no lone capital).
  let vocabulary: Set<string> | null = null;
  const lines = rawLines.map((l) => (mayBeLetterSpaced(l) ? repairLetterSpacing(l, (vocabulary ??= wordVocabulary(all))) : l));
  const head = lines.slice(0, 80);
  const tickers = findTickers(head);
  let name: string | null = null;
  const exact = head.findIndex((l) => /\(?\s*exact name of (?:the )?registrant/i.test(l));
  if (exact >= 0) {
    // A text layer may keep the name and its caption on one line.
    const before = (head[exact] ?? '').replace(/\(?\s*exact name of (?:the )?registrant.*$/i, '').trim();
    if (before.length >= 2 && /\p{L}/u.test(before)) name = before;
    for (let i = exact - 1; i >= Math.max(0, exact - 3) && !name; i -= 1) {
      const l = (head[i] ?? '').trim();
      if (l && !/^[_\-=\s]+$/.test(l) && !/commission file/i.test(l)) name = l;
    }
  }
  let releaseTickers: string[] = [];
  if (!name) {
    const file = head.findIndex((l) => /commission file (?:number|no)/i.test(l));
    if (file >= 0) name = head.slice(file + 1, file + 40).find((l) => isOrgLine(l))?.trim() ?? null;
    if (!name) {
      const issuer = findReleaseIssuer(lines);
      if (issuer) {
        name = issuer.name;
        releaseTickers = issuer.tickers;
      }
    }
    // Elsewhere only a line of its own near the top: not the wrapped tail of a sentence
    // ("… offices of Larkspur" / "Systems, Inc.").
    if (!name && file < 0) name = head.slice(0, 6).find((l, i) => isOrgLine(l) && (i === 0 || !/[\p{Ll},]$/u.test(head[i - 1] ?? '')))?.trim() ?? null;
  }
  if (!name) return [];
  const extra: string[] = [];
  const brand = findCoverBrand(lines, all);
  if (brand) extra.push(brand);
  // A release beside a cover names its issuer as the press does ("NVIDIA" for "NVIDIA CORPORATION").
  const found = releaseTickers.length === 0 ? findReleaseIssuer(lines) : null;
  const issuer = found && found.tickers.length > 0 ? found : null;
  if (issuer) extra.push(issuer.name);
  const symbols = [...new Set([...tickers, ...releaseTickers, ...(issuer?.tickers ?? [])])];
  return [organisationOf(name, symbols, all, extra)];
}

/** The form or kind: an SEC form number, else law / standard / policy from the title lines. */
export function findForm(lines: readonly string[]): string | null {
  const text = lines.slice(0, 60).join('\n');
  const sec = /\bFORM\s+(10-K|10-Q|8-K|20-F|6-K|40-F|S-1|S-4|11-K|DEF\s?14A)\b/i.exec(text);
  if (sec?.[1]) return sec[1].toUpperCase().replace(/\s+/g, ' ');
  if (/QUARTERLY REPORT PURSUANT TO SECTION/i.test(text)) return '10-Q';
  if (/ANNUAL REPORT PURSUANT TO SECTION/i.test(text)) return '10-K';
  const title = lines.slice(0, 8).join('\n');
  // Reports without an SEC cover: a call transcript, an earnings release ("X Reports Third
  // Quarter Results", "… today reported revenue …").
  if (/\b(?:earnings|conference)\s+call\b|\btranscript\b/i.test(title)) return 'transcript';
  const top = lines.slice(0, 20).join(' ');
  if (/\b(?:reports|reported|announces|announced|posts|delivers)\b.{0,80}?\bresults\b/i.test(top) || /\btoday\s+(?:reported|announced)\b.{0,120}?\b(?:results|revenue|earnings|net\s+(?:income|sales))\b/i.test(top)) return 'earnings release';
  if (/(?:법|법률|시행령|시행규칙|조례)\s*$/mu.test(title) || /\[시행\s/u.test(title) || /^제\s?1\s?조\s*\(/mu.test(text)) return 'law';
  if (/\b(?:act|statute|regulation|directive|decree)\b/i.test(title) && !/\bpolicy\b/i.test(title)) return 'law';
  if (/\b(?:ISO(?:\/IEC)?\s?\d{3,5}|RFC\s?\d{3,5}|NIST\s+SP|standard|specification)\b/i.test(title) || /(?:표준|규격)/u.test(title)) return 'standard';
  if (/\b(?:policy|handbook|code of conduct|procedure)\b/i.test(title) || /(?:규정|지침|사규|정책|규칙)\s*$/mu.test(title)) return 'policy';
  if (/\bannual report\b/i.test(title) || /사업보고서/u.test(title)) return 'annual report';
  return null;
}

const ORDINAL: Readonly<Record<string, number>> = { first: 1, second: 2, third: 3, fourth: 4, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4 };

/** Calendar year and quarter a period ending on `end` belongs to; a period ended on the 1st–7th belongs to the month before (52/53-week years). */
export function calendarQuarterOf(end: string): { year: number; quarter: number } {
  const d = new Date(`${end}T00:00:00Z`);
  if (d.getUTCDate() <= 7) d.setUTCDate(0);
  return { year: d.getUTCFullYear(), quarter: Math.floor(d.getUTCMonth() / 3) + 1 };
}

/**
 * Whether fiscal (year, quarter) can name a quarter ended on `end`: the fiscal year then ends
 * (4 − quarter) × 3 months after it, in the calendar year it is named by (Microsoft's quarter
 * ended 2022-12-31 is fiscal 2023's second: the year ends June 2023; NVIDIA's ended 2023-04-30
 * is fiscal 2024's first). A 52/53-week quarter ended on the 1st–7th counts as the month before.
 */
export function fiscalFits(end: string, year: number, quarter: number): boolean {
  const d = new Date(`${end}T00:00:00Z`);
  if (d.getUTCDate() <= 7) d.setUTCDate(0);
  const month = d.getUTCMonth() + (4 - quarter) * 3;
  return d.getUTCFullYear() + Math.floor(month / 12) === year;
}

/**
 * Fiscal year and quarter the text names most often ("third quarter of fiscal 2023", "fiscal
 * 2023 third quarter", "Q3 FY23", and — when the period end is known — "first quarter of 2023",
 * "Q1 2023"), among those that can name the quarter ended on `end` ({@link fiscalFits}): a 10-Q
 * names prior periods too, sometimes more often than its own. Null when it names none.
 */
export function statedFiscalPeriod(text: string, end: string | null = null): { year: number; quarter: number | null } | null {
  const counts = new Map<string, number>();
  const add = (year: number, quarter: number | null, explicit: boolean): void => {
    if (year < 1900 || year > 2199) return;
    if (end !== null && quarter !== null && !fiscalFits(end, year, quarter)) return;
    if (!explicit && (end === null || quarter === null)) return;
    const key = `${year}|${quarter ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  const yr = (s: string): number => (s.length === 2 ? 2000 + Number(s) : Number(s));
  const ord = (s: string | undefined): number | null => ORDINAL[(s ?? '').toLowerCase()] ?? null;
  // "third quarter of fiscal 2023", and as headlines write it, "Third-Quarter Fiscal 2024".
  for (const m of text.matchAll(/\b(first|second|third|fourth|1st|2nd|3rd|4th)[-\s]quarter\s+(?:of\s+)?(fiscal(?:\s+year)?\s+)?(\d{4})\b/gi)) add(yr(m[3] ?? ''), ord(m[1]), Boolean(m[2]));
  for (const m of text.matchAll(/\bfiscal(?:\s+year)?\s+(\d{4})\s+(first|second|third|fourth)\s+quarter\b/gi)) add(yr(m[1] ?? ''), ord(m[2]), true);
  for (const m of text.matchAll(/\bQ([1-4])\s+(?:of\s+)?(FY\s?'?|fiscal\s+(?:year\s+)?)?(\d{4}|(?<=FY\s?'?)\d{2})\b/g)) add(yr(m[3] ?? ''), Number(m[1]), Boolean(m[2]));
  let best: { year: number; quarter: number | null; n: number } | null = null;
  for (const [key, n] of counts) {
    const [y, q] = key.split('|');
    if (!best || n > best.n) best = { year: Number(y), quarter: q ? Number(q) : null, n };
  }
  return best ? { year: best.year, quarter: best.quarter } : null;
}

/**
 * The period a document reports on: "quarterly period ended …", "fiscal year ended …" (on the
 * cover, else anywhere on the first pages: a release says "for the third quarter ended …"),
 * 시행/effective dates, editions. The fiscal labels: a 10-Q's as its text states them
 * ({@link statedFiscalPeriod}), else from the spans it reports ({@link quarterFromSpans}); a
 * 10-K's as its text binds them to the year end ({@link fiscalYearLabel}); a release's or
 * transcript's without a date, from its title ({@link titlePeriod}).
 */
export function findPeriod(lines: readonly string[], bodyText = ''): DocumentPeriod {
  const head = lines.slice(0, 80).join('\n');
  const all = lines.join('\n');
  const period: DocumentPeriod = { end: null, fiscalYear: null, fiscalQuarter: null, calendarYear: null, calendarQuarter: null, edition: null };
  const quarterRe = new RegExp(`(?:quarterly\\s+period|fiscal\\s+quarter|quarter|three\\s+months|thirteen\\s+weeks)\\s+ended\\s+(${EN_DATE})`, 'i');
  const annualRe = new RegExp(`(?:fiscal\\s+year|year)\\s+ended\\s+(${EN_DATE})`, 'i');
  // The cover first; a release or a filing without one names its period further down.
  const coverQuarter = quarterRe.exec(head);
  const coverAnnual = annualRe.exec(head);
  const quarterly = coverQuarter ?? (coverAnnual ? null : quarterRe.exec(all));
  const annual = coverAnnual ?? (quarterly ? null : annualRe.exec(all));
  const end = quarterly?.[1] ?? annual?.[1];
  if (end) period.end = parseDate(end.replace(/\s+/g, ' '));
  if (period.end) {
    const cal = calendarQuarterOf(period.end);
    period.calendarYear = cal.year;
    period.calendarQuarter = quarterly ? cal.quarter : null;
  }
  const text = `${head}\n${bodyText}`;
  if (quarterly && period.end) {
    const stated = statedFiscalPeriod(text, period.end);
    const quarter = stated?.quarter ?? quarterFromSpans(text);
    if (stated && stated.quarter !== null) {
      period.fiscalYear = stated.year;
      period.fiscalQuarter = stated.quarter;
    } else if (quarter !== null && quarter <= 3) {
      // Where the quarter sits in its fiscal year says when that year ends, hence its number.
      period.fiscalYear = fiscalYearOfQuarter(period.end, quarter);
      period.fiscalQuarter = quarter;
    }
  } else if (annual && period.end) {
    period.fiscalYear = fiscalYearLabel(text, period.end);
  }
  const edition = /\b(?:version|edition|revision|rev\.)\s*:?\s*([0-9][\w.-]*)/i.exec(head) ?? /\[\s*((?:법률|대통령령|총리령|[가-힣]+부령)\s*제\s*\d+\s*호)/u.exec(head);
  if (edition?.[1]) period.edition = edition[1].replace(/\s+/g, ' ').replace(/[.,;:]+$/, '').trim();
  if (!period.end) {
    const titled = titlePeriod(lines);
    if (titled) {
      period.fiscalYear = titled.year;
      period.fiscalQuarter = titled.quarter;
    }
  }
  if (!period.end && period.fiscalYear === null) {
    const ko = new RegExp(`\\[?시행\\s*(${KO_DATE})`, 'u').exec(head);
    const en = new RegExp(`(?:effective(?:\\s+date)?|as\\s+of)\\s*:?\\s*(${EN_DATE}|\\d{4}-\\d{2}-\\d{2})`, 'i').exec(head);
    const raw = ko?.[1] ?? en?.[1];
    if (raw) period.end = parseDate(raw.replace(/\s+/g, ' '));
    if (period.end) period.calendarYear = Number(period.end.slice(0, 4));
  }
  return period;
}

/** Forms that report on a period (SEC filings, annual reports), as opposed to ones in effect from a date. */
export function isReportForm(form: string | null): boolean {
  return form !== null && (/^(?:10-[KQ]|8-K|20-F|6-K|40-F|11-K)$/i.test(form) || /annual report|earnings release|press release|transcript/i.test(form));
}

/**
 * Whether a document reports on a period (its date ends that period) rather than being an edition
 * in effect from its date (a law, a policy, a guideline, a standard): a report's form, or any
 * document that names a fiscal or calendar quarter.
 */
export function reportsOnPeriod(p: Pick<DocumentProfile, 'form' | 'period'>): boolean {
  return isReportForm(p.form) || p.period.fiscalYear !== null || p.period.calendarQuarter !== null;
}

/** "Apple Inc. (AAPL) · 10-Q · fiscal 2023 Q3 · period ended 2023-07-01". */
export function profileLabel(p: Omit<DocumentProfile, 'label'>): string {
  const parts: string[] = [];
  for (const o of p.organisations) {
    const tickers = o.aliases.filter((a) => /^[a-z]{1,5}(?:[.-][a-z])?$/.test(a) && a.toUpperCase() !== o.name.toUpperCase() && !o.name.toLowerCase().startsWith(a));
    parts.push(tickers.length ? `${o.name} (${tickers.map((t) => t.toUpperCase()).join(', ')})` : o.name);
  }
  if (p.form) parts.push(p.form);
  const { period } = p;
  if (period.fiscalYear !== null) parts.push(`fiscal ${period.fiscalYear}${period.fiscalQuarter ? ` Q${period.fiscalQuarter}` : ''}`);
  if (period.calendarQuarter !== null && period.calendarYear !== null) parts.push(`calendar ${period.calendarYear} Q${period.calendarQuarter}`);
  if (period.edition) parts.push(`edition ${period.edition}`);
  if (period.end) parts.push(`${reportsOnPeriod(p) ? 'period ended' : 'effective'} ${period.end}`);
  return parts.join(' · ');
}

/**
 * The document's profile from its first pages' lines (title page, cover, running headers) and,
 * for the fiscal period a 10-Q names in its text, the body. The sidecar wins field by field:
 * `organisations`, `form` (else its `doc_type`), `fiscal_year`, `fiscal_quarter`, `period_end`,
 * `edition`.
 */
export function buildDocumentProfile(firstPagesText: string, bodyText: string, meta: DocumentMeta = {}): DocumentProfile {
  const lines = firstPagesText.split('\n').map((l) => l.replace(/\s+/g, ' ').trim()).filter((l) => l !== '');
  const organisations = meta.organisations ? meta.organisations.map((name) => ({ name, aliases: organisationAliases(name) })) : findOrganisations(lines, bodyText);
  const form = meta.form ?? (meta.doc_type && meta.doc_type !== 'unknown' ? meta.doc_type : null) ?? findForm(lines);
  const period = findPeriod(lines, bodyText);
  if (meta.period_end) {
    period.end = meta.period_end;
    const cal = calendarQuarterOf(meta.period_end);
    period.calendarYear = cal.year;
    if (period.calendarQuarter !== null || meta.fiscal_quarter) period.calendarQuarter = cal.quarter;
  }
  if (meta.fiscal_year) period.fiscalYear = meta.fiscal_year;
  if (meta.fiscal_quarter) period.fiscalQuarter = meta.fiscal_quarter;
  if (meta.edition) period.edition = meta.edition;
  const base = { organisations, form, period };
  return { ...base, label: profileLabel(base) };
}

/** Document entities the profile adds: organisation names and aliases, the form, period words. */
export function profileEntities(p: DocumentProfile): string[] {
  const out: string[] = [];
  for (const o of p.organisations) out.push(o.name, ...o.aliases);
  if (p.form) out.push(p.form);
  if (p.period.fiscalYear !== null) out.push(`FY${p.period.fiscalYear}`);
  if (p.period.fiscalYear !== null && p.period.fiscalQuarter !== null) out.push(`Q${p.period.fiscalQuarter} FY${p.period.fiscalYear}`);
  return [...new Set(out)];
}
