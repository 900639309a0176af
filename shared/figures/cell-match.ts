/**
 * Which cell of which table answers a figure question: the row whose label (with the group
 * headings above it) names the metric asked for, in the column whose period is the one asked for.
 * What a table says comes from the table: labels, headers, units and scale as printed. Pure.
 */
import type { DocTable, TableCell, TableRow } from '../domain/index.ts';
import { contentWords, glossaryForm, GLOSSARY_WORDS, groupsNamedBy, groupsOf, SYNONYM_GROUPS } from './glossary.ts';
import { dateIn, daysApart, periodFacts, periodFit, rowPeriods, type PeriodFacts } from './periods.ts';
import { isStatementTitle } from '../sectionize/index.ts';

/** A table an answer may draw on, with what is known of its document. */
export interface CandidateTable {
  table: DocTable;
  /** Last day of the period its document reports on (profile), when known. */
  documentEnd: string | null;
  /** Rank of its passage among the answer's passages (0 best). */
  rank: number;
  /**
   * The period end of its document when that document reports on another quarter than the one
   * asked ("Q4 2023" of a third-quarter release): its own period's columns, and columns naming no
   * date, are not the period asked.
   */
  otherEnd?: string | null;
}

/** The cell chosen, and why. */
export interface CellMatch {
  /** Index into the candidate tables. */
  table: number;
  row: number;
  column: number;
  cell: TableCell;
  /** How well the row names the metric, in [0, 1]. */
  labelScore: number;
  /** How well the column's period fits, in [0, 1]. */
  periodScore: number;
  score: number;
}

/** What a figure question asks for: the metric's words and the period. */
export interface FigureAsk {
  metric: string;
  period: PeriodFacts;
  /**
   * Words the question puts right before a line item the glossary knows, narrowing it: "potential"
   * in "potential liabilities", "cloud" in "cloud revenue". A row that does not say them is not
   * that item, though the glossary matches the rest ("Total liabilities", "Total revenue").
   */
  qualifiers?: readonly string[];
}

/**
 * Words of a question that ask for a figure, a comparison or an explanation, or name a period or
 * a filing: not the metric. General question words, never line items.
 */
const NOT_METRIC = new Set([
  'what', 'whats', 'which', 'was', 'were', 'is', 'are', 'be', 'been', 'how', 'much', 'many', 'did', 'does', 'do', 'has', 'have', 'had', 'can', 'could', 'would', 'will', 'might', 'may', 'should',
  'report', 'reported', 'reports', 'reporting', 'disclose', 'disclosed', 'state', 'stated', 'show', 'shown', 'list', 'give', 'provide', 'analyze', 'analyse', 'describe', 'explain', 'identify', 'identified',
  'the', 'a', 'an', 'of', 'for', 'in', 'during', 'on', 'at', 'as', 'by', 'from', 'with', 'and', 'or', 'to', 'into', 'its', 'their', 'this', 'these', 'those', 'that', 'it', 'there', 'any', 'all', 'each', 'every', 'per', 'than',
  'quarter', 'quarters', 'quarterly', 'year', 'years', 'annual', 'annually', 'fiscal', 'fy', 'month', 'months', 'ended', 'ending', 'end', 'period', 'periods', 'three', 'six', 'nine', 'twelve', 'first', 'second', 'third', 'fourth',
  'q1', 'q2', 'q3', 'q4', 'company', 'companys', 'amount', 'value', 'figure', 'figures', 'according', 'filing', 'filings', '10', 'k', 'q', '10q', '10k', 'form', 'latest', 'most', 'recent', 'current', 'previous', 'prior', 'last', 'past', 'over', 'time',
  'change', 'changed', 'changes', 'changing', 'trend', 'trends', 'trended', 'trending', 'fluctuate', 'fluctuated', 'fluctuation', 'fluctuations', 'vary', 'varied', 'variation', 'variations', 'evolve', 'evolved', 'shift', 'shifted', 'shifts', 'movement', 'movements', 'observe', 'observed', 'seen', 'status',
  'compare', 'compared', 'comparing', 'comparison', 'across', 'between', 'versus', 'vs', 'relative', 'significant', 'substantial', 'considerable', 'major', 'key', 'main', 'generated', 'generate',
  'jan', 'january', 'feb', 'february', 'mar', 'march', 'apr', 'april', 'may', 'jun', 'june', 'jul', 'july', 'aug', 'august', 'sep', 'sept', 'september', 'oct', 'october', 'nov', 'november', 'dec', 'december',
  'implication', 'implications', 'impact', 'impacts', 'driver', 'drivers', 'factor', 'factors', 'cause', 'causes', 'reason', 'reasons', 'mean', 'means', 'suggest', 'indicate', 'level', 'levels', 'figure',
  'breakdown', 'split', 'distribution', 'composition', 'various', 'different', 'diverse', 'several', 'respective',
  'one', 'ones', 'qs', 'ks', 'if', 'so', 'why', 'when', 'where', 'who', 'whom', 'whose', 'not', 'no', 'yes', 'also', 'both', 'such', 'other', 'then', 'there', 'here', 'out', 'up', 'down', 'about', 'within', 'under', 'after', 'before', 'since', 'while',
]);

