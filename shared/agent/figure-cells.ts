/**
 * A figure answer's cells: the table passages it reads, the cell it matched stated in a sentence
 * and cited by row and column, a figure's kind, its period in words, and a change between two
 * figures as a reader says it. Pure.
 */
import type { DocTable, TableCell, TableRow } from '../domain/index.ts';
import { figureSentence, namedRow, periodFacts, periodHeader, periodPhrase, type CandidateTable, type CellMatch, type PeriodFacts } from '../figures/index.ts';
import type { AnswerChunk, Citation } from '../llm/index.ts';
import { labelPath } from '../tables/index.ts';

/** What the answer knows of a passage's document. */
export interface AnswerDocument {
  /** The organisation it is about, as it writes its name ("Apple Inc."). */
  organisation: string | null;
  /** Names a question may call it by (they are not the metric). */
  aliases: readonly string[];
  /** Last day of the period it reports on. */
  periodEnd: string | null;
  /**
   * The quarters that period is, by each reckoning it is known by (fiscal, calendar, filed, its
   * file's name); empty or absent when unknown. A question naming another quarter is not about it.
   */
  quarters?: readonly { year: number | null; quarter: number }[];
}

/** A table passage with its document. */
export interface TablePassage {
  chunk: AnswerChunk & { table: DocTable };
  rank: number;
}

/** The tables a figure is read from, as candidates, and the period asked for. */
export interface Pool {
  passages: TablePassage[];
  candidates: CandidateTable[];
  period: PeriodFacts;
}

/** The citation of a cell: its passage, the cell's page, and the row and column that name it. */
export function citationOf(n: number, chunk: AnswerChunk, row: TableRow, column: string, cell: TableCell): Citation {
  return {
    n,
    chunkId: chunk.chunkId,
    docId: chunk.docId,
    title: chunk.title,
    sectionPath: chunk.sectionPath,
    pages: { start: cell.page, end: cell.page },
    validFrom: chunk.validFrom,
    validTo: chunk.validTo,
    cell: { row: labelPath(row), column, text: cell.text, page: cell.page, ...(cell.box ? { box: cell.box } : {}) },
  };
}

/** The change from the first figure to the last, as a reader says it ("up 4.1% from the first to the last"), when both are amounts of one sign. */
export function changeClause(first: number, last: number, since = 'from the first to the last'): string | null {
  if (first <= 0 || last < 0) return null;
  const pct = ((last - first) / first) * 100;
  const rounded = Math.abs(pct) < 10 ? pct.toFixed(1) : pct.toFixed(0);
  return pct === 0 ? `unchanged ${since}` : `${pct > 0 ? 'up' : 'down'} ${rounded.replace('-', '')}% ${since}`;
}

/** "$" amounts or percentages: a series says one kind of figure. */
export function kindOf(table: DocTable, cell: TableCell): 'percent' | 'amount' {
  return /%/u.test(cell.text) || table.unit === '%' ? 'percent' : 'amount';
}

/** A long date as statements print it ("July 1, 2023") from YYYY-MM-DD. */
function longDate(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  return d.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

/**
 * A column's period in a sentence, or — when its header names no date (a header the extractor
 * could not read, or a bare "Q3") — the document's own period, which the column was matched to.
 */
export function pointPeriod(header: string, documentEnd: string): string {
  return periodFacts(header).endDate ? periodPhrase(header) : `for the period ended ${longDate(documentEnd)}`;
}

/** A matched cell's sentence (its period from the document when the header names no date) and citation `[n]`. */
export function cellSentence(pool: Pool, match: Pick<CellMatch, 'table' | 'row' | 'column' | 'cell'>, n: number, documentOf: (docId: string) => AnswerDocument | undefined, lang: 'en' | 'ko'): { sentence: string; citation: Citation; row: TableRow; table: DocTable } {
  const { chunk } = pool.passages[match.table] as TablePassage;
  const row = namedRow(chunk.table.rows[match.row] as TableRow);
  const column = chunk.table.columns[match.column] ?? '';
  const header = periodHeader(column, row.parents);
  const end = documentOf(chunk.docId)?.periodEnd ?? null;
  const period = end && !periodFacts(header).endDate ? pointPeriod(header, end) : undefined;
  const sentence = figureSentence({ organisation: documentOf(chunk.docId)?.organisation ?? null, table: chunk.table, row, column: match.column, cell: match.cell, n, lang, ...(period ? { period } : {}) });
  return { sentence, citation: citationOf(n, chunk, row, column, match.cell), row, table: chunk.table };
}
