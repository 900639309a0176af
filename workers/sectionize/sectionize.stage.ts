import type { ExtractedDocument } from '../../shared/domain/extracted.ts';
import type { Section } from '../../shared/domain/section.ts';
import { sectionize, type SectionizeOptions } from '../../shared/sectionize/sectionize.ts';

export { DEFAULT_SECTIONIZE_OPTIONS, type SectionizeOptions } from '../../shared/sectionize/sectionize.ts';

/**
 * The sectionize stage: an extracted document in, its sections out (headings, hierarchy,
 * paths, body text, page ranges). Pure and synchronous; never returns an empty leaf section.
 */
export function sectionizeStage(doc: ExtractedDocument, options?: Partial<SectionizeOptions>): Section[] {
  return sectionize(doc, options);
}
