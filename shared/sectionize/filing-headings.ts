/**
 * The structure of a regulatory filing (10-K, 10-Q, 20-F, 8-K): "PART I — FINANCIAL
 * INFORMATION", "Item 1. Financial Statements", "Item 1A. Risk Factors", "Item 2.02 Results of
 * Operations…" — numbered by the form itself, printed first in the table of contents and then
 * as headings, with the financial statements and their numbered notes inside an item, and
 * signatures, certifications and exhibits after the last item. None of it depends on the
 * typography (filings are often HTML printed to PDF: headings in the body font), so it is read
 * from the words, the numbering and the order.
 */
import type { FlatLine, LineStats } from './flat-lines.ts';
import { looksLikeTitle, type Heading } from './heading.ts';
import { endsWithPageReference, financialHeadings, isNotesTitle, isStatementTitle, statementCount, withFinancialHeadings, type FinancialHeading } from './statement-headings.ts';
import { startsLate } from './late-numbering.ts';
import { typographyHeadings } from './typography-headings.ts';

/** Ranks of a filing's headings: parts enclose items, items enclose statements, the notes enclose notes. */
const RANK = { part: 1, item: 2, closing: 1, front: 1, statement: 3, note: 4 } as const;

const PART = /^part\s+(iv|i{1,3})(?:\s*[.:—–-]\s*|\s+|$)(.*)$/iu;
// "Item 1A. Risk Factors", "ITEM 7A —", "Item 2.02 Results of Operations…", "Item 2." alone.
const ITEM = /^item\s+(\d{1,2})(?:\.(\d{2}))?([a-d])?(?:\s*[.:—–-]\s*|\s+|$)(.*)$/iu;
// An index entry's page reference ("… Risk Factors 20", "… Pages 4 - 23"), to set its title apart.
const PAGE_REFERENCE = /\s(?:pages?\s+)?\d{1,3}(?:\s*[-–,]\s*\d{1,3})*$/iu;
const CLOSING = /^(?:signatures?|certifications?(?:\s+\p{L}.*)?|exhibit\s+\d{1,3}(?:\.\d{1,3})?)$/iu;
const SIGNATURES = /^signatures?$/iu;
// A form named on the cover ("FORM 10-Q", "Form 20-F"): what makes numbered items a filing's, not a checklist's.
const FORM_NAME = /\bform\s+\d{1,2}-[a-z]{1,2}\b/iu;
/** Lines of the cover searched for the form's name. */
const COVER_LINES = 80;
const TOC_HEAD = /^(?:table\s+of\s+contents|contents|index|page|pages)$/iu;
// A title wrapped onto the next line ends mid-phrase.
const DANGLING = /(?:\s(?:of|and|in|for|to|the|on|or|by)|,)$/iu;
const ROMAN: Readonly<Record<string, number>> = { i: 1, ii: 2, iii: 3, iv: 4 };

/** A title line at least this long may have wrapped. */
const WRAPPED_LENGTH = 60;
/** Index entries closer than this many lines belong to one table of contents (sub-entries sit between them). */
const TOC_GAP = 16;
/** Entries a table of contents has at least. */
const TOC_MIN_ENTRIES = 3;

/** A line shaped like a part or an item of the form. */
interface Candidate {
  line: number;
  kind: 'part' | 'item';
  /** Part numeral, or item number, sub-number (8-K "2.02") and letter ("1A" → [1, 0, 1]). */
  key: number[];
  /** The title as printed (over `span` lines). */
  title: string;
  span: number;
  /** Ends with a page reference: an entry of an index, never a heading. */
  indexEntry: boolean;
}

