import type { FlatLine, LineStats } from './flat-lines.ts';
import { looksLikeTitle, type Heading } from './heading.ts';

/** How distinct a line must look to be a heading by typography alone. */
export interface TypographyOptions {
  /** Font size, relative to body text, from which a short line is a heading. @defaultValue 1.15 */
  largerBy: number;
  /** Candidates holding more than this share of the text mean the sizes carry no structure (slides, forms). @defaultValue 0.3 */
  maxShare: number;
}

const DEFAULTS: TypographyOptions = { largerBy: 1.15, maxShare: 0.3 };

function isAllCaps(text: string): boolean {
  const letters = text.replace(/[^\p{L}]/gu, '');
  return letters.length >= 3 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
}

/**
 * Headings found by typography when no numbering is there: short lines set in a larger font
 * than the body, and short ALL-CAPS lines with space above them, each followed by body text.
 * A title wrapped over consecutive lines of the same size is one heading. Larger sizes nest
 * smaller ones.
 */
export function typographyHeadings(
  lines: readonly FlatLine[],
  dropped: ReadonlySet<number>,
  stats: LineStats,
  options: Partial<TypographyOptions> = {},
): Heading[] {
  const opts = { ...DEFAULTS, ...options };
  const body = stats.bodyFontSize;
  if (body <= 0) return [];
  const size = (l: FlatLine): number => Math.round(l.fontSize * 2) / 2;
  const large = (l: FlatLine): boolean => l.fontSize >= body * opts.largerBy;
  const caps = (l: FlatLine): boolean =>
    isAllCaps(l.text) && l.text.split(/\s+/).length <= 8 && l.fontSize >= body * 0.95 && l.gapBefore > 1.3;

  const found: Array<{ line: number; span: number; title: string; size: number; caps: boolean }> = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line || dropped.has(i) || !looksLikeTitle(line.text) || /^[\d\s.()-]+$/u.test(line.text)) continue;
    const isLarge = large(line);
    if (!isLarge && !caps(line)) continue;
    // A title wrapped onto the next line(s): same size, same page, no paragraph gap.
    let span = 1;
    let title = line.text;
    while (span < 3) {
      const next = lines[i + span];
      if (!next || dropped.has(i + span) || next.page !== line.page || size(next) !== size(line) || next.gapBefore > 1.6) break;
      if (!isLarge && !isAllCaps(next.text)) break;
      title += ` ${next.text}`;
      span++;
    }
    const after = lines[i + span];
    // A heading introduces body text set smaller than itself (or, for caps, not in caps).
    if (!after || (isLarge ? after.fontSize >= line.fontSize - 0.25 : isAllCaps(after.text))) continue;
    found.push({ line: i, span, title, size: size(line), caps: !isLarge });
    i += span - 1;
  }
  const total = lines.reduce((n, l) => n + l.text.length, 0);
  if (found.reduce((n, f) => n + f.title.length, 0) > opts.maxShare * total) return [];
  const sizes = [...new Set(found.filter((f) => !f.caps).map((f) => f.size))].sort((a, b) => b - a);
  return found.map((f) => ({
    line: f.line,
    span: f.span,
    title: f.title,
    rest: '',
    rank: f.caps ? sizes.length + 1 : sizes.indexOf(f.size) + 1,
    source: 'typography' as const,
  }));
}
