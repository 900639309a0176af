/**
 * The Document record: what the person said (meta) first, then what the text says, then
 * defaults — never the clock.
 */
import type { DocumentRecord, SourceRecord } from '../domain/index.ts';
import { findValidityDates } from './dates.ts';
import { buildDocumentProfile, profileEntities } from './document-profile.ts';
import { reportTitle } from './document-title.ts';
import { detectLang } from './lang.ts';

/** What the enrich stage knows about a document besides its chunks. */
export interface DocumentFacts {
  source: SourceRecord;
  pageCount: number;
  /** The PDF's Title entry, when meaningful. */
  pdfTitle: string | null;
  /** Text of the first pages (headers, title, 시행 line). */
  firstPagesText: string;
  /** Text of all chunks, for dates in 부칙 / closing clauses and for language detection. */
  bodyText: string;
  /** Document entities, already merged and capped. */
  entities: string[];
}

/** Most document entities kept, the profile's (organisations, form, period) first. */
const MAX_DOCUMENT_ENTITIES = 200;

/** Lines that are never a title: page numbers, dates, 시행/법률 brackets, list items, URLs. */
function titleLike(line: string): boolean {
  const t = line.trim();
  if (t.length < 2 || t.length > 150) return false;
  if (!/[\p{L}]/u.test(t)) return false;
  if (/^(?:page\s+)?\d+(?:\s*(?:of|\/)\s*\d+)?$/i.test(t) || /^-\s*\d+\s*-$/.test(t)) return false;
  if (/^\[/.test(t) || /^https?:\/\//i.test(t) || /^(?:[-•*·]|\d+[.)]|[①-⑳])\s/.test(t)) return false;
  if (/^(?:draft|confidential|internal|table of contents|contents|목차|차례)$/i.test(t)) return false;
  return true;
}

/** The first title-like line among the first lines of the first page. */
export function headingTitle(firstPagesText: string): string | null {
  const lines = firstPagesText.split('\n').slice(0, 15);
  for (const line of lines) if (titleLike(line)) return line.trim().replace(/\s+/g, ' ');
  return null;
}

/** "reports/2024/Annual Report.pdf" → "Annual Report". */
export function fileTitle(sourceKey: string): string {
  const base = sourceKey.split(/[\\/]/).pop() ?? sourceKey;
  const stem = base.replace(/\.[A-Za-z0-9]{1,5}$/, '').replace(/[_]+/g, ' ').trim();
  return stem || sourceKey;
}

/**
 * Builds the Document record.
 *
 * - doc_type, jurisdiction: meta, else `'unknown'`.
 * - lang: meta, else {@link detectLang} over the first pages (or the chunks when the first pages
 *   have no letters).
 * - title: meta, else the PDF's Title unless it is an identifier (an accession number) or a
 *   filing label saying no more than the profile, for which a report naming its organisation gets
 *   one built from the profile ({@link reportTitle}), else the first heading-like line, else the
 *   file name.
 * - valid_from / valid_to: meta, else {@link findValidityDates} over the first pages and the
 *   chunks (the header wins over closing clauses by rank), else null. The PDF creation date and
 *   the ingest time are not validity dates and are never used. When meta gives only one bound,
 *   a text-found other bound is kept only if it is consistent (valid_to after valid_from).
 * - profile: organisations, period and form ({@link buildDocumentProfile}; the sidecar wins);
 *   its names and aliases lead the entities, and its form fills doc_type when meta gives none.
 */
export function buildDocumentRecord(facts: DocumentFacts): DocumentRecord {
  const { source } = facts;
  const meta = source.meta;
  const head = facts.firstPagesText;
  const langSample = /[\p{L}]/u.test(head) ? head : facts.bodyText;
  const found = findValidityDates(`${head}\n\n${facts.bodyText}`);
  let validFrom = meta.valid_from ?? found.validFrom;
  let validTo = meta.valid_to !== undefined ? meta.valid_to : found.validTo;
  // A bound read from the text never contradicts one the person gave: the text's goes.
  if (validFrom && validTo && validTo <= validFrom) {
    if (meta.valid_to === undefined) validTo = null;
    else if (meta.valid_from === undefined) validFrom = null;
  }
  const profile = buildDocumentProfile(head, facts.bodyText, meta);
  const entities = [...new Set([...profileEntities(profile), ...facts.entities])].slice(0, MAX_DOCUMENT_ENTITIES);
  return {
    doc_id: source.doc_id,
    version: source.version,
    title: meta.title ?? reportTitle(facts.pdfTitle, profile) ?? headingTitle(head) ?? fileTitle(source.source_key),
    doc_type: meta.doc_type ?? profile.form ?? 'unknown',
    jurisdiction: meta.jurisdiction ?? 'unknown',
    lang: meta.lang ?? detectLang(langSample),
    valid_from: validFrom,
    valid_to: validTo,
    entities,
    page_count: facts.pageCount,
    provenance: source.provenance,
    profile,
  };
}