/**
 * Where a question goes on to ask something else: ", and how did it change", "? What drove it".
 * The metric is what the first clause that names something asks for.
 */
const FOLLOW_UP = /[?;]\s+|\.\s+(?=\p{Lu})|,?\s+(?:and|but|while|also)\s+(?=(?:how|what|why|which|where|when|did|does|do|is|are|was|were|has|have|can|could)\b)|,\s+(?=(?:how|what|why|which|and\s+what|and\s+how)\b)/iu;

/** The metric words of one clause: its words less question words, periods, numbers and `names`. */
export function metricWords(clause: string, names: readonly string[] = []): string {
  // "Apple's" is Apple: the possessive goes before names are taken out.
  let q = ` ${glossaryForm(clause.replace(/['’]s\b/gu, ''))} `;
  for (const name of names) {
    const n = glossaryForm(name);
    if (n) q = q.replaceAll(` ${n} `, ' ');
  }
  return q
    .split(' ')
    .filter((w) => w !== '' && !NOT_METRIC.has(w) && !/^\d+$/u.test(w) && !/^(?:19|20)\d{2}$/u.test(w))
    .join(' ');
}

/** Words before a line item that do not narrow it ("segment revenue", "consolidated net income"). */
const GENERIC_QUALIFIERS = new Set(['segment', 'segments', 'business', 'businesses', 'consolidated', 'overall', 'reported', 'gaap', 'company', 'group', 'total', 'aggregate', 'combined', 'whole', 'entire', 'actual', 'related', 'corresponding', 'respective', 'approximate', 'its', 'their', 'our']);

/** The qualifiers of the glossary's line items in `clause` (see {@link FigureAsk.qualifiers}). */
export function glossaryQualifiers(clause: string, names: readonly string[] = []): string[] {
  let q = ` ${glossaryForm(clause.replace(/['’]s\b/gu, ''))} `;
  for (const name of names) {
    const n = glossaryForm(name);
    if (n) q = q.replaceAll(` ${n} `, ' ');
  }
  const tokens = q.trim().split(' ');
  const out = new Set<string>();
  for (const group of SYNONYM_GROUPS) {
    // Every mention of the item must be narrowed: "revenue from its semiconductor sales" asks for
    // revenue, whatever "semiconductor" says about "sales".
    const before: (string | null)[] = [];
    for (const member of group) {
      const m = glossaryForm(member).split(' ');
      for (let i = 0; i + m.length <= tokens.length; i++) {
        if (!m.every((w, k) => tokens[i + k] === w)) continue;
        const prev = i > 0 ? (tokens[i - 1] as string) : '';
        const word = contentWords(prev)[0];
        const narrows = word && !NOT_METRIC.has(prev) && !GENERIC_QUALIFIERS.has(prev) && !GLOSSARY_WORDS.has(word) && !/^\d/u.test(prev);
        before.push(narrows ? word : null);
      }
    }
    if (before.length > 0 && before.every((w) => w !== null)) for (const w of before) out.add(w as string);
  }
  return [...out];
}

/**
 * The metric and the period a figure question asks about. `names` are the organisation names the
 * question was routed by (they are not the metric); numbers and dates are the period's. The
 * metric is the first clause's that names one ("total net sales" in "What were total net sales,
 * and how did services contribute?"); the period is read from the whole question.
 */
export function figureAsk(question: string, names: readonly string[] = []): FigureAsk {
  const clauses = question.split(FOLLOW_UP).filter((c) => c.trim() !== '');
  // A clause naming a line item the glossary knows is the metric's, over a lead-in ("Comparing
  // the most recent quarter to previous ones, how has R&D changed?").
  const chosen = clauses.findIndex((c) => groupsOf(metricWords(c, names)).length > 0);
  const clause = clauses[chosen >= 0 ? chosen : clauses.findIndex((c) => metricWords(c, names) !== '')] ?? '';
  const metric = metricWords(clause, names);
  return { metric, period: periodFacts(question), qualifiers: glossaryQualifiers(clause, names) };
}

