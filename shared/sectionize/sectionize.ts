import type { ExtractedDocument, Section } from '../domain/index.ts';
import { buildSections, visibleChars } from './build-sections.ts';
import { withContents } from './contents-sections.ts';
import { densitySections } from './density-sections.ts';
import { filingHeadings } from './filing-headings.ts';
import { flattenLines, lineStats, type FlatLine, type LineStats } from './flat-lines.ts';
import type { Heading } from './heading.ts';
import { matchHeading, type HeadingMatch } from './heading-patterns.ts';
import { identifierHeadings } from './identifier-headings.ts';
import { startsLate } from './late-numbering.ts';
import { nestByNumber } from './number-nesting.ts';
import { outlineHeadings } from './outline-headings.ts';
import { patternHeadings } from './pattern-headings.ts';
import { speakerHeadings } from './speaker-headings.ts';
import { withFinancialHeadings } from './statement-headings.ts';
import { findTocLines } from './toc.ts';
import { tocTitleHeadings } from './toc-headings.ts';
import { typographyHeadings } from './typography-headings.ts';

/** Knobs of the sectionizer. */
export interface SectionizeOptions {
  /** Use the PDF outline as the structure when it covers the document better than numbering does. @defaultValue true */
  useOutline: boolean;
  /** Density fallback: a part ends at the first paragraph break after this many characters. @defaultValue 2000 */
  densityTargetChars: number;
  /** Density fallback: hard-ish upper size of a part. @defaultValue 3000 */
  densityMaxChars: number;
  /**
   * Text before the first heading shorter than this (non-space characters) makes no section of its
   * own. @defaultValue 1 (any printed text is kept: coverage counts every line, and a short
   * preamble merges with its neighbours into one chunk)
   */
  minPreambleChars: number;
  /** A document this short may rest on a single heading; longer ones need two. @defaultValue 3000 */
  singleHeadingMaxChars: number;
}

/** Defaults of {@link SectionizeOptions}. */
export const DEFAULT_SECTIONIZE_OPTIONS: SectionizeOptions = {
  useOutline: true,
  densityTargetChars: 2000,
  densityMaxChars: 3000,
  minPreambleChars: 1,
  singleHeadingMaxChars: 3000,
};

/** Share of matched bookmarks that numbering already found, above which the outline adds nothing. */
const OUTLINE_REDUNDANT = 0.6;

const APPENDIX = /^(?:appendix|annex)\b/iu;

/**
 * When numbering starts only at an appendix (an unnumbered policy ending in "Appendix A" with
 * numbered FAQ items), the text before it is structured by typography, if at all: those
 * headings, so the body is not one preamble.
 */
function typographyBeforeAppendix(headings: readonly Heading[], lines: readonly FlatLine[], dropped: ReadonlySet<number>, stats: LineStats): Heading[] {
  const first = [...headings].sort((a, b) => a.line - b.line)[0];
  if (!first || !APPENDIX.test(first.title)) return [];
  const before = typographyHeadings(lines, dropped, stats).filter((h) => h.line + h.span <= first.line);
  return before.length >= 2 ? before : [];
}

/**
 * Splits an extracted document into sections. Structure comes from, in order of preference:
 * a filing's form (parts, items, financial statements and notes; filing-headings.ts), a call
 * transcript's sessions and speakers (speaker-headings.ts), the outline (when it covers the document and numbering does not already explain it),
 * numbering patterns (Korean statute markers, decimal, appendix letters, roman), typography,
 * and finally a size-based split. Tables of contents are dropped first so they never become
 * empty duplicate sections. Linear in the number of lines (the chain search looks back a
 * bounded window). `lines` are the document's {@link flattenLines}, when the caller has them.
 */
export function sectionize(doc: ExtractedDocument, options: Partial<SectionizeOptions> = {}, lines: readonly FlatLine[] = flattenLines(doc)): Section[] {
  const opts = { ...DEFAULT_SECTIONIZE_OPTIONS, ...options };
  if (lines.length === 0) return [];
  const stats = lineStats(lines);

  const matches = new Map<number, HeadingMatch>();
  lines.forEach((line, i) => {
    const m = matchHeading(line.text);
    if (m) matches.set(i, m);
  });
  const dropped = findTocLines(lines, matches);
  for (const i of dropped) matches.delete(i);
  // A filing's own table of contents lists its items: kept as Contents, never as headings.
  const filing = filingHeadings(lines, dropped, stats);
  for (const i of filing?.toc ?? []) {
    dropped.add(i);
    matches.delete(i);
  }

  const totalChars = lines.reduce((n, l) => n + visibleChars(l.text), 0);
  const enough = (hs: readonly Heading[]): boolean => hs.length >= 2 || (hs.length === 1 && totalChars <= opts.singleHeadingMaxChars);

  const numbering = patternHeadings(lines, matches, stats);
  const patterns = [...numbering, ...identifierHeadings(lines, dropped, new Set(numbering.map((h) => h.line)))];
  let headings: Heading[] = filing?.headings ?? [];
  // A call transcript is structured by who speaks, whatever else its pages print.
  if (headings.length === 0) headings = speakerHeadings(lines, dropped);
  if (headings.length === 0 && opts.useOutline && doc.outline.length >= 2) {
    const fromOutline = outlineHeadings(doc.outline, lines, dropped);
    const patternLines = new Set(patterns.map((h) => h.line));
    const explained = fromOutline.headings.filter((h) => h.span > 0 && patternLines.has(h.line)).length;
    const covers = fromOutline.matched >= 2 && fromOutline.matched >= 0.5 * doc.outline.length;
    if (covers && explained < OUTLINE_REDUNDANT * fromOutline.matched) headings = fromOutline.headings;
  }
  if (headings.length === 0 && enough(patterns) && !(startsLate(patterns, lines, dropped) && enough(typographyHeadings(lines, dropped, stats)))) {
    headings = [...patterns, ...tocTitleHeadings(lines, dropped, new Set(patterns.map((h) => h.line)))];
    headings = [...typographyBeforeAppendix(headings, lines, dropped, stats), ...headings];
  }
  if (headings.length === 0) {
    const typographic = typographyHeadings(lines, dropped, stats);
    if (enough(typographic)) headings = typographic;
  }
  // Statements and notes of a report or release that is no filing (a filing's are in its items).
  if (!filing) headings = withFinancialHeadings(headings, lines, dropped);
  const bySize = () => densitySections(lines, dropped, stats, { targetChars: opts.densityTargetChars, maxChars: opts.densityMaxChars });
  if (headings.length === 0) return withContents(bySize(), lines, dropped, stats);
  const sections = buildSections(lines, dropped, nestByNumber(headings), stats, { minPreambleChars: opts.minPreambleChars });
  // Every heading may have turned out empty (headings without text): split by size instead.
  return withContents(sections.length > 0 ? sections : bySize(), lines, dropped, stats);
}
