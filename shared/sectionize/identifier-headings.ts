import type { FlatLine } from './flat-lines.ts';
import type { Heading } from './heading.ts';
import { rowCells } from './identifier-rows.ts';

// A framework core printed as a table of identifiers (NIST CSF): functions "IDENTIFY (ID)",
// categories "Asset Management (ID.AM): <outcome>", subcategories "ID.AM-1: <outcome>"; CSF 2.0
// gives functions an outcome too ("GOVERN (GV): The organization's …") and numbers "GV.OC-01".
// A row's cells may share a text line (identifier-rows.ts).
const SUBCATEGORY_ID = /^[A-Z]{2}\.[A-Z]{2}-\d{1,3}\s*[:.]?\s+/u;

/** Ranks below any numbered heading, so the table nests under the appendix or chapter that prints it. */
const RANK = { function: 20, category: 21, subcategory: 22 } as const;
/** Fewer subcategory rows than this are mentions, not a framework table. */
const MIN_SUBCATEGORIES = 3;
/** A subcategory's outcome wraps over at most this many lines of its cell. */
const MAX_TITLE_LINES = 4;

/**
 * Lines a subcategory's outcome occupies in its cell: the lines right below at the same
 * indentation that continue it in lower case ("ID.AM-1: Physical devices and" / "systems …").
 */
function cellSpan(i: number, lines: readonly FlatLine[]): number {
  const first = lines[i];
  let span = 1;
  while (first && span < MAX_TITLE_LINES) {
    const next = lines[i + span];
    if (!next || next.page !== first.page || Math.abs(next.x - first.x) > 2 || next.gapBefore > 1.5 || !/^\p{Ll}/u.test(next.text)) break;
    span++;
  }
  return span;
}

/** Per parent code, the first line a child carrying it opens at (`parentOf` maps a child's code to its parent's). */
function firstLines(children: ReadonlyArray<{ h: Heading; code: string }>, parentOf: (code: string) => string): Map<string, number> {
  const first = new Map<string, number>();
  for (const { h, code } of children) {
    const key = parentOf(code);
    if (h.line < (first.get(key) ?? Infinity)) first.set(key, h.line);
  }
  return first;
}

/**
 * A node opens no later than its first child. A table whose function cell spans its rows prints
 * the function's name centred in them, or draws it after them, so its line comes after its
 * first categories (on the table's first page, after the first functions' whole rows): such a
 * function opens as a virtual heading (span 0) at its first category, and its printed line is
 * text where it stands. Parents printed before their first child are left as they are.
 */
function openAtFirstChild(parents: ReadonlyArray<{ h: Heading; code: string }>, firstChild: ReadonlyMap<string, number>): Array<{ h: Heading; code: string }> {
  const byCode = new Map<string, Array<{ h: Heading; code: string }>>();
  for (const p of parents) byCode.set(p.code, [...(byCode.get(p.code) ?? []), p]);
  const out: Array<{ h: Heading; code: string }> = [];
  for (const [code, list] of byCode) {
    const first = firstChild.get(code);
    const opensFirst = first === undefined || list.some((p) => p.h.line < first || (p.h.line === first && p.h.span === 0));
    const head = list[0];
    if (opensFirst || !head || first === undefined) out.push(...list);
    else out.push({ code, h: { line: first, span: 0, title: head.h.title, rest: '', rank: head.h.rank, source: head.h.source } });
  }
  return out;
}

/**
 * Headings of a framework whose structure is a table of identifiers: function → category →
 * subcategory. Subcategory rows ("ID.AM-1: …") must be several and each identifier is taken
 * once (a later mapping table that repeats them is body text); a category counts only when
 * subcategories carry its code, a function only when categories do. Lines in `taken` (already
 * headings) and `dropped` (tables of contents) are skipped.
 */
export function identifierHeadings(lines: readonly FlatLine[], dropped: ReadonlySet<number>, taken: ReadonlySet<number>): Heading[] {
  const subs: Array<{ h: Heading; code: string }> = [];
  const seen = new Set<string>();
  const categories: Array<{ h: Heading; code: string }> = [];
  const functions: Array<{ h: Heading; code: string }> = [];
  lines.forEach((line, i) => {
    if (dropped.has(i) || taken.has(i)) return;
    const cells = rowCells(line.text.trim());
    cells.forEach((cell, k) => {
      if (cell.level === 'subcategory') {
        // A row of its own may wrap in its cell; one printed after its category's cell ends the line.
        const span = k === 0 ? cellSpan(i, lines) : 1;
        const title = k === 0 ? lines.slice(i, i + span).map((l) => l.text.trim()).join(' ') : cell.title;
        if (!seen.has(cell.code)) subs.push({ h: { line: i, span, title, rest: '', rank: RANK.subcategory, source: 'pattern' }, code: cell.code });
        seen.add(cell.code);
        return;
      }
      // A cell followed on its line by an inner one is a virtual heading (span 0) before it.
      const last = k === cells.length - 1;
      const h: Heading = { line: i, span: last ? 1 : 0, title: cell.title, rest: last ? cell.rest : '', rank: RANK[cell.level], source: 'pattern' };
      (cell.level === 'category' ? categories : functions).push({ h, code: cell.code });
    });
  });
  if (subs.length < MIN_SUBCATEGORIES) return [];
  const subCodes = new Set(subs.map((s) => s.code.slice(0, 5)));
  const cats = openAtFirstChild(
    categories.filter((c) => subCodes.has(c.code)),
    firstLines(subs, (code) => code.slice(0, 5)),
  );
  const catFunctions = new Set(cats.map((c) => c.code.slice(0, 2)));
  const fns = openAtFirstChild(
    functions.filter((f) => catFunctions.has(f.code)),
    firstLines(cats, (code) => code.slice(0, 2)),
  );
  // Outer before inner where they share a line: function, category, subcategory.
  const all = [...fns, ...cats, ...subs].map((x) => x.h).sort((a, b) => a.line - b.line || a.span - b.span || a.rank - b.rank);
  // A row with nothing under it (no references column) keeps its outcome as its text, so it
  // stays a section of its own instead of an empty heading folded into the row before.
  return all.map((h, k) => {
    if (h.rank !== RANK.subcategory || (all[k + 1]?.line ?? lines.length) > h.line + h.span) return h;
    return { ...h, rest: h.title.replace(SUBCATEGORY_ID, '') };
  });
}
