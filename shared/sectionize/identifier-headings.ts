import type { FlatLine } from './flat-lines.ts';
import type { Heading } from './heading.ts';

// A framework core printed as a table of identifiers (NIST CSF): functions "IDENTIFY (ID)",
// categories "Asset Management (ID.AM): <outcome>", subcategories "ID.AM-1: <outcome>"; CSF 2.0
// gives functions an outcome too ("GOVERN (GV): The organization's …") and numbers "GV.OC-01".
const FUNCTION = /^(\p{Lu}[\p{Lu} ]{2,30}\p{Lu}\s*\(([A-Z]{2})\))(?:\s*:\s*(.*))?$/u;
// A table's first row may print the function and the category cells on one line.
const FUNCTION_THEN_CATEGORY = /^(\p{Lu}[\p{Lu} ]{2,30}\p{Lu}\s*\(([A-Z]{2})\))\s+(\p{Lu}.*\(\2\.[A-Z]{2}\).*)$/u;
const CATEGORY = /^(\p{Lu}[^():]{2,100}?\s*\(([A-Z]{2})\.([A-Z]{2})\))\s*:?\s*(.*)$/u;
// The outcome starts a sentence: "ID.AM-1 and PR.AC-1 are referenced …" is prose, not a row.
const SUBCATEGORY = /^([A-Z]{2})\.([A-Z]{2})-(\d{1,3})\s*[:.]?\s+\p{Lu}/u;
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

/**
 * Headings of a framework whose structure is a table of identifiers: function → category →
 * subcategory. Subcategory rows ("ID.AM-1: …") must be several and each identifier is taken
 * once (a later mapping table that repeats them is body text); a category counts only when
 * subcategories carry its code, a function only when categories do. Lines in `taken` (already
 * headings) and `dropped` (tables of contents) are skipped.
 */
export function identifierHeadings(lines: readonly FlatLine[], dropped: ReadonlySet<number>, taken: ReadonlySet<number>): Heading[] {
  const subs: Heading[] = [];
  const seen = new Set<string>();
  const categories: Array<{ h: Heading; code: string }> = [];
  const functions: Array<{ h: Heading; code: string }> = [];
  lines.forEach((line, i) => {
    if (dropped.has(i) || taken.has(i)) return;
    let text = line.text.trim();
    const sub = SUBCATEGORY.exec(text);
    if (sub) {
      const id = `${sub[1]}.${sub[2]}-${Number(sub[3])}`;
      const span = cellSpan(i, lines);
      const title = lines.slice(i, i + span).map((l) => l.text.trim()).join(' ');
      if (!seen.has(id)) subs.push({ line: i, span, title, rest: '', rank: RANK.subcategory, source: 'pattern' });
      seen.add(id);
      return;
    }
    const both = FUNCTION_THEN_CATEGORY.exec(text);
    if (both) {
      // The function precedes the category on its line: a virtual heading (span 0) before it.
      functions.push({ h: { line: i, span: 0, title: both[1] ?? '', rest: '', rank: RANK.function, source: 'pattern' }, code: both[2] ?? '' });
      text = both[3] ?? '';
    }
    const cat = CATEGORY.exec(text);
    if (cat) {
      const h: Heading = { line: i, span: 1, title: (cat[1] ?? '').trim(), rest: (cat[4] ?? '').trim(), rank: RANK.category, source: 'pattern' };
      categories.push({ h, code: `${cat[2]}.${cat[3]}` });
      return;
    }
    const fn = FUNCTION.exec(text);
    if (fn) functions.push({ h: { line: i, span: 1, title: fn[1] ?? text, rest: (fn[3] ?? '').trim(), rank: RANK.function, source: 'pattern' }, code: fn[2] ?? '' });
  });
  if (subs.length < MIN_SUBCATEGORIES) return [];
  const subCodes = new Set(subs.map((h) => h.title.slice(0, 5)));
  const cats = categories.filter((c) => subCodes.has(c.code));
  const catFunctions = new Set(cats.map((c) => c.code.slice(0, 2)));
  const fns = functions.filter((f) => catFunctions.has(f.code));
  const all = [...fns.map((f) => f.h), ...cats.map((c) => c.h), ...subs].sort((a, b) => a.line - b.line || a.span - b.span);
  // A row with nothing under it (no references column) keeps its outcome as its text, so it
  // stays a section of its own instead of an empty heading folded into the row before.
  return all.map((h, k) => {
    if (h.rank !== RANK.subcategory || (all[k + 1]?.line ?? lines.length) > h.line + h.span) return h;
    return { ...h, rest: h.title.replace(SUBCATEGORY_ID, '') };
  });
}
