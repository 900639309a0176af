/**
 * A table continued on the next page is one table: the same columns (figures ending where they
 * ended), its header repeated or not, and nothing but running matter between the two parts. A
 * table on the next page with a caption or title of its own, or other column headers, is another
 * table, however alike its columns.
 */
import type { ReadLine } from './pieces.ts';
import type { TableDraft } from './table-draft.ts';

/** Lines a page may print after a table's last row (a note such as "See accompanying notes") or before its continuation. */
const MAX_BETWEEN_AFTER = 3;
const MAX_BETWEEN_BEFORE = 4;
/** Longer lines between two parts are prose: the table ended. */
const MAX_BETWEEN_CHARS = 100;
const CONTINUED = /[(\[]?\s*(?:continued|cont['’]?d)\s*[)\]]?/giu;
const SAYS_CONTINUED = /\b(?:continued|cont['’]?d)\b/iu;

function norm(text: string): string {
  return text.replace(CONTINUED, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => norm(x) === norm(b[i] ?? ''));
}

/** Whether `next` continues `prev` on the following page. */
function continues(prev: TableDraft, next: TableDraft, read: readonly ReadLine[]): boolean {
  const a = prev.detected.table;
  const b = next.detected.table;
  if (b.pageStart !== a.pageEnd + 1 || prev.edges.length !== next.edges.length) return false;
  const tolerance = 1.5 * Math.max(prev.em, next.em);
  if (!prev.edges.every((e, k) => Math.abs(e - (next.edges[k] ?? Infinity)) <= tolerance)) return false;
  // Its own header, caption or title must be the first part's again (or absent).
  if (b.columns.some((c) => c !== '') && !sameList(a.columns, b.columns)) return false;
  if (next.detected.caption.length > 0 && !sameList(prev.detected.caption, next.detected.caption)) return false;
  // A running head above the continued part ("Item 1" at the top of the page) is not a title of its own.
  if (b.title !== '' && !next.titleAtPageTop && norm(b.title) !== norm(a.title) && !SAYS_CONTINUED.test(b.title)) return false;
  const between = read.slice(prev.end + 1, next.top);
  const after = between.filter((r) => r.line.page === a.pageEnd).length;
  const before = between.length - after;
  return after <= MAX_BETWEEN_AFTER && before <= MAX_BETWEEN_BEFORE && between.every((r) => r.line.text.length <= MAX_BETWEEN_CHARS);
}

/**
 * `next` appended to `prev`: its rows after prev's. Its header and caption lines stay header and
 * caption lines (printed again on the new page): the chunk holding the rows printed under them
 * holds them (see table-drafts.ts).
 */
function append(prev: TableDraft, next: TableDraft): TableDraft {
  const offset = prev.detected.table.rows.length;
  const lines = next.detected.lines.map(([line, page, row]): [number, number, number] => [line, page, row < 0 ? row : row + offset]);
  const a = prev.detected.table;
  const b = next.detected.table;
  return {
    ...prev,
    end: next.end,
    detected: {
      ...prev.detected,
      table: { ...a, rows: [...a.rows, ...b.rows], pageEnd: b.pageEnd, unit: a.unit ?? b.unit, scale: a.scale ?? b.scale },
      lines: [...prev.detected.lines, ...lines],
    },
  };
}

/** Joins each table with its continuations on the following pages, in order. */
export function mergeContinuations(drafts: readonly TableDraft[], read: readonly ReadLine[]): TableDraft[] {
  const out: TableDraft[] = [];
  for (const d of drafts) {
    const prev = out[out.length - 1];
    if (prev && continues(prev, d, read)) out[out.length - 1] = append(prev, d);
    else out.push(d);
  }
  return out;
}
