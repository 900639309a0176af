import type { Section } from '../domain/section.ts';
import { joinBody } from './body-text.ts';
import type { FlatLine, LineStats } from './flat-lines.ts';
import type { Heading } from './heading.ts';
import { normaliseHeading } from './heading-normalise.ts';

type Draft = Omit<Section, 'id' | 'order'>;

/** Non-space characters: what "empty" and "trivial" are measured in. */
export function visibleChars(text: string): number {
  return text.replace(/\s/gu, '').length;
}

/** Appends a paragraph to a draft's text. */
function appendText(draft: Draft, text: string): void {
  draft.text = draft.text ? `${draft.text}\n\n${text}` : text;
}

/**
 * Removes empty leaves — a heading with no body and no children — keeping their titles as text
 * of the section before them, so nothing printed is lost. Returns the preamble addition when
 * the first section was such a leaf.
 */
function dropEmptyLeaves(drafts: Draft[]): string {
  let orphan = '';
  for (let k = drafts.length - 1; k >= 0; k--) {
    const d = drafts[k];
    if (!d || visibleChars(d.text) > 0) continue;
    const next = drafts[k + 1];
    if (next && next.level > d.level) continue;
    drafts.splice(k, 1);
    const prev = drafts[k - 1];
    if (prev) appendText(prev, d.title);
    else orphan = orphan ? `${d.title}\n\n${orphan}` : d.title;
  }
  return orphan;
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
    const body = bodyLines(lines, dropped, h.line + h.span, end);
    const own = lines[h.line];
    while (stack.length > 0 && (stack[stack.length - 1]?.rank ?? 0) >= h.rank) stack.pop();
    stack.push({ rank: h.rank, title: h.title });
    const pageStart = own?.page ?? body[0]?.page ?? 1;
    drafts.push({
      title: h.title,
      heading: normaliseHeading(h.title),
      path: stack.map((s) => s.title),
      level: stack.length,
      text: joinBody(h.rest, body, stats.medianLength, own),
      pageStart,
      pageEnd: Math.max(pageStart, body[body.length - 1]?.page ?? pageStart),
      source: h.source,
    });
  });

  const orphan = dropEmptyLeaves(drafts);
  const firstLine = sorted[0]?.line ?? lines.length;
  const pre = bodyLines(lines, dropped, 0, firstLine);
  let preText = joinBody('', pre, stats.medianLength);
  if (orphan) preText = preText ? `${preText}\n\n${orphan}` : orphan;
  if (visibleChars(preText) >= options.minPreambleChars) {
    const pageStart = pre[0]?.page ?? drafts[0]?.pageStart ?? 1;
    drafts.unshift({
      title: 'Preamble',
      heading: 'preamble',
      path: ['Preamble'],
      level: 1,
      text: preText,
      pageStart,
      pageEnd: Math.max(pageStart, pre[pre.length - 1]?.page ?? pageStart),
      source: 'preamble',
    });
  }
  return drafts.map((d, order) => ({ id: `s${order}`, order, ...d }));
}
