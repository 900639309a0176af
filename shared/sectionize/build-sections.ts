import type { LineSpan, Section } from '../domain/index.ts';
import { joinBody } from './body-text.ts';
import type { FlatLine, LineStats } from './flat-lines.ts';
import type { Heading } from './heading.ts';
import { normaliseHeading } from './heading-normalise.ts';

type Draft = Omit<Section, 'id' | 'order' | 'spans' | 'headingLines'> & { spans: LineSpan[]; headingLines: number[] };

/** Non-space characters: what "empty" and "trivial" are measured in. */
export function visibleChars(text: string): number {
  return text.replace(/\s/gu, '').length;
}

/** Appends a paragraph printed on `lines` to a draft's text; each of those lines gets a span over all of it. */
function appendText(draft: Draft, text: string, lines: readonly FlatLine[]): void {
  const start = draft.text ? draft.text.length + 2 : 0;
  draft.text = draft.text ? `${draft.text}\n\n${text}` : text;
  draft.spans = [...draft.spans, ...lines.map((l): LineSpan => [start, start + text.length, l.page, l.index])];
}

/** Prepends a paragraph (and its spans) to a draft's text: the spans already there move along. */
function prependText(draft: Draft, text: string, spans: readonly LineSpan[]): void {
  if (!draft.text) {
    draft.text = text;
    draft.spans = [...spans];
    return;
  }
  const shift = text.length + 2;
  draft.text = `${text}\n\n${draft.text}`;
  draft.spans = [...spans, ...draft.spans.map(([s, e, p, l]): LineSpan => [s + shift, e + shift, p, l])];
}

/** Letters and digits only, lower-cased: how a title and the lines it was read from compare. */
function squashed(text: string): string {
  return text.normalize('NFKC').replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();
}

/** The printed lines of a heading (none for a virtual one). */
function headingLinesOf(lines: readonly FlatLine[], h: Pick<Heading, 'line' | 'span'>): FlatLine[] {
  return lines.slice(h.line, h.line + h.span);
}

/**
 * Removes empty leaves — a heading with no body and no children — keeping their titles as text
 * of the section before them, so nothing printed is lost. Returns the preamble addition when
 * the first section was such a leaf.
 */
function dropEmptyLeaves(drafts: Draft[], lines: readonly FlatLine[]): { text: string; spans: LineSpan[] } {
  const orphan: Draft = { title: '', heading: '', path: [], level: 1, text: '', pageStart: 1, pageEnd: 1, source: 'preamble', spans: [], headingLines: [] };
  for (let k = drafts.length - 1; k >= 0; k--) {
    const d = drafts[k];
    if (!d || visibleChars(d.text) > 0) continue;
    const next = drafts[k + 1];
    if (next && next.level > d.level) continue;
    drafts.splice(k, 1);
    const printed = d.headingLines.map((i) => lines[i]).filter((l): l is FlatLine => l !== undefined);
    const prev = drafts[k - 1];
    if (prev) appendText(prev, d.title, printed);
    else prependText(orphan, d.title, printed.map((l): LineSpan => [0, d.title.length, l.page, l.index]));
  }
  return { text: orphan.text, spans: orphan.spans };
}

/** Body lines of the document that belong to no heading and were not dropped, in [from, to). */
function bodyLines(lines: readonly FlatLine[], dropped: ReadonlySet<number>, from: number, to: number): FlatLine[] {
  const out: FlatLine[] = [];
  for (let i = from; i < to; i++) {
    const line = lines[i];
    if (line && !dropped.has(i)) out.push(line);
  }
  return out;
}

/** Finishing knobs for section assembly. */
export interface BuildOptions {
  /** A preamble with fewer non-space characters is dropped. */
  minPreambleChars: number;
}

/**
 * Turns headings into sections: each heading takes the body up to the next heading; ranks
 * become levels through a stack (so missing ranks never leave gaps), paths are the titles on
 * the stack. Text before the first heading becomes the preamble when it is not trivial.
 */
