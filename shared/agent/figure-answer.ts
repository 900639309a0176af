/**
 * The answer to a question about a figure, when cited tables hold it: the value with its unit,
 * scale, period and row as the table prints them, citing the table's page and cell. One figure
 * for one period — "Apple Inc.’s total net sales for the three months ended July 1, 2023 were
 * $81,797 million [1]." — or, for a question about how a figure went over the reported periods,
 * the figure of each document's own period in date order, with the change from the first to the
 * last computed from the two cited cells. Null when no table names the metric for the period
 * asked (the prose answer is given then). Pure.
 */
import type { DocTable, TableRow } from '../domain/index.ts';
import {
  bestBreakdown,
  deriveFigure,
  bestCell,
  figureAsk,
  labelScore,
  metricWords,
  MIN_LABEL_SCORE,
  namedRow,
  figureText,
  labelInSentence,
  periodPhrase,
  spokenLabel,
  contentWords,
  periodFacts,
  periodHeader,
  paysOut,
  balancePhrase,
  asksBreakdown,
  breakdownCues,
  figurePair,
  asksOutlook,
  asksWhatWasSaid,
  asksYearOverYear,
  daysApart,
  OUTLOOK_TABLE,
  membersIn,
  type DerivedFigure,
  type CandidateTable,
  type CellMatch,
  type FigureAsk,
  type PeriodFacts,
  type FigurePair,
} from '../figures/index.ts';
import type { AnswerChunk, Citation } from '../llm/index.ts';
import { addMonths } from '../enrich/index.ts';
import { isStatementTitle } from '../sectionize/index.ts';
import { cellSentence, changeClause, citationOf, kindOf, pointPeriod, type AnswerDocument, type Pool, type TablePassage } from './figure-cells.ts';

export type { AnswerDocument } from './figure-cells.ts';

/** A figure answer: its sentence and its citations, numbered from 1. */
export interface FigureAnswer {
  text: string;
  citations: Citation[];
  /**
   * The question's name for the line item ("gross margin") when the row answering it names the
   * item only by a synonym ("Gross profit"): a passage saying it in the question's words may
   * state another figure (a margin as a percentage), which the answer then quotes too.
   */
  synonymFor?: string;
}

/** A question about how a figure went over periods ("changed over time", "across quarters", "compared to previous quarters"). */
const OVER_PERIODS = /\b(?:over\s+time|trend(?:s|ed|ing)?|fluctuat\w*|chang(?:e|ed|es|ing)|var(?:y|ied|ies|iation|iations)|evolv\w*|shift(?:s|ed)?|across\s+(?:the\s+)?(?:quarters|periods|years)|each\s+(?:quarter|period)|quarter[\s-]+(?:to|over)[\s-]+quarter|compar\w+\s+(?:to|with)\s+(?:the\s+)?(?:previous|prior|earlier)|(?:previous|prior|reported|these)\s+(?:quarters|periods)|histor\w*)\b/iu;
/** Whether a question asks how a figure went over the reported periods. */
export function asksOverPeriods(query: string): boolean {
  return OVER_PERIODS.test(query);
}

/** "latest", "most recent", "current": the latest period among the documents found. */
const LATEST = /\b(?:latest|most\s+recent|current|newest|last)\b/iu;

/** What the question is known to ask, beside its words. */
export interface FigureQuestion {
  /**
   * Whether it asks for a figure ("how much", "what was … revenue", a line item the glossary
   * knows). When it does not, a row answers only if it says nearly every word of the question's
   * metric (PROSE_MIN_COVERAGE): a question about "legal proceedings and contingent liabilities"
   * is not answered by "Total liabilities".
   */
  asksFigure: boolean;
}

/** Least share of a non-figure question's metric words a row must say to answer it. */
const PROSE_MIN_COVERAGE = 0.6;

const NO_PERIOD: PeriodFacts = { endDate: null, months: null, year: null, quarter: null };

