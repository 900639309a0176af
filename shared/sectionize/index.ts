/**
 * Sectionizing: the extracted lines → headings (outline, patterns, typography, tables of
 * contents, numbering, a transcript's speakers) → a section tree with section paths and pages.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: sectionize and DEFAULT_SECTIONIZE_OPTIONS, flattenLines, lineInventory.
 */

export { isSizePart } from './density-sections.ts';
export { flattenLines, lineInventory, type FlatLine } from './flat-lines.ts';
export { looksLikeTitle } from './heading.ts';
export { DEFAULT_SECTIONIZE_OPTIONS, sectionize, type SectionizeOptions } from './sectionize.ts';
export { isSpeakerLine } from './speaker-headings.ts';
export { isStatementTitle } from './statement-headings.ts';