export function buildSections(
  lines: readonly FlatLine[],
  dropped: ReadonlySet<number>,
  headings: readonly Heading[],
  stats: LineStats,
  options: BuildOptions,
): Section[] {
  const sorted = [...headings].sort((a, b) => a.line - b.line || a.span - b.span);
  const drafts: Draft[] = [];
  const stack: Array<{ rank: number; title: string }> = [];
  sorted.forEach((h, k) => {
    const end = sorted[k + 1]?.line ?? lines.length;
    // A line of the heading's span whose text its title does not carry (an outline bookmark
    // pointing at a company name printed above a statement's caption) is body: only lines the
    // title holds are the heading's.
    const printed = headingLinesOf(lines, h);
    const titled = squashed(`${h.title} ${h.rest}`);
    // A line the title was read from holds it (a chapter and its first article on one line), or the title holds the line (a title wrapped over lines).
    // The heading's own line may carry body after the title (h.rest): only the rest of it counts.
    const ofTitle = printed.filter((l) => {
      const whole = squashed(l.text);
      const rest = l.index === h.line ? squashed(h.rest) : '';
      const line = rest && whole.endsWith(rest) ? whole.slice(0, whole.length - rest.length) : whole;
      if (line === '') return false;
      if (titled.includes(line) || line.includes(squashed(h.title))) return true;
      // A number the text layer moved out of place ("제 조 목적1" for 제1조(목적)): the same words.
      const words = (t: string) => t.replace(/\p{N}/gu, '');
      return words(line) !== '' && words(titled).includes(words(line));
    });
    const stray = printed.filter((l) => !ofTitle.includes(l) && !dropped.has(l.index));
    const body = [...stray, ...bodyLines(lines, dropped, h.line + h.span, end)];
    const own = lines[h.line];
    while (stack.length > 0 && (stack[stack.length - 1]?.rank ?? 0) >= h.rank) stack.pop();
    stack.push({ rank: h.rank, title: h.title });
    const pageStart = own?.page ?? body[0]?.page ?? 1;
    const joined = joinBody(h.rest, body, stats, own);
    drafts.push({
      title: h.title,
      heading: normaliseHeading(h.title),
      path: stack.map((s) => s.title),
      level: stack.length,
      text: joined.text,
      pageStart,
      pageEnd: Math.max(pageStart, body[body.length - 1]?.page ?? pageStart),
      source: h.source,
      spans: joined.spans,
      headingLines: ofTitle.map((l) => l.index),
    });
  });

  const orphan = dropEmptyLeaves(drafts, lines);
  const firstLine = sorted[0]?.line ?? lines.length;
  const pre = bodyLines(lines, dropped, 0, firstLine);
  const preamble: Draft = { title: 'Preamble', heading: 'preamble', path: ['Preamble'], level: 1, text: '', pageStart: 1, pageEnd: 1, source: 'preamble', spans: [], headingLines: [] };
  const joined = joinBody('', pre, stats);
  preamble.text = joined.text;
  preamble.spans = joined.spans;
  if (orphan.text) {
    const shift = preamble.text ? preamble.text.length + 2 : 0;
    preamble.text = preamble.text ? `${preamble.text}\n\n${orphan.text}` : orphan.text;
    preamble.spans = [...preamble.spans, ...orphan.spans.map(([s, e, p, l]): LineSpan => [s + shift, e + shift, p, l])];
  }
  if (visibleChars(preamble.text) >= options.minPreambleChars) {
    const pages = preamble.spans.map((sp) => sp[2]);
    preamble.pageStart = pages.length ? Math.min(...pages) : (drafts[0]?.pageStart ?? 1);
    preamble.pageEnd = pages.length ? Math.max(...pages) : preamble.pageStart;
    drafts.unshift(preamble);
  }
  return drafts.map((d, order) => ({ id: `s${order}`, order, ...d }));
}