/** The asked period, with "latest" read as the latest period end among the documents found. */
function askedPeriod(query: string, ask: FigureAsk, ends: readonly string[]): PeriodFacts {
  const named = ask.period.endDate !== null || ask.period.quarter !== null || ask.period.year !== null;
  if (named || !LATEST.test(query) || ends.length === 0) return ask.period;
  return { ...ask.period, endDate: [...ends].sort().at(-1) ?? null };
}

/**
 * Per document, the cell of its own period for the metric: the row the best-ranked document
 * names it by, the same row (by its words) and the same kind of figure in the others, so a
 * series never mixes a ratio into amounts. Null when fewer than two documents have it.
 */
function seriesAnswer(ask: FigureAsk, tables: readonly TablePassage[], documentOf: (docId: string) => AnswerDocument | undefined, minCoverage: number): FigureAnswer | null {
  const byDoc = new Map<string, TablePassage[]>();
  for (const t of tables) byDoc.set(t.chunk.docId, [...(byDoc.get(t.chunk.docId) ?? []), t]);
  const found: { passage: TablePassage; match: CellMatch; end: string }[] = [];
  for (const [docId, passages] of byDoc) {
    const end = documentOf(docId)?.periodEnd ?? null;
    if (!end) continue;
    const own: FigureAsk = { ...ask, period: { ...NO_PERIOD, endDate: end } };
    const match = bestCell(own, passages.map((p) => ({ table: p.chunk.table, documentEnd: end, rank: p.rank })), { minCoverage });
    if (match) found.push({ passage: passages[match.table] as TablePassage, match, end });
  }
  // The anchor: the row that names the metric best (then the best-ranked document's); the others
  // must name the same row and figure kind.
  const anchor = [...found].sort((a, b) => b.match.labelScore - a.match.labelScore || a.passage.rank - b.passage.rank)[0];
  if (!anchor) return null;
  const anchorRow = namedRow(anchor.passage.chunk.table.rows[anchor.match.row] as TableRow);
  const anchorWords = contentWords(anchorRow.label).join(' ');
  const anchorKind = kindOf(anchor.passage.chunk.table, anchor.match.cell);
  const points = found.filter((p) => {
    const r = namedRow(p.passage.chunk.table.rows[p.match.row] as TableRow);
    return contentWords(r.label).join(' ') === anchorWords && kindOf(p.passage.chunk.table, p.match.cell) === anchorKind;
  });
  if (points.length < 2) return null;
  points.sort((a, b) => a.end.localeCompare(b.end));
  const first = points[0]!;
  const organisation = documentOf(anchor.passage.chunk.docId)?.organisation ?? null;
  const citations: Citation[] = [];
  const parts = points.map((p, i) => {
    const table = p.passage.chunk.table;
    const r = namedRow(table.rows[p.match.row] as TableRow);
    const column = table.columns[p.match.column] ?? '';
    citations.push(citationOf(i + 1, p.passage.chunk, r, column, p.match.cell));
    const header = periodHeader(column, r.parents);
    return `${figureText(table, r, p.match.cell)} ${balancePhrase(header, r) ?? pointPeriod(header, p.end)} [${i + 1}]`;
  });
  const label = labelInSentence(anchorRow.label);
  const subject = organisation ? `${organisation.trim()}’s ${label}` : `${label.charAt(0).toUpperCase()}${label.slice(1)}`;
  const last = points[points.length - 1]!;
  // Money paid out is printed negative; its change is its amount's.
  const sign = paysOut(anchorRow) ? -1 : 1;
  const change = anchorKind === 'amount' ? changeClause(sign * (first.match.cell.value ?? 0), sign * (last.match.cell.value ?? 0)) : null;
  return { text: `${subject}: ${parts.join('; ')}${change ? ` — ${change}` : ''}.`, citations };
}

/**
 * The figure answer for `query` from the table passages among `chunks` (ranked, best first), or
 * null. `documentOf` gives what is known of each passage's document.
 */