/**
 * How well a row names the metric, in [0, 1]. The row's own label must be said by the question:
 * the share of the label's content words the metric holds (a long question about "total net
 * sales" still names the row "Total net sales"), its head noun ("sales") required, with the
 * glossary letting synonyms stand for each other ("revenue" names "Total net sales"); the group
 * headings above it break ties (the "Services" under "Net sales:" for a question about revenue,
 * not the one under "Cost of sales:"), and so does a "Total" row when the question says total.
 */
export function labelScore(metric: string, row: TableRow, qualifiers: readonly string[] = []): number {
  const want = contentWords(metric);
  const own = contentWords(row.label);
  if (want.length === 0 || own.length === 0) return 0;
  const wanted = new Set(want);
  const metricGroups = groupsOf(metric);
  // A row naming another line item the glossary knows is not this one, whatever words they share
  // ("Total cost of sales" for "net sales", "Net income per share" for "net income").
  const rowGroups = groupsOf(row.label);
  if (metricGroups.length > 0 && rowGroups.length > 0 && !rowGroups.some((g) => metricGroups.includes(g))) return 0;
  // The words the question narrows the item by are the row's too ("Diluted earnings per share",
  // asked for diluted EPS, names earnings per share).
  const narrowing = new Set(qualifiers);
  const item = qualifiers.length > 0 ? own.filter((w) => !narrowing.has(w)).join(' ') : row.label;
  const synonym = metricGroups.some((g) => groupsNamedBy(item).includes(g));
  const parentSynonym = metricGroups.some((g) => row.parents.some((p) => groupsNamedBy(p).includes(g)));
  // How much of the row's own name the question says (its head noun required)…
  const head = own[own.length - 1] as string;
  const said = own.filter((w) => wanted.has(w)).length / own.length;
  const named = synonym ? 1 : wanted.has(head) ? said : said / 2;
  // …and how much of what the question asks the row and its groups say ("cash flow from operating
  // activities" is not the row "Cash", though every word of "Cash" is asked).
  const context = new Set(contentWords([...row.parents, row.label].join(' ')));
  const asked = want.filter((w) => context.has(w)).length / want.length;
  const covered = Math.max(asked, synonym ? 0.75 : 0, parentSynonym ? Math.min(1, asked + 0.34) : 0);
  let score = 0.5 * named + 0.5 * covered;
  // A row the question names by words of its own, not glossary words, is the one it means:
  // "iPhone" in "revenue from iPhone sales", over "Total net sales"; two such words ("data
  // center") over one ("Center" of another segment).
  score += 0.1 * Math.min(2, new Set(own.filter((w) => wanted.has(w) && !GLOSSARY_WORDS.has(w))).size);
  if (/\btotal\b/iu.test(metric) && /^total\b/iu.test(row.label.trim())) score += 0.05;
  return Math.max(0, Math.min(1, score));
}

/**
 * The share of the metric's words a row says, by its label, its group headings or a glossary
 * synonym of either: what keeps a question about "legal proceedings and contingent liabilities"
 * from being answered by the balance sheet's "Total liabilities", which names one of its words.
 */
export function coverage(metric: string, row: TableRow): number {
  const want = contentWords(metric);
  if (want.length === 0) return 0;
  const names = [row.label, ...row.parents];
  const context = new Set(contentWords(names.join(' ')));
  const groups = new Set(names.flatMap((n) => groupsOf(n)));
  const synonyms = new Set(SYNONYM_GROUPS.filter((_, i) => groups.has(i)).flatMap((g) => g.flatMap((m) => contentWords(m))));
  return want.filter((w) => context.has(w) || synonyms.has(w)).length / want.length;
}

/** Words that say a row is its group's total and nothing else ("Total", "Consolidated"). */
const TOTAL_WORDS = new Set(['consolidated', 'combined', 'overall', 'grand', 'subtotal', 'all']);

/**
 * A row as its name reads: a bare "Total" or "Consolidated" (no word of its own) names the group
 * it closes — "Total" under "Revenue" is "Total Revenue", the "Consolidated" that ends a segment
 * table's "Net sales:" is "Total Net sales" — and sits under the headings above that group. A
 * date heading is when the group is, not what it is: "Total" under "June 30, 2022" alone stays "Total".
 */
export function namedRow(row: TableRow): TableRow {
  if (contentWords(row.label).some((w) => !TOTAL_WORDS.has(w))) return row;
  const k = row.parents.findLastIndex((p) => dateIn(p) === null);
  if (k < 0) return row;
  const parent = (row.parents[k] as string).replace(/[:：]\s*$/u, '');
  return { ...row, label: `Total ${parent}`, parents: row.parents.filter((_, i) => i !== k) };
}

/** A heading over changes in balances, not the balances ("Changes in operating assets and liabilities:"). */
const CHANGES_IN = /\b(?:changes?|increase|decrease)\s+(?:\(decrease\)\s+)?in\b/iu;

