/**
 * Enrichment of chunks and documents: entities with spacing and alias variants, validity dates,
 * language, Korean particles and noun phrases, references, the Document record with its title and
 * profile (organisations, form, period).
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: buildDocumentRecord, extractEntities, findValidityDates, detectLang.
 */

export { findValidityDates, isoDate, parseDate, type ValidityDates } from './dates.ts';
export { buildDocumentRecord, fileTitle, headingTitle, type DocumentFacts } from './document.ts';
export { extractEntities, MAX_CHUNK_ENTITIES, mergeEntities, type EntityOptions } from './entities.ts';
export { canonicalTerm, koreanNounPhrases, spacingVariants, stripParticle } from './korean.ts';
export { detectLang } from './lang.ts';

export { isReportForm, reportsOnPeriod } from './document-profile.ts';
export { hasHangul, isNounLike } from './korean.ts';
export { bareName } from './organisation-names.ts';
export { addDays, addMonths, fiscalYearOfQuarter } from './profile-period.ts';
export { findReferences } from './references.ts';