export function composeFigureAnswer(
  query: string,
  chunks: readonly AnswerChunk[],
  documentOf: (docId: string) => AnswerDocument | undefined,
  lang: 'en' | 'ko',
  options: FigureQuestion = { asksFigure: true },
): FigureAnswer | null {
  const minCoverage = options.asksFigure ? 0 : PROSE_MIN_COVERAGE;
  const printed: TablePassage[] = chunks.flatMap((chunk, rank) => (chunk.table ? [{ chunk: chunk as AnswerChunk & { table: DocTable }, rank }] : []));
  // What a company expects is read only from a table of expected figures, never from what it reported.
  const tables = asksOutlook(query) ? printed.filter(({ chunk }) => OUTLOOK_TABLE.test([chunk.table.title, chunk.sectionPath, ...chunk.table.columns].join(' '))) : printed;
  if (tables.length === 0) return null;
  const names = [
    ...new Set(
      chunks.flatMap((c) => {
        const d = documentOf(c.docId);
        return d ? [...(d.organisation ? [d.organisation] : []), ...d.aliases] : [];
      }),
    ),
  ];
  const ask = figureAsk(query, names);
  if (ask.metric === '' || asksWhatWasSaid(query)) return null;
  if (OVER_PERIODS.test(query) && ask.period.endDate === null) {
    const series = seriesAnswer(ask, tables, documentOf, minCoverage);
    if (series) return series;
  }
  const pool = poolOf(query, ask, tables, chunks[0]?.docId, documentOf);
  if (asksBreakdown(query)) {
    const answer = breakdownAnswer(ask, pool, breakdownCues(query), documentOf, lang);
    if (answer) return answer;
  }
  const pair = figurePair(query);
  if (pair) {
    const answer = pairAnswer(pair, names, pool, documentOf, lang, minCoverage);
    if (answer) return answer;
  }
  const match = bestCell({ ...ask, period: pool.period }, pool.candidates, { minCoverage });
  // A statement that implies the figure (revenue less cost of sales) outweighs a note's row of that name.
  const derived = lang === 'en' && (!match || !isStatementTitle(pool.candidates[match.table]?.table.title ?? '')) ? deriveFigure({ ...ask, period: pool.period }, pool.candidates) : null;
  if (derived) return derivedAnswer(derived, pool, documentOf);
  if (!match) return null;
  const one = cellSentence(pool, match, 1, documentOf, lang);
  if (lang === 'en' && asksYearOverYear(query)) {
    const change = yearOverYear(pool, match, one);
    if (change) return change;
  }
  const synonymFor = synonymOnly(ask.metric, one.row);
  return { text: one.sentence, citations: [one.citation], ...(synonymFor ? { synonymFor } : {}) };
}

/**
 * The figure against the same period a year earlier, when its row prints that period too (a
 * release's "Three Months Ended September 30, 2023 / 2022"): both cells cited and the change
 * computed from them ("… was $118 million [1], against $104 million for the three months ended
 * September 30, 2022 [2], up 13% from a year earlier."). Null when no such column.
 */
function yearOverYear(pool: Pool, match: CellMatch, one: ReturnType<typeof cellSentence>): FigureAnswer | null {
  const { chunk } = pool.passages[match.table] as TablePassage;
  const table = chunk.table;
  const printed = table.rows[match.row] as TableRow;
  const periodOf = (c: number): PeriodFacts => periodFacts(periodHeader(table.columns[c] ?? '', printed.parents));
  const now = periodOf(match.column);
  if (!now.endDate) return null;
  const yearBefore = addMonths(now.endDate, -12);
  const prior = printed.cells.findIndex((cell, c) => {
    const p = periodOf(c);
    return c !== match.column && cell !== null && cell.value !== null && p.endDate !== null && p.months === now.months && daysApart(p.endDate, yearBefore) <= 7;
  });
  const cell = printed.cells[prior];
  if (prior < 0 || !cell || cell.value === null) return null;
  const column = table.columns[prior] ?? '';
  const then = citationOf(2, chunk, one.row, column, cell);
  const sign = paysOut(one.row) ? -1 : 1;
  const change = kindOf(table, match.cell) === 'amount' ? changeClause(sign * cell.value, sign * (match.cell.value ?? 0), 'from a year earlier') : null;
  const against = `against ${figureText(table, one.row, cell)} ${periodPhrase(periodHeader(column, printed.parents))} [2]`;
  return { text: `${one.sentence.replace(/\.$/u, '')}, ${against}${change ? `, ${change}` : ''}.`, citations: [one.citation, then] };
}

