/**
 * A table read from a page as data: columns with their (possibly multi-line) headers, rows with
 * their labels, indentation and cells, the unit and scale its caption states, and where each
 * cell was printed. A chunk holding a table carries it (Chunk.table): its body is the table as
 * Markdown, and an answer can name a figure by row and column instead of quoting a flattened line.
 */
import { z } from 'zod';

/** A rectangle on a page in PDF points: x and y of the baseline's start (origin bottom-left), width, height. */
export const Box = z.tuple([z.number(), z.number(), z.number().nonnegative(), z.number().nonnegative()]);
export type Box = z.infer<typeof Box>;

/** One cell as printed, and its value when it is a number. */
export const TableCell = z.object({
  /** The cell's text as printed ("$ 81,797", "(1,234)", "3 %", "—"). */
  text: z.string(),
  /** Its number: parentheses and a leading minus make it negative; null for a dash, blank or words. */
  value: z.number().nullable(),
  page: z.number().int().positive(),
  box: Box.optional(),
});
export type TableCell = z.infer<typeof TableCell>;

export const TableRow = z.object({
  /** The row's label as printed ("Total net sales"); empty for a row of figures without one. */
  label: z.string(),
  /** Indentation depth of the label (0 outermost): a "Total" row sits under its group's heading row. */
  level: z.number().int().nonnegative(),
  /** Labels of the rows above it that it sits under (a group heading such as "Net sales:"), outermost first. */
  parents: z.array(z.string()),
  /** One per column (null: nothing printed in that column). */
  cells: z.array(TableCell.nullable()),
  /** The printed line the row came from (its index in the document's reading-order lines). */
  line: z.number().int().nonnegative(),
  page: z.number().int().positive(),
});
export type TableRow = z.infer<typeof TableRow>;

export const DocTable = z.object({
  /** What the table is: its caption or the heading above it ("CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS"). */
  title: z.string(),
  /** Column headers, each its header lines joined top to bottom ("Three Months Ended July 1, 2023"). */
  columns: z.array(z.string()),
  rows: z.array(TableRow),
  /** The currency or unit its caption or cells state ("$", "%"), when one does. */
  unit: z.string().nullable(),
  /** The scale its caption states ("millions" for "(In millions, except per-share amounts)"), when one does. */
  scale: z.string().nullable(),
  pageStart: z.number().int().positive(),
  pageEnd: z.number().int().positive(),
});
export type DocTable = z.infer<typeof DocTable>;

/**
 * A table as the sectionize stage hands it to the chunk stage (`sections.json`): the table, the
 * section it was printed in, its caption lines, and every printed line it holds. Its lines are
 * out of that section's text; the chunk stage makes the table a chunk of its own.
 */
export const PlacedTable = z.object({
  /** Id of the section the table was printed in (Section.id). */
  section: z.string(),
  table: DocTable,
  /** Caption lines printed with it ("(In millions, except per-share amounts)"), shown under its title. */
  caption: z.array(z.string()),
  /**
   * Every printed line it holds, as `[line, page, row]`: `row` ≥ 0 is the table row the line was
   * printed for (one row may be printed on two lines: a wrapped label), -1 a header line, -2 a
   * caption line (a table continued on a new page may print its header and caption again there).
   */
  lines: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().positive(), z.number().int().min(-2)])),
});
export type PlacedTable = z.infer<typeof PlacedTable>;

/** `table` as a store keeps it: one JSON text cell (null when the chunk holds no table). */
export function encodeTable(table: DocTable | undefined): string | null {
  return table ? JSON.stringify(table) : null;
}

/** `{ table }` from a stored cell, or nothing: anything unreadable (an older row) reads as no table. */
export function optionalTable(cell: unknown): { table?: DocTable } {
  if (typeof cell !== 'string' || cell === '') return {};
  try {
    const parsed = DocTable.safeParse(JSON.parse(cell));
    return parsed.success ? { table: parsed.data } : {};
  } catch {
    return {};
  }
}
