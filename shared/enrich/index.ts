/** Enrichment: entities with spacing variants, validity dates, language, the Document record. */
export { findValidityDates, isoDate, parseDate, type ValidityDates } from './dates.ts';
export { buildDocumentRecord, fileTitle, headingTitle, type DocumentFacts } from './document.ts';
export { extractEntities, MAX_CHUNK_ENTITIES, mergeEntities, type EntityOptions } from './entities.ts';
export { canonicalTerm, koreanNounPhrases, spacingVariants, stripParticle } from './korean.ts';
export { detectLang } from './lang.ts';

export { isReportForm } from './document-profile.ts';
export { hasHangul, isNounLike } from './korean.ts';
export { bareName } from './organisation-names.ts';
export { addDays, addMonths, fiscalYearOfQuarter } from './profile-period.ts';
export { findReferences } from './references.ts';