/** The question's glossary name for the item when `row` says none of its words in that order (see {@link FigureAnswer.synonymFor}). */
function synonymOnly(metric: string, row: TableRow): string | null {
  const asked = membersIn(metric);
  const says = ` ${contentWords([...row.parents, row.label].join(' ')).join(' ')} `;
  return asked.length > 0 && !asked.some((m) => says.includes(` ${m.member} `)) ? (asked[0]?.member ?? null) : null;
}

/** A derived figure's sentence: the figure, then the two cited cells it was computed from. */
function derivedAnswer(d: DerivedFigure, pool: Pool, documentOf: (docId: string) => AnswerDocument | undefined): FigureAnswer {
  const { chunk } = pool.passages[d.table] as TablePassage;
  const table = chunk.table;
  const column = table.columns[d.column] ?? '';
  const header = periodHeader(column, namedRow(table.rows[d.minuend.row] as TableRow).parents);
  const inputs = [d.minuend, d.subtrahend].map((input, i) => {
    const row = namedRow(table.rows[input.row] as TableRow);
    return { text: `${labelInSentence(spokenLabel(row))} of ${figureText(table, row, input.cell)} [${i + 1}]`, citation: citationOf(i + 1, chunk, row, column, input.cell) };
  });
  const end = documentOf(chunk.docId)?.periodEnd ?? null;
  const period = end && !periodFacts(header).endDate ? pointPeriod(header, end) : periodPhrase(header);
  const organisation = documentOf(chunk.docId)?.organisation ?? null;
  const subject = organisation ? `${organisation.trim()}’s ${d.name}` : `${d.name.charAt(0).toUpperCase()}${d.name.slice(1)}`;
  const printed = { ...d.minuend.cell, text: d.value.toLocaleString('en-US') };
  const value = figureText(table, namedRow(table.rows[d.minuend.row] as TableRow), printed);
  return { text: `${subject}${period ? ` ${period}` : ''} was ${value}: ${inputs[0]?.text} less ${inputs[1]?.text}.`, citations: inputs.map((x) => x.citation) };
}

/**
 * The passages a single-period figure is read from: every table passage, or — for a quarter or
 * year named without a date ("Q1 2023"), which the search's routing read as fiscal, filed or
 * calendar — those of the document it put first. "Latest" is the latest period end found.
 */
function poolOf(query: string, ask: FigureAsk, tables: readonly TablePassage[], firstDoc: string | undefined, documentOf: (docId: string) => AnswerDocument | undefined): Pool {
  const ends = [...new Set(tables.map((t) => documentOf(t.chunk.docId)?.periodEnd).filter((e): e is string => typeof e === 'string'))];
  const namedNoDate = ask.period.endDate === null && (ask.period.quarter !== null || ask.period.year !== null);
  const passages = namedNoDate && firstDoc && tables.some((t) => t.chunk.docId === firstDoc) ? tables.filter((t) => t.chunk.docId === firstDoc) : [...tables];
  const candidates = passages.map((t): CandidateTable => {
    const doc = documentOf(t.chunk.docId);
    const end = doc?.periodEnd ?? null;
    return reportsOtherQuarter(doc, ask.period) ? { table: t.chunk.table, documentEnd: null, rank: t.rank, otherEnd: end } : { table: t.chunk.table, documentEnd: end, rank: t.rank };
  });
  return { passages, candidates, period: askedPeriod(query, ask, ends) };
}

