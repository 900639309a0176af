/**
 * Financial statements, their notes and the auditor's report, as headings. Annual and quarterly
 * reports, filings and earnings releases print the same few statements under a standard
 * vocabulary (US GAAP and IFRS names: statements of operations / income / comprehensive income /
 * cash flows / financial position / changes in equity, balance sheets), each under a title block
 * of its own, then "Notes to … Financial Statements" numbered "Note 1 – …" or "1. …". Those
 * titles are the document's structure whatever their typography, so they are read by their words.
 *
 * Pure functions over flat lines; nothing here knows a company or a line item.
 */
import type { FlatLine } from './flat-lines.ts';
import { looksLikeTitle, type Heading } from './heading.ts';

/** What a financial heading heads. */
export type FinancialKind = 'statement' | 'notes' | 'note' | 'auditor';

/** A financial heading found in a range of lines. */
export interface FinancialHeading {
  kind: FinancialKind;
  /** First line of its title block (the entity line above the title, when there is one). */
  line: number;
  /** Lines of the title block. */
  span: number;
  /** The title as printed (without the entity line). */
  title: string;
  /** The entity line's text ("Apple Inc.") when the block starts with one, kept as the section's first text. */
  rest: string;
}

const QUALIFIERS = String.raw`(?:(?:condensed|consolidated|combined|interim|unaudited|audited|summary|summarized|selected|group|parent\s+company)\s+){0,3}`;
// The subjects statements are named after; "statements of" must be followed by one of them soon.
const SUBJECT = String.raw`(?:(?:the\s+)?(?:\S+\s+){0,2}?(?:operations|income|earnings|loss|cash\s+flows?|financial\s+(?:position|condition|performance)|(?:stockholders|shareholders|members|partners|owners)['’]?\s+(?:equity|deficit|investment)|changes\s+in\s+\S+|equity|net\s+assets|profit))`;
// Suffixes of a title block printed on the title's line: "(Unaudited)", "(In millions)", "— continued", "for the three months ended …".
const SUFFIX = String.raw`(?:\s*\((?:[^()]|\([^()]*\))*\))*(?:\s*[—–-]\s*continued)?(?:\s*[,:]?\s+(?:for\s+the|as\s+(?:of|at)|at)\s+.*)?`;
const STATEMENT_OF = new RegExp(String.raw`^${QUALIFIERS}statements?\s+of\s+${SUBJECT}\b.*?$`, 'iu');
const NAMED_STATEMENT = new RegExp(
  String.raw`^${QUALIFIERS}(?:balance\s+sheets?|(?:(?:comprehensive\s+)?income|cash\s+flows?|(?:stockholders|shareholders)['’]?\s+equity|changes\s+in\s+equity|profit\s+(?:and|or)\s+loss)\s+statements?)${SUFFIX}$`,
  'iu',
);
const NOTES_TITLE = new RegExp(String.raw`^notes\s+to\s+(?:the\s+)?${QUALIFIERS}financial\s+statements${SUFFIX}$`, 'iu');
const AUDITOR = /^(?:report\s+of\s+independent\s+(?:registered\s+public\s+accounting\s+firm|auditors?|accountants)|independent\s+auditors?['’]?s?\s+report)$/iu;
// "Note 4 – Income Taxes", "NOTE 4 — INCOME TAXES", "Note 4: Income Taxes", "Note 4" alone.
const NOTE = /^note\s+(\d{1,2})(?:\s*[.:—–-]+\s*|\s+|$)(.*)$/iu;
// "4. Income Taxes", "4 – Income Taxes": a note numbered without the word, only under a notes title.
const NUMBERED_NOTE = /^(\d{1,2})(?:\.\s*|\s*[:—–-]\s*|\s+)(\p{Lu}.*)$/u;
// An index entry ends in its page ("… as of December 31, 2022 5", "… Pages 4 - 23", "…… 7"),
// unlike a date ("… ended December 31").
const PAGE_REFERENCE = /(?:\s(?:pages?\s+)?\d{1,3}(?:\s*[-–,]\s*\d{1,3})*|\.{3,}\s*\d*)$/iu;
const DAY_OF_MONTH = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}$/iu;
const CONTINUED = /\(continued\)|[—–-]\s*continued$/iu;
// A title wrapped onto the next line ends mid-phrase.
const DANGLING = /(?:\s(?:of|and|in|for|to|the|on|or)|,)$/iu;

/** Whether a line ends with a page reference, as an entry of a table of contents or an index does. */
export function endsWithPageReference(text: string): boolean {
  const t = text.trim();
  return PAGE_REFERENCE.test(t) && !DAY_OF_MONTH.test(t);
}

/** Whether a line (or two, wrapped) is the title of a financial statement. */
export function isStatementTitle(text: string): boolean {
  const t = text.trim();
  if (!looksLikeTitle(t, 24, 200) || endsWithPageReference(t)) return false;
  if (NAMED_STATEMENT.test(t)) return true;
  if (!STATEMENT_OF.test(t)) return false;
  // "Statements of Operations (Unaudited)": the title, then at most a suffix.
  const core = t.replace(new RegExp(`${SUFFIX}$`, 'iu'), '');
  return core.split(/\s+/u).length <= 12;
}

/** The notes title ("Notes to Condensed Consolidated Financial Statements (Unaudited)"). */
export function isNotesTitle(text: string): boolean {
  const t = text.trim();
  return t.length <= 160 && NOTES_TITLE.test(t);
}

/** "condensed consolidated statements of operations (unaudited)" and its "(continued)" page share this. */
function statementBase(title: string): string {
  return title
    .toLowerCase()
    .replace(/\((?:[^()]|\([^()]*\))*\)/gu, ' ')
    .replace(/[—–-]\s*continued$/u, ' ')
    .replace(/\s(?:for\s+the|as\s+(?:of|at)|at)\s.*$/u, ' ')
    .replace(/[^\p{L}]+/gu, ' ')
    .trim();
}

/** A note's title: short, not a sentence ("Note 4 — Commitments and Contingencies." in prose is not one). */
function noteTitleShaped(title: string): boolean {
  return title === '' || (looksLikeTitle(title, 18, 150) && !endsWithPageReference(title) && !/[.,;:]["'”’)]+$/u.test(title));
}

/** An entity's name line: short, capitalised, no figures, not a clause ("Apple Inc.", "AMAZON.COM, INC."). */
function entityShaped(text: string): boolean {
  return (
    text.length <= 80 &&
    text.split(/\s+/u).length <= 8 &&
    /^\p{Lu}/u.test(text) &&
    !/\d/u.test(text) &&
    !/[,;:]$/u.test(text) &&
    !/\p{Ll}\.\s+\p{Lu}/u.test(text) &&
    !isStatementTitle(text) &&
    !isNotesTitle(text)
  );
}

/** The next note number a chain accepts: the one after the last (a missed heading may be skipped), or 1 or 2 to start. */
function nextNote(last: number, n: number): boolean {
  return last === 0 ? n <= 2 : n === last + 1 || n === last + 2;
}

/**
 * Lines a title occupies: one, or two when it is wrapped (ends mid-phrase and the next line of
 * the same page, close below, completes it) or when the first line is a bare number ("Note 4").
 */
function titleSpan(lines: readonly FlatLine[], i: number, skip: ReadonlySet<number>, bare: boolean, test: (joined: string) => boolean): number {
  const line = lines[i];
  const next = lines[i + 1];
  if (!line || !next || skip.has(i + 1) || next.page !== line.page || next.gapBefore > 1.6) return 1;
  if (!bare && !DANGLING.test(line.text.trim())) return 1;
  return test(`${line.text.trim()} ${next.text.trim()}`) ? 2 : 1;
}

/**
 * The entity line a statement's title block opens with ("Apple Inc.", "NVIDIA CORPORATION AND
 * SUBSIDIARIES"): a name line right above the title on the same page, set apart from what
 * precedes it and close to the title. It belongs to the statement, not to whatever precedes it
 * (a row label of the statement before would sit close above, not set apart).
 */
function entityAbove(lines: readonly FlatLine[], i: number, skip: ReadonlySet<number>, floor: number): FlatLine | null {
  const above = lines[i - 1];
  const title = lines[i];
  if (i - 1 < floor || !above || !title || skip.has(i - 1) || above.page !== title.page) return null;
  if (title.gapBefore > 2 || title.gapBefore <= 0.3 || above.gapBefore < 1.2) return null;
  return entityShaped(above.text.trim()) ? above : null;
}

/**
 * Financial headings in lines `[from, to)`: statement titles (a title repeated on the next page
 * of a multi-page statement, or marked "(continued)", is the same statement and no heading), the
 * auditor's report, the notes title and the notes' chain ("Note 1", "Note 2", … or, under a
 * notes title, "1.", "2.", …; numbers only go up, so a "see Note 4" wrapped to a line start is
 * no heading). Statement titles after the notes begin are tables inside a note. Lines in `skip`
 * (tables of contents, lines already headings) are never taken.
 */
export function financialHeadings(lines: readonly FlatLine[], skip: ReadonlySet<number>, from = 0, to = lines.length): FinancialHeading[] {
  const out: FinancialHeading[] = [];
  let inNotes = false;
  let notesTitled = false;
  let lastNote = 0;
  let current: string | null = null;
  for (let i = from; i < to; i++) {
    const line = lines[i];
    if (!line || skip.has(i)) continue;
    const text = line.text.trim();
    if (AUDITOR.test(text)) {
      out.push({ kind: 'auditor', line: i, span: 1, title: text, rest: '' });
      current = null;
      continue;
    }
    if (isNotesTitle(text)) {
      // "Notes to … (Continued)" at the top of each later page of the notes is no new section.
      if (inNotes && (CONTINUED.test(text) || notesTitled)) continue;
      const entity = entityAbove(lines, i, skip, from);
      out.push({ kind: 'notes', line: entity ? i - 1 : i, span: entity ? 2 : 1, title: text, rest: entity?.text.trim() ?? '' });
      inNotes = true;
      notesTitled = true;
      lastNote = 0;
      continue;
    }
    const note = NOTE.exec(text) ?? (notesTitled && inNotes ? NUMBERED_NOTE.exec(text) : null);
    if (note) {
      const n = Number(note[1]);
      const title = (note[2] ?? '').trim();
      if (nextNote(lastNote, n) && noteTitleShaped(title) && (title !== '' || NOTE.test(text))) {
        const span = titleSpan(lines, i, skip, title === '', (joined) => noteTitleShaped(joined.replace(/^\S+\s+\d+\s*/u, '')));
        const printed = lines.slice(i, i + span).map((l) => l.text.trim()).join(' ');
        out.push({ kind: 'note', line: i, span, title: printed, rest: '' });
        lastNote = n;
        inNotes = true;
        i += span - 1;
        continue;
      }
    }
    if (inNotes) continue;
    const span = isStatementTitle(text) ? 1 : titleSpan(lines, i, skip, false, isStatementTitle);
    const title = lines.slice(i, i + span).map((l) => l.text.trim()).join(' ');
    if (!isStatementTitle(title)) continue;
    const base = statementBase(title);
    i += span - 1;
    if (base === current || (CONTINUED.test(title) && out.some((h) => h.kind === 'statement' && statementBase(h.title) === base))) continue;
    current = base;
    const entity = entityAbove(lines, i - span + 1, skip, from);
    const start = i - span + 1;
    out.push({ kind: 'statement', line: entity ? start - 1 : start, span: entity ? span + 1 : span, title, rest: entity?.text.trim() ?? '' });
  }
  return out;
}

/** Distinct statements among `found`: one statement title alone may be a mention, two or more are a set. */
export function statementCount(found: readonly FinancialHeading[]): number {
  return new Set(found.filter((h) => h.kind === 'statement').map((h) => statementBase(h.title))).size;
}

/** Lines `[line, line + span)` of a heading (a virtual one occupies the line it precedes). */
function linesOf(h: { line: number; span: number }): number[] {
  return Array.from({ length: Math.max(1, h.span) }, (_, k) => h.line + k);
}

/**
 * Where a statement's table ends: the end of its title's page, or of a later page that opens
 * with its title again (a multi-page statement), and never past the next financial heading.
 */
function statementEnd(lines: readonly FlatLine[], h: FinancialHeading, next: number): number {
  const base = statementBase(h.title);
  let end = h.line + h.span;
  let page = lines[h.line]?.page ?? 0;
  while (end < next) {
    const line = lines[end];
    if (!line) break;
    if (line.page !== page) {
      const top = lines.slice(end, end + 3).filter((l) => l.page === line.page);
      if (!top.some((l) => isStatementTitle(l.text) && statementBase(l.text) === base)) break;
      page = line.page;
    }
    end++;
  }
  return end;
}

/**
 * The financial statements and notes of a document that is not laid out as a filing (an
 * earnings release, an annual report), merged into the headings found otherwise: each statement,
 * the notes title and every note become headings — a heading found on the same lines (the
 * entity and title caught as one capitalised heading) gives way to them, and headings inside a
 * statement's table (its "ASSETS" and "LIABILITIES" captions) are dropped. Statements and the
 * notes title take the rank of a heading already found on one of them, else the outermost rank
 * below the document's title; notes nest one deeper. Unchanged when the document prints fewer
 * than two statements and no notes title: one such line may be a mention. Only lines `[from,
 * to)` are searched (an exhibit's pages).
 */
export function withFinancialHeadings(headings: readonly Heading[], lines: readonly FlatLine[], dropped: ReadonlySet<number>, from = 0, to = lines.length): Heading[] {
  const found = financialHeadings(lines, dropped, from, to);
  if (statementCount(found) < 2 && !found.some((h) => h.kind === 'notes')) return [...headings];
  const claimed = new Set(found.flatMap(linesOf));
  const sorted = [...headings].sort((a, b) => a.line - b.line);
  const onBlock = sorted.find((h) => linesOf(h).some((i) => claimed.has(i)) && found.some((f) => f.kind !== 'note' && linesOf(f).includes(h.line)));
  const outer = sorted.slice(1).reduce((r, h) => Math.min(r, h.rank), Infinity);
  const rank = onBlock?.rank ?? (Number.isFinite(outer) ? outer : (sorted[0]?.rank ?? 1));
  const inside: Array<[number, number]> = found.flatMap((f, k): Array<[number, number]> =>
    f.kind === 'statement' ? [[f.line + f.span, statementEnd(lines, f, found[k + 1]?.line ?? to)]] : [],
  );
  const kept = sorted.filter((h) => !linesOf(h).some((i) => claimed.has(i)) && !inside.some(([a, b]) => h.line >= a && h.line < b));
  const added = found.map((f): Heading => ({ line: f.line, span: f.span, title: f.title, rest: f.rest, rank: f.kind === 'note' ? rank + 1 : rank, source: 'pattern' }));
  return [...kept, ...added].sort((a, b) => a.line - b.line || a.span - b.span);
}
