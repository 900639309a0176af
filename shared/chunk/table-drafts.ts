/**
 * Table chunks: each table the sectionize stage placed (PlacedTable) becomes a chunk of its own,
 * its body the table as Markdown, its `table` the data, filed under the section it was printed
 * in. A table too large for one chunk is split into row groups, each repeating the title,
 * caption and header (rows without their column names are unreadable) and carrying only its
 * rows as data. Each chunk's spans map every Markdown row to the printed line it came from.
 */
import { sectionPathString, type LineSpan, type Section, type DocTable, type PlacedTable } from '../domain/index.ts';
import { factsByRow, renderTable, rowLine } from '../tables/index.ts';
import { pagesOf } from './line-pages.ts';
import type { ChunkPolicy } from './policy.ts';
import type { TokenCounter } from './tokenizer.ts';

/** A table chunk before numbering and ids (the fields of chunker.ts's ChunkDraft, and the table's). */
export interface TableChunkDraft {
  section: string;
  sectionPath: string;
  body: string;
  pageStart: number;
  pageEnd: number;
  overlapUnits: number;
  tokenCount: number;
  spans: LineSpan[];
  headingLines: number[];
  /** The table as data, limited to this chunk's rows. */
  table: DocTable;
  /** Row facts of this chunk's rows (see shared/tables/facts.ts): indexed with the body, never shown as it. */
  facts: string[];
  /** The first printed line the chunk holds: where it goes among the section's other chunks. */
  firstLine: number;
}

/**
 * How much more than a chunk's body its embedding text may hold with the row facts added. Facts
 * say each figure with its row and column, about twice the body's tokens: three times the body
 * ceiling keeps a table chunk's embedding text inside what embedding endpoints take (8k tokens
 * for OpenAI-compatible ones) while a statement of 40 rows still fits in one or two chunks.
 */
const FACTS_BUDGET = 3;

/** Row groups of a table: consecutive rows while the body fits `maxTokens` and body + facts the facts budget. */
function rowGroups(table: DocTable, caption: readonly string[], facts: readonly (string | null)[], policy: ChunkPolicy, counter: TokenCounter): number[][] {
  const head = counter.count(renderTable(table, caption, []).text);
  const groups: number[][] = [];
  let group: number[] = [];
  let body = head;
  let all = head;
  table.rows.forEach((row, i) => {
    const rowTokens = counter.count(rowLine(row)) + 1;
    const factTokens = counter.count(facts[i] ?? '') + 1;
    if (group.length > 0 && (body + rowTokens > policy.maxTokens || all + rowTokens + factTokens > FACTS_BUDGET * policy.maxTokens)) {
      groups.push(group);
      group = [];
      body = head;
      all = head;
    }
    group.push(i);
    body += rowTokens;
    all += rowTokens + factTokens;
  });
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * The part (index into `groups`) holding each printed line: a row's lines go with the row; a
 * header or caption line with the first row printed after it (the header printed again on a new
 * page is held by the part whose rows it heads there).
 */
function partOfLines(placed: PlacedTable, groups: readonly number[][]): Map<number, number> {
  const partOfRow = new Map<number, number>();
  groups.forEach((rows, k) => rows.forEach((r) => partOfRow.set(r, k)));
  const rowLines = placed.lines.filter((l) => l[2] >= 0).sort((a, b) => a[0] - b[0]);
  const out = new Map<number, number>();
  for (const [line, , row] of placed.lines) {
    const next = row >= 0 ? row : (rowLines.find((l) => l[0] > line)?.[2] ?? 0);
    out.set(line, partOfRow.get(next) ?? 0);
  }
  return out;
}

/** Spans of one part: its rows' lines on their rows; its header and caption lines on its header row and caption lines. */
function partSpans(placed: PlacedTable, rendered: ReturnType<typeof renderTable>, part: number, partOf: ReadonlyMap<number, number>): LineSpan[] {
  const spans: LineSpan[] = [];
  let caption = 0;
  for (const [line, page, row] of [...placed.lines].sort((a, b) => a[0] - b[0])) {
    if (partOf.get(line) !== part) continue;
    let range: [number, number] | undefined;
    // A caption printed again on a new page takes the caption lines in turn, as printed.
    if (row === -2) range = rendered.captions[caption++ % Math.max(rendered.captions.length, 1)];
    else if (row === -1) range = rendered.header;
    else range = rendered.rows.get(row);
    if (range) spans.push([range[0], range[1], page, line]);
  }
  // Body order, as line pages are read (see linePages).
  return spans.sort((a, b) => a[0] - b[0] || a[3] - b[3]);
}

/**
 * The chunk drafts of one placed table, filed under `section` (the section it was printed in;
 * without it, under the table's own title).
 */
export function tableDrafts(placed: PlacedTable, section: Section | undefined, policy: ChunkPolicy, counter: TokenCounter): TableChunkDraft[] {
  const { table, caption } = placed;
  const facts = factsByRow(table, caption);
  const groups = rowGroups(table, caption, facts, policy, counter);
  const partOf = partOfLines(placed, groups);
  const sectionPath = section ? sectionPathString(section.path) : table.title;
  return groups.map((rows, k) => {
    const rendered = renderTable(table, caption, rows);
    const spans = partSpans(placed, rendered, k, partOf);
    const part: DocTable = { ...table, rows: rows.map((i) => table.rows[i] as DocTable['rows'][number]) };
    const pages = pagesOf(spans) ?? { pageStart: table.pageStart, pageEnd: table.pageEnd };
    return {
      section: section?.heading ?? table.title.toLowerCase(),
      sectionPath,
      body: rendered.text,
      ...pages,
      overlapUnits: 0,
      tokenCount: counter.count(rendered.text),
      spans,
      headingLines: [],
      table: { ...part, pageStart: pages.pageStart, pageEnd: pages.pageEnd },
      facts: rows.flatMap((i) => facts[i] ?? []),
      firstLine: Math.min(...spans.map((s) => s[3])),
    };
  });
}

/** The drafts of every placed table, each filed under the section it names. */
export function tablesDrafts(tables: readonly PlacedTable[], sections: readonly Section[], policy: ChunkPolicy, counter: TokenCounter): TableChunkDraft[] {
  const byId = new Map(sections.map((s) => [s.id, s]));
  return tables.flatMap((t) => tableDrafts(t, byId.get(t.section), policy, counter)).sort((a, b) => a.firstLine - b.firstLine);
}

/**
 * Section drafts and table drafts in reading order: each table chunk goes before the first
 * section chunk printed after it (by first printed line). A draft without lines (an artifact
 * from before spans) keeps its place after the one before it.
 */
export function inReadingOrder<D extends { spans: LineSpan[]; headingLines: number[] }>(drafts: readonly D[], tables: readonly TableChunkDraft[]): Array<D | TableChunkDraft> {
  const out: Array<D | TableChunkDraft> = [];
  let t = 0;
  for (const d of drafts) {
    const lines = [...d.spans.map((s) => s[3]), ...d.headingLines];
    const first = lines.length > 0 ? Math.min(...lines) : -1;
    while (first >= 0 && t < tables.length && (tables[t] as TableChunkDraft).firstLine < first) out.push(tables[t++] as TableChunkDraft);
    out.push(d);
  }
  return [...out, ...tables.slice(t)];
}
