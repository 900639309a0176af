import type { Chunk, EnrichedChunk, DocumentRecord, SourceRecord, DocumentProfile } from '../../shared/domain/index.ts';
import { buildDocumentRecord, isReportForm, extractEntities, mergeEntities } from '../../shared/enrich/index.ts';

/**
 * The profile line a chunk's embedding text starts with: organisations with tickers, form and
 * period ("Apple Inc. (AAPL) · 10-Q · fiscal 2023 Q3 · …"). Only for documents about a named
 * organisation or reporting on a period: those are what look-alike documents differ in, and on
 * the example corpus (policies, laws, no organisation found) a bare kind and edition line only
 * added the same words to every chunk of most documents (measured: top-20 sets of different
 * alphas became identical).
 */
export function profileCrumb(profile: DocumentProfile | null): string {
  if (!profile) return '';
  const known = profile.organisations.length > 0 || (isReportForm(profile.form) && profile.period.end !== null);
  return known ? profile.label : '';
}

/** Input of the enrich stage: the registration record, what extraction learnt, and the chunks. */
export interface EnrichStageInput {
  source: SourceRecord;
  extracted: {
    pageCount: number;
    info: { title: string | null; creationDate: string | null };
    /** Text of the first few pages: title, 시행 header, "Effective date" lines. */
    firstPagesText: string;
  };
  chunks: Chunk[];
  /**
   * Prefix every chunk's embedding text with the document's profile line (organisation, form,
   * period), so the keyword and vector sides can tell look-alike documents apart.
   * @defaultValue true
   */
  profileBreadcrumb?: boolean;
}

/** Output of the enrich stage: the Document record and the chunks with entities and validity. */
export interface EnrichStageOutput {
  document: DocumentRecord;
  chunks: EnrichedChunk[];
}

/**
 * The enrich stage, pure and deterministic: entities per chunk (from its embedding text, so the
 * breadcrumb's "제2조(정의)" counts), document entities (union, most widespread first, capped at
 * 200), and the Document record (meta first, then the text, never the clock — see
 * `buildDocumentRecord`). Each chunk's embedding text gains the document's profile line
 * ({@link profileCrumb}) ahead of its section breadcrumb. Chunks inherit valid_from / valid_to from the document: per-chunk
 * validity (an article amended later than the rest) is not tracked yet.
 */
export function enrichStage(input: EnrichStageInput): EnrichStageOutput {
  const perChunk = input.chunks.map((c) => extractEntities(c.embedding_text));
  const document = buildDocumentRecord({
    source: input.source,
    pageCount: input.extracted.pageCount,
    pdfTitle: input.extracted.info.title,
    firstPagesText: input.extracted.firstPagesText,
    bodyText: input.chunks.map((c) => c.body).join('\n\n'),
    entities: mergeEntities(perChunk),
  });
  const crumb = input.profileBreadcrumb === false ? '' : profileCrumb(document.profile ?? null);
  const chunks = input.chunks.map((c, i) => ({
    ...c,
    // The body stays last: stores keep only what precedes it (the chunk id never depends on it).
    embedding_text: crumb ? `${crumb}\n${c.embedding_text}` : c.embedding_text,
    entities: perChunk[i] ?? [],
    valid_from: document.valid_from,
    valid_to: document.valid_to,
  }));
  return { document, chunks };
}
