/**
 * Tables into sections: each detected table is placed in the section it was printed in, and its
 * printed lines are taken out of that section's text (as a table of contents' lines are kept out
 * of headings), so a figure lives in one chunk, the table's, and never twice.
 */
import type { LineSpan, Section, PlacedTable } from '../domain/index.ts';
import { detectTables, type DetectOptions } from './detect.ts';
import type { SourceLine } from './pieces.ts';

/** Sections with the tables' lines taken out, and the tables placed in them. */
export interface SectionsWithTables {
  sections: Section[];
  tables: PlacedTable[];
}

/** The section each printed line belongs to (body or heading). */
function sectionOfLine(sections: readonly Section[]): Map<number, Section> {
  const out = new Map<number, Section>();
  for (const s of sections) {
    for (const line of s.headingLines ?? []) out.set(line, s);
    for (const span of s.spans ?? []) out.set(span[3], s);
  }
  return out;
}

/** The section a table was printed in: the one holding its first row's line, else the nearest line before it. */
function placeOf(first: number, owner: ReadonlyMap<number, Section>, sections: readonly Section[]): Section | undefined {
  for (let line = first; line >= 0; line--) {
    const s = owner.get(line);
    if (s) return s;
  }
  return sections[0];
}

interface Piece {
  start: number;
  end: number;
  spans: LineSpan[];
}

/**
 * A section's text without the given lines. Spans sharing one range of text (a paragraph given to
 * each of its lines) are one piece, dropped only when all its lines go. What separated two kept
 * pieces stays; where dropped pieces stood between them, a paragraph break does.
 */
export function withoutLines(section: Section, drop: ReadonlySet<number>): Section {
  const spans = section.spans ?? [];
  if (!spans.some((s) => drop.has(s[3]))) return section;
  const pieces: Piece[] = [];
  for (const span of [...spans].sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
    const last = pieces[pieces.length - 1];
    if (last && last.start === span[0] && last.end === span[1]) last.spans.push(span);
    else pieces.push({ start: span[0], end: span[1], spans: [span] });
  }
  const text = section.text;
  let out = '';
  const kept: LineSpan[] = [];
  let prevEnd = 0;
  let dropped = false;
  for (const piece of pieces) {
    const own = piece.spans.filter((s) => !drop.has(s[3]));
    if (own.length === 0) {
      dropped = true;
      continue;
    }
    // Text before the first piece (none, as spans are written) is kept with it.
    const gap = dropped ? (out === '' ? '' : '\n\n') : text.slice(prevEnd, piece.start);
    out += gap;
    const shift = out.length - piece.start;
    for (const [s, e, page, line] of own) kept.push([s + shift, e + shift, page, line]);
    out += text.slice(piece.start, piece.end);
    prevEnd = piece.end;
    dropped = false;
  }
  if (!dropped) out += text.slice(prevEnd);
  const pages = kept.map((s) => s[2]);
  const pageEnd = pages.length > 0 ? Math.max(section.pageStart, ...pages) : section.pageStart;
  return { ...section, text: out.trim() === '' ? '' : out, spans: kept, pageEnd };
}

/**
 * Finds the tables among a document's printed lines (`lines`: its reading-order lines, as
 * shared/sectionize's flattenLines gives them) and places them in `sections`: each table gets the
 * id of the section it was printed in and, when nothing above it reads like a title, that
 * section's title; every section loses the table lines from its text.
 */
export function placeTables(lines: readonly SourceLine[], sections: readonly Section[], options: Partial<DetectOptions> = {}): SectionsWithTables {
  const detected = detectTables(lines, options);
  if (detected.length === 0) return { sections: [...sections], tables: [] };
  const owner = sectionOfLine(sections);
  const tables: PlacedTable[] = [];
  const drop = new Set<number>();
  for (const d of detected) {
    const rowLines = d.lines.filter((l) => l[2] >= 0).map((l) => l[0]);
    const first = Math.min(...(rowLines.length > 0 ? rowLines : d.lines.map((l) => l[0])));
    const section = placeOf(first, owner, sections);
    if (!section) continue;
    for (const [line] of d.lines) drop.add(line);
    const title = d.table.title.trim() !== '' ? d.table.title : section.title;
    tables.push({ section: section.id, table: { ...d.table, title }, caption: d.caption, lines: d.lines });
  }
  return { sections: sections.map((s) => withoutLines(s, drop)), tables };
}