/** A row that sums a statement's section, never one of its changes, though printed under their heading. */
const SUMMARY_ROW = /^\s*(?:net\s+cash|total|subtotal|cash\s+and\s+cash\s+equivalents)\b/iu;

/** Least row score for an answer from a table: below it the table does not name what was asked. */
export const MIN_LABEL_SCORE = 0.7;

/** A question that asks for a rate, share or ratio: a percentage answers it; otherwise an amount does. */
const ASKS_PERCENT = /\b(?:percent(?:age)?|%|rate|ratio|margin\s+percentage|proportion|share\s+of|yield)\b/iu;

/** Whether a cell prints a percentage. */
function isPercentCell(table: DocTable, cell: TableCell): boolean {
  return /%/u.test(cell.text) || table.unit === '%';
}

/** What else a cell must satisfy (see {@link bestCell}). */
export interface CellOptions {
  /** Least share of the metric's words the row must say (see {@link coverage}). @defaultValue 0 */
  minCoverage?: number;
  /** A further test of the row (as {@link namedRow} names it). */
  accept?: (row: TableRow) => boolean;
  /** A row that is not the answer (the whole, when its part is looked for). */
  exclude?: { table: number; row: number } | undefined;
}

/**
 * The best cell for `ask` among `tables`: a row naming the metric (labelScore ≥ MIN_LABEL_SCORE),
 * in a column whose period fits, holding a number. Ties go to the better-ranked passage, then
 * the earlier row and column (statements print the current period first). Null when none.
 */
export function bestCell(ask: FigureAsk, tables: readonly CandidateTable[], options: CellOptions = {}): CellMatch | null {
  const minCoverage = options.minCoverage ?? 0;
  let best: CellMatch | null = null;
  // Words of the question that name a row of their own ("iPhone", "Services", "Gaming"): when
  // some row is named by one, a row that is not (the total) is not what was asked.
  const asked = new Set(contentWords(ask.metric).filter((w) => !GLOSSARY_WORDS.has(w)));
  const specific = new Set(tables.flatMap((t) => t.table.rows.flatMap((r) => contentWords(r.label).filter((w) => asked.has(w)))));
  tables.forEach((candidate, t) => {
    const columns = candidate.table.columns.map((header) => periodFacts(header));
    candidate.table.rows.forEach((printed, r) => {
      const periods = rowPeriods(candidate.table.columns, printed.parents, columns);
      const row = namedRow(printed);
      const named = specific.size === 0 || contentWords(row.label).some((w) => specific.has(w));
      // A total, when the question names a part some row names, is not what it asks; nor is a
      // change in a balance (a cash flow statement's "Changes in … Inventories") its level.
      const label = labelScore(ask.metric, row, ask.qualifiers) * (named ? 1 : 0.78) * (row.parents.some((p) => CHANGES_IN.test(p)) && !SUMMARY_ROW.test(row.label) ? 0.85 : 1);
      if (label < MIN_LABEL_SCORE) return;
      if (minCoverage > 0 && coverage(ask.metric, row) < minCoverage) return;
      if (options.accept && !options.accept(row)) return;
      if (ask.qualifiers && ask.qualifiers.length > 0) {
        const says = new Set(contentWords([...row.parents, row.label].join(' ')));
        if (ask.qualifiers.some((w) => !says.has(w))) return;
      }
      if (options.exclude && options.exclude.table === t && options.exclude.row === r) return;
      row.cells.forEach((cell, c) => {
        if (!cell || cell.value === null) return;
        // A figure with words in it ("3.9pts", "2.1x", "45 bps") is a difference or a multiple, not an amount.
        if (/\p{L}/u.test(cell.text)) return;
        // An amount is asked unless a rate or share is: a "% of revenue" column is no amount.
        if (isPercentCell(candidate.table, cell) !== ASKS_PERCENT.test(ask.metric)) return;
        const columnPeriod = periods[c] ?? { endDate: null, months: null, year: null, quarter: null };
        if (candidate.otherEnd && (columnPeriod.endDate === null || daysApart(columnPeriod.endDate, candidate.otherEnd) <= 7)) return;
        const period = periodFit(columnPeriod, ask.period, candidate.documentEnd);
        if (period === 0) return;
        // A primary statement is where a line item's figure is reported; the same label in a
        // note's breakdown (stock compensation by line item) is a part of it. It outweighs the
        // passages' rank, which only breaks ties.
        const primary = isStatementTitle(candidate.table.title) ? 0.06 : 0;
        const score = label * 0.6 + period * 0.3 + 0.05 / (1 + candidate.rank) + primary;
        if (!best || score > best.score + 1e-9) best = { table: t, row: r, column: c, cell, labelScore: label, periodScore: period, score };
      });
    });
  });
  return best;
}
