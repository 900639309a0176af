/**
 * A figure a statement does not print but implies, computed from two of its cells in one column:
 * gross margin is revenue less cost of sales (a retailer's statement of operations prints both and
 * no gross margin). Only from a primary statement, only when both inputs are there for the period
 * asked: the answer cites both. Pure.
 */
import type { TableCell } from '../domain/index.ts';
import { isStatementTitle } from '../sectionize/index.ts';
import { bestCell, type CandidateTable, type FigureAsk } from './cell-match.ts';
import { groupsOf } from './glossary.ts';

/** What a derived figure is called and what it is computed from (the first less the second). */
interface Derivation {
  name: string;
  minuend: string;
  subtrahend: string;
}

const DERIVATIONS: readonly Derivation[] = [{ name: 'gross margin', minuend: 'total revenue', subtrahend: 'cost of sales' }];

/** One input of a derived figure: its row and cell in the table. */
export interface DerivedInput {
  row: number;
  cell: TableCell & { value: number };
}

/** A figure computed from two cells of one column of one table. */
export interface DerivedFigure {
  name: string;
  /** Index into the candidate tables. */
  table: number;
  column: number;
  minuend: DerivedInput;
  subtrahend: DerivedInput;
  value: number;
}

/** The derived figure the metric asks for, from the best statement holding both inputs in one column; null when none does. */
export function deriveFigure(ask: FigureAsk, tables: readonly CandidateTable[]): DerivedFigure | null {
  const asked = groupsOf(ask.metric);
  let best: { figure: DerivedFigure; score: number } | null = null;
  for (const d of DERIVATIONS) {
    if (asked.length === 0 || !groupsOf(d.name).every((g) => asked.includes(g))) continue;
    tables.forEach((candidate, t) => {
      if (!isStatementTitle(candidate.table.title)) return;
      const plus = bestCell({ metric: d.minuend, period: ask.period }, [candidate]);
      const minus = bestCell({ metric: d.subtrahend, period: ask.period }, [candidate]);
      if (!plus || !minus || plus.column !== minus.column || plus.cell.value === null || minus.cell.value === null) return;
      const score = plus.score + minus.score;
      if (best && score <= best.score) return;
      const minuend = { row: plus.row, cell: { ...plus.cell, value: plus.cell.value } };
      const subtrahend = { row: minus.row, cell: { ...minus.cell, value: minus.cell.value } };
      best = { figure: { name: d.name, table: t, column: plus.column, minuend, subtrahend, value: minuend.cell.value - subtrahend.cell.value }, score };
    });
  }
  return (best as { figure: DerivedFigure } | null)?.figure ?? null;
}
