/**
 * How a total divides into its parts, read from a table: a row naming the metric asked for and
 * the run of sibling rows right above it whose figures, in one column, add up to it (what a
 * statement or a segment note prints: "Online stores … Physical stores … Total net sales"). The
 * sum is the proof the rows are its parts; a run that does not add up is no breakdown. Pure.
 */
import type { DocTable, TableCell, TableRow } from '../domain/index.ts';
import { labelScore, MIN_LABEL_SCORE, namedRow, type CandidateTable, type FigureAsk } from './cell-match.ts';
import { periodFacts, periodFit, rowPeriods } from './periods.ts';
import { isStatementTitle } from '../sectionize/index.ts';

/** A total and the parts that add up to it, in one column of one table. */
export interface Breakdown {
  /** Index into the candidate tables. */
  table: number;
  column: number;
  total: { row: number; cell: TableCell };
  parts: { row: number; cell: TableCell }[];
  score: number;
}

/** Whether a cell is an amount (not a percentage, not a figure with words in it). */
function amountCell(table: DocTable, cell: TableCell | null | undefined): cell is TableCell & { value: number } {
  return !!cell && cell.value !== null && !/\p{L}/u.test(cell.text) && !/%/u.test(cell.text) && table.unit !== '%';
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The rows right above `total` that are its parts in `column`: one level, one group, each with an
 * amount there, stopping at a heading or another level; they must add up to the total (to within
 * rounding of the printed figures). Null when there are fewer than two or they do not add up.
 */
function partsOf(table: DocTable, total: number, column: number): { row: number; cell: TableCell }[] | null {
  const t = table.rows[total] as TableRow;
  const totalCell = t.cells[column];
  if (!amountCell(table, totalCell)) return null;
  const parts: { row: number; cell: TableCell & { value: number } }[] = [];
  let level: number | null = null;
  let parents: readonly string[] | null = null;
  for (let r = total - 1; r >= 0; r--) {
    const row = table.rows[r] as TableRow;
    const cell = row.cells[column];
    if (!amountCell(table, cell)) break;
    if (level !== null && (row.level !== level || !sameList(row.parents, parents ?? []))) break;
    level = row.level;
    parents = row.parents;
    parts.unshift({ row: r, cell });
  }
  if (parts.length < 2) return null;
  const sum = parts.reduce((s, p) => s + p.cell.value, 0);
  // Each printed part is rounded by up to half a unit of its last digit.
  const slack = Math.max(0.5 * parts.length, Math.abs(totalCell.value) * 0.002);
  return Math.abs(sum - totalCell.value) <= slack ? parts : null;
}

/**
 * The breakdown of the metric asked for, in the column of the period asked for: among the rows
 * naming the metric (labelScore ≥ MIN_LABEL_SCORE) whose parts add up, the best by row, period,
 * a title that says the question's `cues` ("segment", "product"), the number of parts, a primary
 * statement, then the passage's rank. Null when no table prints one.
 */
export function bestBreakdown(ask: FigureAsk, tables: readonly CandidateTable[], cues: readonly string[] = []): Breakdown | null {
  let best: Breakdown | null = null;
  tables.forEach((candidate, t) => {
    const table = candidate.table;
    const columns = table.columns.map((h) => periodFacts(h));
    table.rows.forEach((row, r) => {
      const label = labelScore(ask.metric, namedRow(row));
      if (label < MIN_LABEL_SCORE) return;
      const periods = rowPeriods(table.columns, row.parents, columns);
      row.cells.forEach((_, c) => {
        const period = periodFit(periods[c] ?? { endDate: null, months: null, year: null, quarter: null }, ask.period, candidate.documentEnd);
        if (period === 0) return;
        const parts = partsOf(table, r, c);
        if (!parts) return;
        // The table's title saying the kind of part asked for ("segment"), then the finer split
        // ("across its various offerings" wants the seven product lines, not products and services).
        const cue = cues.some((w) => table.title.toLowerCase().includes(w)) ? 0.1 : 0;
        const fine = Math.min(0.08, 0.01 * parts.length);
        const primary = isStatementTitle(table.title) ? 0.03 : 0;
        const score = label * 0.5 + period * 0.3 + cue + fine + primary + 0.05 / (1 + candidate.rank);
        if (!best || score > best.score + 1e-9) best = { table: t, column: c, total: { row: r, cell: row.cells[c] as TableCell }, parts, score };
      });
    });
  });
  return best;
}
