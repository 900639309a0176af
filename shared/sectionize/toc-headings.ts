import type { FlatLine } from './flat-lines.ts';
import type { Heading } from './heading.ts';
import { hasLeaders, matchHeading } from './heading-patterns.ts';

// Entries of a list of figures or tables name captions, which sit inside sections.
const CAPTION = /^(?:table|figure|fig\.|exhibit|chart|listing)\s/iu;
const LEADER_TAIL = /\s*(?:(?:\.\s?){3,}|…+)\s*\S{0,6}\s*$/u;

function fold(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * Unnumbered top-level entries of a dot-leader table of contents ("Contributors", "Author's
 * Address" in an RFC) that appear again, alone on a line, after the TOC: the TOC vouches for
 * them as headings, which no pattern could. Only entries at the TOC's outermost indentation
 * are used, as rank 1.
 */
export function tocTitleHeadings(lines: readonly FlatLine[], dropped: ReadonlySet<number>, taken: ReadonlySet<number>): Heading[] {
  const entries: Array<{ title: string; x: number }> = [];
  let tocEnd = -1;
  for (const i of dropped) {
    const line = lines[i];
    if (!line || !hasLeaders(line.text)) continue;
    entries.push({ title: line.text.replace(LEADER_TAIL, '').trim(), x: line.x });
    tocEnd = Math.max(tocEnd, i);
  }
  if (entries.length === 0) return [];
  const minX = Math.min(...entries.map((e) => e.x));
  const wanted = new Set(
    entries.filter((e) => Math.abs(e.x - minX) <= 3 && e.title && !CAPTION.test(e.title) && !matchHeading(e.title)).map((e) => fold(e.title)),
  );
  const out: Heading[] = [];
  for (let i = tocEnd + 1; i < lines.length && wanted.size > 0; i++) {
    const line = lines[i];
    if (!line || dropped.has(i) || taken.has(i)) continue;
    const key = fold(line.text);
    if (!wanted.has(key)) continue;
    wanted.delete(key);
    out.push({ line: i, span: 1, title: line.text, rest: '', rank: 1, source: 'pattern' });
  }
  return out;
}