/** Whether a document's own period is, by every reckoning it is known by, another quarter than the one asked. */
function reportsOtherQuarter(doc: AnswerDocument | undefined, asked: PeriodFacts): boolean {
  const quarters = doc?.quarters ?? [];
  if (asked.quarter === null || asked.endDate !== null || quarters.length === 0 || !doc?.periodEnd) return false;
  return !quarters.some((q) => q.quarter === asked.quarter && (asked.year === null || q.year === null || q.year === asked.year));
}

/**
 * A part against its whole ("What percentage of total revenue did Services contribute?"): the
 * part's figure, then its share of the whole computed from the two cited cells. The part is a row
 * naming the part's own words (the whole's words break ties: Services under "Net sales", not
 * under "Cost of sales"); the whole is the row naming the whole, in the same period. When the
 * tables give the part but not the whole, the part is stated and the answer says so.
 */
function pairAnswer(pair: FigurePair, names: readonly string[], pool: Pool, documentOf: (docId: string) => AnswerDocument | undefined, lang: 'en' | 'ko', minCoverage: number): FigureAnswer | null {
  const partOwn = metricWords(pair.part, names);
  const wholeMetric = metricWords(pair.whole, names);
  if (partOwn === '' || wholeMetric === '') return null;
  const whole = bestCell({ metric: wholeMetric, period: pool.period }, pool.candidates, { minCoverage });
  const part = bestCell({ metric: `${partOwn} ${wholeMetric}`, period: pool.period }, pool.candidates, {
    minCoverage,
    accept: (row) => labelScore(partOwn, row) >= MIN_LABEL_SCORE,
    exclude: whole ? { table: whole.table, row: whole.row } : undefined,
  });
  if (!part) return null;
  const stated = cellSentence(pool, part, 1, documentOf, lang);
  if (lang !== 'en') return { text: stated.sentence, citations: [stated.citation] };
  if (!whole) return { text: `${stated.sentence} No cited table gives its ${wholeMetric} for that period.`, citations: [stated.citation] };
  const of = cellSentence(pool, whole, 2, documentOf, lang);
  const partValue = part.cell.value ?? 0;
  const wholeValue = whole.cell.value ?? 0;
  const comparable = wholeValue > 0 && partValue >= 0 && kindOf(stated.table, part.cell) === 'amount' && kindOf(of.table, whole.cell) === 'amount' && stated.table.scale === of.table.scale;
  const wholeText = `${labelInSentence(of.row.label)} of ${figureText(of.table, of.row, whole.cell)} [2]`;
  const share = comparable ? `${shareText((partValue / wholeValue) * 100)} of ${wholeText}` : `against ${wholeText}`;
  return { text: `${stated.sentence.replace(/\.$/u, '')}, ${share}.`, citations: [stated.citation, of.citation] };
}

/** A share as a reader writes it, to one decimal ("34.9%"). */
function shareText(pct: number): string {
  return `${pct.toFixed(1)}%`;
}

/**
 * How a total divides ("the revenue breakdown across its segments"): the total's sentence, then
 * each part with its figure, all from one column of one table whose parts add up to the total.
 */
function breakdownAnswer(ask: FigureAsk, pool: Pool, cues: readonly string[], documentOf: (docId: string) => AnswerDocument | undefined, lang: 'en' | 'ko'): FigureAnswer | null {
  const found = bestBreakdown({ ...ask, period: pool.period }, pool.candidates, cues);
  if (!found) return null;
  const stated = cellSentence(pool, { table: found.table, row: found.total.row, column: found.column, cell: found.total.cell }, 1, documentOf, lang);
  const parts = found.parts.map((p) => {
    const row = stated.table.rows[p.row] as TableRow;
    return `${lang === 'en' ? labelInSentence(row.label) : row.label} ${figureText(stated.table, row, p.cell)}`;
  });
  return { text: `${stated.sentence.replace(/\.$/u, '')}: ${parts.join('; ')}.`, citations: [stated.citation] };
}
