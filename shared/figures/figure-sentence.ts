/**
 * A figure stated in one sentence, with its unit, scale, period and row as the table prints them:
 * "Apple Inc.'s total net sales for the three months ended July 1, 2023 were $81,797 million [1]."
 * Pure.
 */
import type { DocTable, TableCell, TableRow } from '../domain/index.ts';
import { contentWords, groupsNamedBy, groupsOf, isCommonWord, SYNONYM_GROUPS } from './glossary.ts';
import { periodHeader } from './periods.ts';

const MONTH_START = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/iu;

/** Rows whose figures are not in the table's scale: per-share amounts, percentages, ratios, counts of shares. */
const UNSCALED_ROW = /\bper\s+(?:common\s+|diluted\s+|basic\s+)?share\b|\bpercent|%|\bratio\b|\bmargin\s+percentage\b|\bshares?\s+outstanding\b|\bdays\b/iu;

// A row naming money paid out ("Repurchases of common stock", "Payments for dividends",
// "Purchases of property and equipment"): a statement prints it in parentheses by its sign
// convention; the label already says which way the money went.
const OUTFLOW_ROW = /^(?:(?:total|net)\s+)?(?:payments?|purchases?|repurchases?|repayments?|redemptions?|acquisitions?|additions?|capital\s+expenditures?|cash\s+paid|dividends\s+paid|common\s+stock\s+repurchased)\b/iu;

/** Whether a row names money paid out, its figures printed negative by convention (see {@link figureText}). */
export function paysOut(row: TableRow): boolean {
  return OUTFLOW_ROW.test(row.label.trim());
}

/**
 * The cell as a reader writes the figure: "$81,797 million", "-$1,234 million", "46.3%", "$1.26";
 * an amount paid out in parentheses without its sign ("Repurchases of common stock (56,547)" is
 * "$56,547 million").
 */
export function figureText(table: DocTable, row: TableRow, cell: TableCell): string {
  const printed = cell.text.replace(/\s+/gu, ' ').trim();
  const negative = (cell.value ?? 0) < 0 && !paysOut(row);
  const percent = /%/u.test(printed) || (table.unit === '%' && !/\$/u.test(printed));
  const digits = printed.replace(/[()$€£¥₩%\s]|^[-−–]/gu, '');
  const currency = /[$€£¥₩]/u.exec(printed)?.[0] ?? (table.unit && table.unit !== '%' && !percent ? table.unit : '');
  const scaled = !percent && table.scale !== null && !UNSCALED_ROW.test([...row.parents, row.label].join(' '));
  const scale = scaled ? ` ${table.scale?.replace(/s$/u, '')}` : '';
  return `${negative ? '-' : ''}${currency}${digits}${percent ? '%' : ''}${scale}`;
}

/**
 * A row label as it reads inside a sentence: its colon and footnote markers dropped; a label of a
 * statement's common words lower-cased ("Total Revenue" → "total revenue"), a sentence-case one
 * from its first word ("Online stores" → "online stores"); a name kept as printed ("Intelligent
 * Cloud", "More Personal Computing", "Americas") and so is an acronym.
 */
export function labelInSentence(label: string): string {
  // A footnote marker ("Online stores (1)") is the table's, not the row's name.
  const l = label.replace(/[:：]\s*$/u, '').replace(/(?:\s*\((?:\d{1,2}|[a-z])\))+\s*$/u, '').replace(/\s+/gu, ' ').trim();
  const words = l.split(' ');
  const capitalised = (w: string): boolean => /^\p{Lu}[\p{Ll}\d]/u.test(w) && !/^\p{Lu}+$/u.test(w);
  const lower = (w: string): string => (capitalised(w) ? w.toLowerCase() : w);
  if (words.every((w) => !capitalised(w) || isCommonWord(w))) return words.map(lower).join(' ');
  const [first = '', ...rest] = words;
  return rest.length > 0 && !rest.some(capitalised) ? [lower(first), ...rest].join(' ') : l;
}

/**
 * A row's name as a sentence says it: a part printed under a short heading naming a line item
 * says what it is a part of ("Services" under "Net sales:" is "Services net sales", not the
 * "Services" under "Cost of sales:"); any other row is its label.
 */
export function spokenLabel(row: TableRow): string {
  const parent = row.parents[row.parents.length - 1]?.replace(/[:：]\s*$/u, '').trim();
  if (!parent || groupsOf(row.label).length > 0 || groupsOf(parent).length === 0 || contentWords(parent).length > 2) return row.label;
  return `${row.label.replace(/[:：]\s*$/u, '').trim()} ${parent.toLowerCase()}`;
}

/**
 * A column header as the period it names reads in a sentence: "the three months ended July 1,
 * 2023", "as of December 31, 2022" (a date alone: a balance at that date), "fiscal 2023".
 */
