import type { ExtractedDocument, Section } from '../../shared/domain/index.ts';
import { flattenLines, sectionize, type FlatLine, type SectionizeOptions } from '../../shared/sectionize/index.ts';
import { placeTables, type SectionsWithTables } from '../../shared/tables/index.ts';

export { DEFAULT_SECTIONIZE_OPTIONS, type SectionizeOptions } from '../../shared/sectionize/index.ts';
export type { SectionsWithTables } from '../../shared/tables/index.ts';

/**
 * The sectionize stage: an extracted document in, its sections out (headings, hierarchy,
 * paths, body text, page ranges). Pure and synchronous; never returns an empty leaf section.
 * Tables stay in the text here; {@link sectionizeWithTablesStage} reads them as data.
 */
export function sectionizeStage(doc: ExtractedDocument, options?: Partial<SectionizeOptions>): Section[] {
  return sectionize(doc, options);
}

/**
 * The sectionize stage as the pipeline runs it: the sections, and the tables read from the pages
 * (shared/tables), each placed in the section it was printed in. A table's lines are out of its
 * section's text: the chunk stage makes each table a chunk of its own. `lines` are the document's
 * flattenLines, when the caller has them (the book's 10,760 lines take 6–10 ms to flatten).
 */
export function sectionizeWithTablesStage(doc: ExtractedDocument, options?: Partial<SectionizeOptions>, lines: readonly FlatLine[] = flattenLines(doc)): SectionsWithTables {
  return placeTables(lines, sectionize(doc, options, lines));
}
