export { flattenLines, lineInventory } from './flat-lines.ts';
export { looksLikeTitle } from './heading.ts';
export { DEFAULT_SECTIONIZE_OPTIONS, sectionize, type SectionizeOptions } from './sectionize.ts';
export { isStatementTitle } from './statement-headings.ts';
