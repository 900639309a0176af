/** What the table detector hands on, and what it keeps of a table while joining continued ones. */
import type { DocTable } from '../domain/index.ts';

/** A table found in a document, with the printed lines it holds (see PlacedTable.lines). */
export interface DetectedTable {
  table: DocTable;
  /** Caption lines printed with it, as printed ("(In millions, except per share amounts)"). */
  caption: string[];
  /** `[line, page, row]` for every printed line it holds: row ≥ 0 a table row, -1 the header, -2 the caption. */
  lines: Array<[number, number, number]>;
}

/** A detected table with what continuation is judged by. */
export interface TableDraft {
  detected: DetectedTable;
  /** Positions (in the detector's line list) of its topmost line and its last row. */
  top: number;
  end: number;
  /** Whether its title is only the page's running head, printed above everything else on the page. */
  titleAtPageTop: boolean;
  /** Right edges of its columns, left to right. */
  edges: number[];
  /** Its rows' font size. */
  em: number;
}
