/**
 * Rows of a framework core table (NIST CSF: function → category → subcategory) as the text layer
 * gives them. A table drawn line by line across its columns prints the first line of every cell
 * of a row on one text line: a function's first row reads "GOVERN (GV): The Organizational
 * Context (GV.OC): The GV.OC-01: The organizational mission is …", a category's "Risk Management
 * Strategy (GV.RM): GV.RM-01: Risk management …". Each identifier on such a line opens its own
 * node; an inner one is recognised only under the code of the one before it (GV.OC after GOVERN
 * (GV), GV.OC-01 after GV.OC), so prose that mentions identifiers never splits.
 */

/** One identifier cell found on a line. */
export interface RowCell {
  level: 'function' | 'category' | 'subcategory';
  /** "GV", "GV.OC" or "GV.OC-1" (subcategory numbers without leading zeros). */
  code: string;
  /** The cell's heading: "GOVERN (GV)", "Organizational Context (GV.OC)", or a subcategory from its identifier to the end of the line. */
  title: string;
  /** Text after the cell's heading, up to the next cell on the line (its outcome, as far as this line prints it). */
  rest: string;
}

const FUNCTION_HEAD = /^(\p{Lu}[\p{Lu} ]{2,30}\p{Lu}\s*\(([A-Z]{2})\))/u;
const CATEGORY_HEAD = /^(\p{Lu}[^():]{2,100}?\s*\(([A-Z]{2})\.([A-Z]{2})\))/u;
// The outcome starts a sentence: "ID.AM-1 and PR.AC-1 are referenced …" is prose, not a row.
const LEADING_ARTICLE = /^(?:The|A|An)\s+/u;
const SUBCATEGORY_HEAD = /^([A-Z]{2})\.([A-Z]{2})-(\d{1,3})\s*[:.]?\s+(?=\p{Lu})/u;

/** The category cell of function `fn` starting somewhere in `text` (after a word boundary). */
function categoryIn(text: string, fn: string): { at: number; title: string; code: string } | null {
  const m = new RegExp(`(?:^|\\s)(\\p{Lu}[^():]{2,100}?\\s*\\((${fn})\\.([A-Z]{2})\\))`, 'u').exec(text);
  if (!m) return null;
  const found = m[1] ?? '';
  // The function's outcome, printed in the cell before, may end in the capitalised word that opens
  // its sentence ("GOVERN (GV): The" + "Organizational Context (GV.OC)"); a category's name has no article.
  const title = found.replace(LEADING_ARTICLE, '');
  return { at: m.index + m[0].length - title.length, title, code: `${m[2]}.${m[3]}` };
}

/** The subcategory cell of category `cat` ("GV.OC") starting somewhere in `text`. */
function subcategoryIn(text: string, cat: string): { at: number; code: string } | null {
  const m = new RegExp(`(?:^|\\s)(${cat.replace('.', '\\.')})-(\\d{1,3})\\s*[:.]?\\s+\\p{Lu}`, 'u').exec(text);
  if (!m) return null;
  return { at: m.index + (m[0].startsWith(' ') ? 1 : 0), code: `${m[1]}-${Number(m[2])}` };
}

/** Text after a cell's heading: its separator dropped. */
function after(text: string): string {
  return text.replace(/^\s*:?\s*/u, '').trim();
}

/**
 * The identifier cells a line starts with, outermost first: a subcategory row alone; a category,
 * maybe followed by its first subcategory; a function, maybe followed by its first category and
 * that category's first subcategory. A function alone must end there or go on with ": <outcome>".
 * Empty when the line is no row.
 */
export function rowCells(text: string): RowCell[] {
  const sub = SUBCATEGORY_HEAD.exec(text);
  if (sub) return [{ level: 'subcategory', code: `${sub[1]}.${sub[2]}-${Number(sub[3])}`, title: text, rest: '' }];
  const cells: RowCell[] = [];
  let tail = text;
  const fn = FUNCTION_HEAD.exec(text);
  let category: { at: number; title: string; code: string } | null;
  if (fn) {
    const code = fn[2] ?? '';
    tail = text.slice(fn[0].length);
    category = categoryIn(tail, code);
    if (!category && !/^\s*(?::|$)/u.test(tail)) return [];
    cells.push({ level: 'function', code, title: (fn[1] ?? '').trim(), rest: after(category ? tail.slice(0, category.at) : tail) });
  } else {
    const cat = CATEGORY_HEAD.exec(text);
    category = cat ? { at: 0, title: (cat[1] ?? '').trim(), code: `${cat[2]}.${cat[3]}` } : null;
  }
  if (!category) return cells;
  tail = tail.slice(category.at + category.title.length);
  const inner = subcategoryIn(tail, category.code);
  cells.push({ level: 'category', code: category.code, title: category.title, rest: after(inner ? tail.slice(0, inner.at) : tail) });
  if (inner) cells.push({ level: 'subcategory', code: inner.code, title: tail.slice(inner.at).trim(), rest: '' });
  return cells;
}