/** Lexicographic order of keys. */
function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let k = 0; k < Math.max(a.length, b.length); k++) {
    const d = (a[k] ?? 0) - (b[k] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** A part's or item's own words: none (the title may be on the next line), or a title. */
function titleWords(rest: string): 'bare' | 'title' | 'index' | null {
  const t = rest.trim().replace(/\.$/u, '');
  if (t === '') return 'bare';
  if (endsWithPageReference(t) && looksLikeTitle(t.replace(PAGE_REFERENCE, ''), 24, 200)) return 'index';
  return looksLikeTitle(t, 24, 200) ? 'title' : null;
}

/** Letters all upper case (a heading set in capitals). */
function capitals(text: string): boolean {
  const letters = text.replace(/[^\p{L}]/gu, '');
  return letters.length > 0 && letters === letters.toUpperCase();
}

/**
 * How many lines a part's or item's title takes: a bare "Item 2." or "PART I." continued by its
 * title on the next line, or a title wrapped mid-phrase ("… RESULTS OF" / "OPERATIONS") or
 * wrapped in capitals onto a short last line ("… PURCHASES OF EQUITY" / "SECURITIES").
 */
function spanOf(lines: readonly FlatLine[], i: number, words: 'bare' | 'title' | 'index'): number {
  const line = lines[i];
  const next = lines[i + 1];
  if (!line || !next || next.page !== line.page || next.gapBefore > 1.6 || words === 'index') return 1;
  const t = next.text.trim();
  if (PART.test(t) || ITEM.test(t) || !looksLikeTitle(t, 12, 120)) return 1;
  // A wrapped line runs the width of the page, and its tail keeps its font (a statement's title below does not).
  const capsTail = capitals(line.text) && capitals(t) && t.split(/\s+/u).length <= 3 && line.text.length >= WRAPPED_LENGTH && Math.abs(next.fontSize - line.fontSize) < 0.5 && !isStatementTitle(t) && !isNotesTitle(t);
  return words === 'bare' || DANGLING.test(line.text.trim()) || capsTail ? 2 : 1;
}

/** Parses a line as a part or an item of the form, or null. */
function candidateAt(lines: readonly FlatLine[], i: number, stats: LineStats): Candidate | null {
  const line = lines[i];
  if (!line || line.text.length > 220) return null;
  // Running heads ("Item 1A" atop each page) are set smaller than the body; headings never are.
  if (stats.bodyFontSize > 0 && line.fontSize < 0.9 * stats.bodyFontSize) return null;
  const text = line.text.trim();
  const part = PART.exec(text);
  const item = part ? null : ITEM.exec(text);
  const rest = (part ? part[2] : item?.[4]) ?? '';
  const words = part || item ? titleWords(rest) : null;
  if (!words) return null;
  const span = spanOf(lines, i, words);
  const title = lines.slice(i, i + span).map((l) => l.text.trim()).join(' ');
  if (part) return { line: i, kind: 'part', key: [ROMAN[(part[1] ?? '').toLowerCase()] ?? 0], title, span, indexEntry: words === 'index' };
  const letter = item?.[3] ? item[3].toLowerCase().charCodeAt(0) - 96 : 0;
  return { line: i, kind: 'item', key: [Number(item?.[1]), Number(item?.[2] ?? 0), letter], title, span, indexEntry: words === 'index' };
}

/** Each candidate's identity within the form: its part (as the lines before it set it) and its number. */
function identities(cands: readonly Candidate[]): string[] {
  let part = 0;
  return cands.map((c) => {
    if (c.kind === 'part') {
      part = c.key[0] ?? 0;
      return `part ${part}`;
    }
    return `${part}:${c.key.join('.')}`;
  });
}

/** Whether `next` may follow `prev` in the form's order: a higher part, or a higher item of the same part. */
function followsInForm(prev: Candidate, next: Candidate, part: number): boolean {
  if (next.kind === 'part') return (next.key[0] ?? 0) > part;
  return prev.kind === 'part' || compareKeys(next.key, prev.key) > 0;
}

/**
 * A filing's table of contents (or index): a run of three or more part and item entries close
 * together and in the form's order (the body's "PART I" right after the contents goes back, so
 * it starts the document, not the run), most of which either end with a page number or are
 * printed again further on (the headings they point to). Returns its lines, with the "TABLE OF
 * CONTENTS" / "INDEX" / "Page" lines just above it and trailing entries ("Signatures 45").
 */
function filingToc(lines: readonly FlatLine[], cands: readonly Candidate[]): Set<number> {
  const ids = identities(cands);
  const toc = new Set<number>();
  let start = 0;
  while (start < cands.length) {
    let end = start;
    let part = cands[start]?.kind === 'part' ? (cands[start]?.key[0] ?? 0) : 0;
    for (let next = cands[end + 1]; next && next.line - (cands[end]?.line ?? 0) <= TOC_GAP && followsInForm(cands[end] as Candidate, next, part); next = cands[end + 1]) {
      if (next.kind === 'part') part = next.key[0] ?? 0;
      end++;
    }
    const run = cands.slice(start, end + 1);
    const lastLine = run[run.length - 1]?.line ?? 0;
    const later = new Set(ids.slice(end + 1));
    const repeated = ids.slice(start, end + 1).filter((id) => later.has(id)).length;
    const indexed = run.filter((c) => c.indexEntry).length;
    if (run.length >= TOC_MIN_ENTRIES && Math.max(repeated, indexed) >= 0.5 * run.length) {
      const first = run[0]?.line ?? 0;
      for (let k = first; k <= lastLine; k++) toc.add(k);
      for (let k = first - 1; k >= Math.max(0, first - 3) && TOC_HEAD.test(lines[k]?.text.trim() ?? ''); k--) toc.add(k);
      for (let k = lastLine + 1; k <= lastLine + 3 && endsWithPageReference(lines[k]?.text ?? '') && (lines[k]?.text.length ?? 0) <= 80; k++) toc.add(k);
    }
    start = end + 1;
  }
  return toc;
}

/**
 * The form's own parts and items, in order: a part only after a lower one; an item only after a
 * lower one of the same part (a running head repeating the current item, or a reference back,
 * is no heading); index entries never.
 */
function formChain(cands: readonly Candidate[], toc: ReadonlySet<number>): Candidate[] {
  const out: Candidate[] = [];
  let part = 0;
  let item: number[] | null = null;
  for (const c of cands) {
    if (c.indexEntry || toc.has(c.line)) continue;
    if (c.kind === 'part') {
      if ((c.key[0] ?? 0) <= part) continue;
      part = c.key[0] ?? 0;
      item = null;
      out.push(c);
    } else if (item === null || compareKeys(c.key, item) > 0) {
      item = c.key;
      out.push(c);
    }
  }
  return out;
}

/**
 * Whether items are a filing's: the form names itself on its cover, or its items sit under parts,
 * or are numbered as a current report's ("Item 2.02"). A checklist's or a questionnaire's
 * "Item 1", "Item 2" are none of these.
 */
function formLike(lines: readonly FlatLine[], chain: readonly Candidate[]): boolean {
  if (chain.some((c) => c.kind === 'part' || (c.kind === 'item' && (c.key[1] ?? 0) > 0))) return true;
  return lines.slice(0, COVER_LINES).some((l) => FORM_NAME.test(l.text));
}

/** The first line of the page after the signatures' page (where exhibits start), or the end. */
function exhibitStart(lines: readonly FlatLine[], closing: readonly Heading[]): number {
  const signatures = closing.find((h) => SIGNATURES.test(h.title));
  const page = signatures ? lines[signatures.line]?.page : undefined;
  if (page === undefined || !signatures) return lines.length;
  const next = lines.findIndex((l, i) => i > signatures.line && l.page > page);
  return next < 0 ? lines.length : next;
}

/**
 * Headings of the exhibits from `from` on: their certification and exhibit titles, their own
 * typographic headings (a press release's headline and blocks), and their financial statements.
 */
function exhibitHeadings(lines: readonly FlatLine[], skip: ReadonlySet<number>, stats: LineStats, closing: readonly Heading[], from: number): Heading[] {
  if (from >= lines.length) return [];
  const own = closing.filter((h) => h.line >= from);
  const taken = new Set(own.map((h) => h.line));
  const typographic = typographyHeadings(lines, skip, stats).filter((h) => h.line >= from && !taken.has(h.line));
  // An exhibit's outermost headings stand beside the signatures, not under them.
  const outer = Math.min(...typographic.map((h) => h.rank));
  const ranked = typographic.map((h) => ({ ...h, rank: h.rank - outer + RANK.closing }));
  return withFinancialHeadings([...own, ...ranked], lines, skip, from, lines.length);
}

/** Signatures, certifications and exhibit titles after line `after` (the last item's heading). */
function closingHeadings(lines: readonly FlatLine[], skip: ReadonlySet<number>, after: number): Heading[] {
  const out: Heading[] = [];
  for (let i = after; i < lines.length; i++) {
    const text = lines[i]?.text.trim() ?? '';
    if (!skip.has(i) && CLOSING.test(text) && looksLikeTitle(text, 16, 160)) out.push(asHeading({ line: i, span: 1, title: text }, RANK.closing));
  }
  return out;
}

/** Typographic headings between the table of contents and the form's first heading ("Where you can find more information"). */
function frontHeadings(lines: readonly FlatLine[], skip: ReadonlySet<number>, stats: LineStats, toc: ReadonlySet<number>, first: number): Heading[] {
  const tocEnd = Math.max(-1, ...[...toc].filter((i) => i < first));
  if (tocEnd < 0) return [];
  return typographyHeadings(lines, skip, stats)
    .filter((h) => h.line > tocEnd && h.line + h.span <= first)
    .map((h) => ({ ...h, rank: RANK.front }));
}

function asHeading(c: { line: number; span: number; title: string }, rank: number, rest = ''): Heading {
  return { line: c.line, span: c.span, title: c.title, rest, rank, source: 'pattern' };
}

/** Financial headings of one item (or exhibit): kept when they are a set of statements or carry notes. */
function financialsOf(lines: readonly FlatLine[], skip: ReadonlySet<number>, from: number, to: number): Heading[] {
  const found = financialHeadings(lines, skip, from, to);
  const notes = found.filter((h) => h.kind === 'note').length;
  if (statementCount(found) < 2 && !found.some((h) => h.kind === 'notes' || h.kind === 'auditor') && notes < 2) return [];
  return found.map((h: FinancialHeading) => asHeading(h, h.kind === 'note' ? RANK.note : RANK.statement, h.rest));
}

/** What {@link filingHeadings} found. */
export interface FilingStructure {
  headings: Heading[];
  /** Lines of the form's table of contents (to be kept as a Contents section, never headings). */
  toc: Set<number>;
}

/**
 * Headings of a document laid out as a filing, or null when it is not one: its parts and items
 * (at least two items, of a form ({@link formLike}), and not so late that most of the text would
 * precede them — an index of items at the back of a report is not its structure), the financial statements, auditor's
 * report, notes title and numbered notes inside each item, signatures, certifications and
 * exhibits after the last item, and the typographic headings of front matter between the table
 * of contents and the first part (the cover before it stays the preamble). Inside an item only
 * these count: filings set table rows and captions in capitals or bold, which are no headings.
 */
export function filingHeadings(lines: readonly FlatLine[], dropped: ReadonlySet<number>, stats: LineStats): FilingStructure | null {
  const cands: Candidate[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (dropped.has(i)) continue;
    const c = candidateAt(lines, i, stats);
    if (c) cands.push(c);
  }
  if (cands.filter((c) => c.kind === 'item').length < 2) return null;
  const toc = filingToc(lines, cands);
  const chain = formChain(cands, toc);
  const first = chain[0];
  if (!first || chain.filter((c) => c.kind === 'item').length < 2 || !formLike(lines, chain)) return null;
  const skip = new Set([...dropped, ...toc]);
  const headings: Heading[] = chain.map((c) => asHeading(c, c.kind === 'part' ? RANK.part : RANK.item));
  if (startsLate(headings, lines, skip)) return null;
  const last = chain[chain.length - 1] ?? first;
  const closing = closingHeadings(lines, skip, last.line + last.span);
  // The pages after the signatures' are exhibits (certifications, an 8-K's press release): documents of their own.
  const tail = exhibitStart(lines, closing);
  headings.push(...closing.filter((h) => h.line < tail));
  headings.sort((a, b) => a.line - b.line);
  for (const h of headings) for (let k = h.line; k < h.line + h.span; k++) skip.add(k);
  const blocks = [...headings];
  blocks.forEach((h, k) => headings.push(...financialsOf(lines, skip, h.line + h.span, blocks[k + 1]?.line ?? tail)));
  headings.push(...exhibitHeadings(lines, skip, stats, closing, tail), ...frontHeadings(lines, skip, stats, toc, first.line));
  return { headings: headings.sort((a, b) => a.line - b.line || a.span - b.span), toc };
}