export function periodPhrase(header: string): string {
  const h = header.replace(/\s+/gu, ' ').trim();
  if (h === '') return '';
  if (/^(?:as\s+of\s+)?[A-Z][a-z]+\.?\s+\d{1,2},?\s+\d{4}$/u.test(h)) return h.toLowerCase().startsWith('as of') ? h : `as of ${h}`;
  // A month keeps its capital ("June 25, 2022"); words such as "Three Months Ended" do not.
  const lower = /^\p{Lu}\p{Ll}/u.test(h) && !MONTH_START.test(h) ? `${h.charAt(0).toLowerCase()}${h.slice(1)}` : h;
  // "Three Months Ended July 1, 2023" keeps its date's capitals, lower-cases the rest.
  const phrase = lower.replace(/\b(Months|Month|Weeks|Ended|Ending|Year|Years|Quarter|Fiscal)\b/gu, (w) => w.toLowerCase());
  return /^(?:\d|q[1-4]\b|fy)/iu.test(phrase) ? `in ${phrase}` : `for the ${phrase.replace(/^the\s+/u, '')}`;
}

/**
 * "was" or "were", by the label's head noun: the last word before a preposition or a comma
 * ("Repurchases of common stock", "Payments for dividends, net" are plural; "Net income" and
 * "Provision for income taxes" are not).
 */
function verb(label: string): 'was' | 'were' {
  const phrase = label.replace(/[:：]\s*$/u, '').trim().split(/,|\s(?:of|for|from|in|on|to|by|with|related|under|at)\s/iu)[0] ?? '';
  const head = phrase.trim().split(/\s+/u).pop() ?? '';
  return /[a-z]s$/iu.test(head) && !/(?:ss|us|is|ics)$/iu.test(head) ? 'were' : 'was';
}

// A balance a flow statement prints at its period's end ("Cash and cash equivalents at end of
// period", "Balance, end of year"): a point in time, not an amount over the period.
const AT_PERIOD_END = /(?:\b(?:at|as\s+of)\s+(?:the\s+)?|,\s*)end\s+of\s+(?:the\s+)?(?:period|year|quarter|fiscal\s+year)\b|\bending\s+balance\b|\bbalance,?\s+(?:at\s+)?end\b/iu;

/** Line items that are balances, not flows: read from a period's column, they are its end's. */
const BALANCE_GROUPS = new Set(['cash and cash equivalents', 'total assets', 'total liabilities', 'shareholders equity', 'inventory', 'accounts receivable', 'long term debt'].map((m) => SYNONYM_GROUPS.findIndex((g) => g.includes(m))));
const FLOW_WORDS = /\b(?:increase|decrease|change|changes|net\s+cash|proceeds|payments?|purchases?|provided|used|beginning|opening|acquired|paid|issuance|repayments?)\b/iu;

/**
 * A row naming a balance (a flow statement's reconciliation to the balance sheet prints "Cash
 * and cash equivalents" under a period's column), not a change in one or an amount over the period.
 */
function isBalance(row: TableRow): boolean {
  const path = [...row.parents, row.label].join(' ');
  return groupsNamedBy(row.label).some((g) => BALANCE_GROUPS.has(g)) && !FLOW_WORDS.test(path);
}

/** A label without its "at end of period" ("Cash and cash equivalents at end of period" → "Cash and cash equivalents"). */
export function atPeriodEndDropped(label: string): string {
  return label.replace(AT_PERIOD_END, ' ').replace(/[\s,]+$/u, '').replace(/\s+/gu, ' ').trim() || label;
}

/**
 * "as of <date>" for a row that is a balance at its column's period end ("Cash and cash
 * equivalents at end of period" under "Six Months Ended July 30, 2023" is as of July 30, 2023),
 * or null.
 */
export function balancePhrase(header: string, row: TableRow): string | null {
  if (!AT_PERIOD_END.test(row.label) && !isBalance(row)) return null;
  const date = /\p{Lu}\p{Ll}+\.?\s+\d{1,2},?\s+\d{4}/u.exec(header)?.[0];
  return date ? `as of ${date}` : null;
}

/**
 * The answer's sentence for a figure (English), or a neutral "label (period): figure" line for
 * other languages. `period` replaces the column header's phrase (see periodPhrase) when given.
 */
export function figureSentence(input: { organisation: string | null; table: DocTable; row: TableRow; column: number; cell: TableCell; n: number; lang: 'en' | 'ko'; period?: string }): string {
  const { table, row, cell } = input;
  const header = periodHeader(table.columns[input.column] ?? '', row.parents);
  const figure = figureText(table, row, cell);
  if (input.lang !== 'en') return `${row.label.replace(/[:：]\s*$/u, '')} (${header}): ${figure} [${input.n}]`;
  const balance = input.period ? null : balancePhrase(header, row);
  // "Cash and cash equivalents at end of period" as of its date is the cash and cash equivalents.
  const spoken = balance ? atPeriodEndDropped(spokenLabel(row)) : spokenLabel(row);
  const label = labelInSentence(spoken);
  const owner = input.organisation ? `${input.organisation.trim()}’s ` : '';
  const subject = owner ? `${owner}${label}` : `${label.charAt(0).toUpperCase()}${label.slice(1)}`;
  const period = input.period ?? balance ?? periodPhrase(header);
  return `${subject}${period ? ` ${period}` : ''} ${verb(spoken)} ${figure} [${input.n}].`;
}
