import type { Section } from '../domain/index.ts';
import { joinBody, separator } from './body-text.ts';
import type { FlatLine, LineStats } from './flat-lines.ts';

/** Size targets for splitting a document without headings. */
export interface DensityOptions {
  /** A part ends at the first paragraph break after this many characters. @defaultValue 2000 */
  targetChars: number;
  /** ... or, lacking one, at the first line break after this many. @defaultValue 3000 */
  maxChars: number;
}

/** The title of a part a document without headings is split into by size ("Part 3"). */
function partTitle(n: number): string {
  return `Part ${n}`;
}

/** Whether a section title is a size-based part's ({@link densitySections}), which names nothing printed. */
export function isSizePart(title: string): boolean {
  return /^Part \d+$/u.test(title);
}

/**
 * Splits a document without reliable headings into parts of about `targetChars`, cut at
 * paragraph boundaries (line boundaries past `maxChars`, anywhere past twice that), titled
 * "Part N".
 */
export function densitySections(
  lines: readonly FlatLine[],
  dropped: ReadonlySet<number>,
  stats: LineStats,
  options: DensityOptions,
): Section[] {
  const parts: FlatLine[][] = [];
  let current: FlatLine[] = [];
  let size = 0;
  let prev: FlatLine | undefined;
  lines.forEach((line, i) => {
    if (dropped.has(i)) return;
    if (prev && current.length > 0) {
      const sep = separator(prev, line, stats);
      const cut =
        (size >= options.targetChars && sep.includes('\n\n')) ||
        (size >= options.maxChars && sep.includes('\n')) ||
        size >= 2 * options.maxChars;
      if (cut) {
        parts.push(current);
        current = [];
        size = 0;
      }
    }
    current.push(line);
    size += line.text.length + 1;
    prev = line;
  });
  if (current.length > 0) parts.push(current);

  const sections: Section[] = [];
  for (const part of parts) {
    const { text, spans } = joinBody('', part, stats);
    if (!text.replace(/\s/gu, '')) continue;
    const n = sections.length + 1;
    const pageStart = part[0]?.page ?? 1;
    sections.push({
      id: `s${sections.length}`,
      order: sections.length,
      title: partTitle(n),
      heading: partTitle(n).toLowerCase(),
      path: [partTitle(n)],
      level: 1,
      text,
      pageStart,
      pageEnd: Math.max(pageStart, part[part.length - 1]?.page ?? pageStart),
      source: 'density',
      spans,
      headingLines: [],
    });
  }
  return sections;
}
