/**
 * Row facts: each row of a table said as a sentence a keyword index and an embedder can match,
 * "Net sales > Total net sales — Three Months Ended July 1, 2023: $81,797 million; …". The row's
 * label path, each column's header and each figure with its currency and scale, all as the table
 * states them; a question naming the row and the period finds the figure without reading a grid.
 */
import type { DocTable, TableCell, TableRow } from '../domain/index.ts';
import { captionFacts, rowScale, type CaptionFacts } from './caption.ts';
import { parseFigure } from './values.ts';

const CURRENCY_SIGN = /^(?:US\$|[A-Z]{1,3}\$|R\$|[$€£¥₩₹])$/u;
const SCALE_IN_HEADER = /\b(thousands|millions|billions|trillions)\b/iu;
const SINGULAR: Readonly<Record<string, string>> = { thousands: 'thousand', millions: 'million', billions: 'billion', trillions: 'trillion' };

/** A row's label path: its parents and its own label, trailing colons dropped. */
export function labelPath(row: TableRow, fallback = ''): string {
  const parts = [...row.parents, row.label].map((p) => p.replace(/[:：]\s*$/u, '').trim()).filter((p) => p !== '');
  return parts.length > 0 ? parts.join(' > ') : fallback;
}

/** A figure said with its sign, currency and scale ("-$265 million", "3%", "1,234백만원"). */
function figureText(cell: TableCell, unit: string | null, scale: string | null, excepted: boolean): string | null {
  const figure = parseFigure(cell.text);
  if (!figure) return cell.text.trim();
  if (figure.value === null) return null;
  const digits = /\d[\d,]*(?:\.\d+)?|\.\d+/u.exec(cell.text)?.[0] ?? String(Math.abs(figure.value));
  const sign = figure.value < 0 ? '-' : '';
  if (figure.percent || (unit === '%' && !excepted)) return `${sign}${digits}%`;
  const word = scale ? (SINGULAR[scale] ?? scale) : '';
  // A unit written as a word follows the figure and its scale ("1,234백만원").
  if (unit && !CURRENCY_SIGN.test(unit) && unit !== '%' && !excepted) return `${sign}${digits}${word}${unit}`;
  // The table's currency applies to the rows its caption's scale applies to: a row the caption
  // excepts (per-share amounts, share counts) says only what it prints.
  const currency = figure.currency ?? (unit && CURRENCY_SIGN.test(unit) && !excepted ? unit : '');
  const spaced = word !== '' && /^\p{Script=Latin}/u.test(word) ? ` ${word}` : word;
  return `${sign}${currency}${digits}${spaced}`;
}

/**
 * The row facts of a table, one line per row that has at least one figure or word under its
 * columns. `caption` is the caption text printed with the table (its scale and exceptions).
 */
export function rowFacts(table: DocTable, caption: readonly string[]): string[] {
  return factsByRow(table, caption).filter((f): f is string => f !== null);
}

/** {@link rowFacts} by row index: null for a row with nothing under its columns (a group heading). */
export function factsByRow(table: DocTable, caption: readonly string[]): (string | null)[] {
  const facts: CaptionFacts = captionFacts([...caption, table.title]);
  const scale = facts.scale ?? table.scale;
  return table.rows.map((row, i) => {
    const path = labelPath(row, table.title || `Row ${i + 1}`);
    const { scale: ownScale, excepted } = rowScale({ ...facts, scale }, path);
    const said = row.cells.flatMap((cell, k) => {
      if (!cell) return [];
      // A column whose header names its own scale ("Aggregate Fair Value (in millions)") says it.
      const header = table.columns[k] ?? '';
      const columnScale = SCALE_IN_HEADER.exec(header)?.[1]?.toLowerCase() ?? null;
      const text = figureText(cell, table.unit, columnScale ?? ownScale, excepted && !columnScale);
      if (text === null || text === '') return [];
      return [header.trim() !== '' ? `${header.trim()}: ${text}` : text];
    });
    return said.length > 0 ? `${path} — ${said.join('; ')}` : null;
  });
}
