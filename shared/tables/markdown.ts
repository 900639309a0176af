/**
 * A table as Markdown: what a table chunk's body is, shown in citations and given to an LLM as
 * is. Title and caption lines first, then a pipe table whose first column holds the row labels,
 * indented by level (non-breaking spaces, which Markdown keeps), and one column per figure column.
 */
import type { DocTable, TableRow } from '../domain/index.ts';

/** A rendered table and where its parts sit in the text (offsets `[start, end)`). */
export interface RenderedTable {
  text: string;
  /** Each caption line's text, in caption order. */
  captions: Array<[number, number]>;
  /** The header row. */
  header: [number, number];
  /** Each rendered row, by its index in the table's rows. */
  rows: Map<number, [number, number]>;
}

/** Indentation per level: two non-breaking spaces (kept by Markdown, read as a space by search). */
const INDENT = '\u00a0\u00a0';

/** A cell's text made safe inside a pipe table: pipes escaped, line breaks folded. */
export function cellText(text: string): string {
  return text.replace(/\s+/gu, ' ').replace(/\|/gu, '\\|').trim();
}

/** One table row as a Markdown line. */
export function rowLine(row: TableRow): string {
  const label = `${INDENT.repeat(row.level)}${cellText(row.label)}`;
  return `| ${[label, ...row.cells.map((c) => (c ? cellText(c.text) : ''))].join(' | ')} |`;
}

/** The header row and the alignment row under it (labels left, figures right). */
function headerLines(table: DocTable): [string, string] {
  const head = `| ${['', ...table.columns.map(cellText)].join(' | ')} |`;
  const align = `| ${['---', ...table.columns.map(() => '---:')].join(' | ')} |`;
  return [head, align];
}

/**
 * Renders `table` (only the rows whose indices are in `rows`, in that order; all by default)
 * under its title and `caption` lines. A part of a split table is rendered the same way, so every
 * part repeats the title, caption and header its rows need to be read.
 */
export function renderTable(table: DocTable, caption: readonly string[], rows: readonly number[] = table.rows.map((_, i) => i)): RenderedTable {
  let text = '';
  const captions: Array<[number, number]> = [];
  const push = (line: string): [number, number] => {
    if (text !== '') text += '\n';
    const start = text.length;
    text += line;
    return [start, text.length];
  };
  if (table.title.trim() !== '') push(table.title.trim());
  for (const c of caption) captions.push(push(c.trim()));
  if (text !== '') text += '\n';
  const [head, align] = headerLines(table);
  const header = push(head);
  push(align);
  const out = new Map<number, [number, number]>();
  for (const i of rows) {
    const row = table.rows[i];
    if (row) out.set(i, push(rowLine(row)));
  }
  return { text, captions, header, rows: out };
}
