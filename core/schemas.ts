/**
 * The API's zod schemas, one set for every face: the HTTP routes parse request bodies with them
 * (and publish them in the OpenAPI document), the MCP tools declare them as input and output
 * schemas, the CLI checks its flags with them. A field renamed here is renamed everywhere.
 */
import { z } from 'zod';
import { AgentAnswer } from '../shared/runs/index.ts';
import { DocId, IsoDate } from '../shared/domain/index.ts';
import { ERROR_CODES } from '../shared/errors.ts';
import { DocStatus } from '../shared/status/index.ts';
import { and, isIn, temporalClamp, type Filter } from '../shared/store/index.ts';

/** `POST /v1/query`'s body; the `ask` tool and `quarry query` take a part of it. */
export const QueryBody = z
  .object({
    query: z.string().trim().min(1, 'must not be empty').max(2000),
    asOf: IsoDate.optional(),
    alpha: z.number().min(0).max(1).optional(),
    /** Answer 202 with a run id at once instead of waiting. */
    async: z.boolean().optional(),
    /** Override how long to wait before answering 202 (streaming: before the TIMEOUT error event). */
    timeoutMs: z.number().int().min(100).max(120_000).optional(),
    /** Answer `text/event-stream` (as `Accept: text/event-stream` does): run, node…, delta…, citations, done (or error). */
    stream: z.boolean().optional(),
  })
  .strict();

/** Feedback on a run: which of its cited chunks helped. */
export const FeedbackBody = z
  .object({
    useful: z.array(z.string().uuid()).max(100).default([]),
    verdict: z.enum(['useful', 'not_useful']),
  })
  .strict();
export type FeedbackBody = z.infer<typeof FeedbackBody>;

/** A run as a client sees it: its state and, once done, its answer or its error. */
export const RunView = z.object({
  runId: z.string(),
  state: z.enum(['queued', 'running', 'completed', 'failed']),
  answer: AgentAnswer.optional(),
  error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }).optional(),
});
export type RunView = z.infer<typeof RunView>;

/** An uploaded file's name: a plain file name (no directories, no hidden files) ending in .pdf. */
export const UploadName = z
  .string()
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._()-]{0,200}\.pdf$/iu, 'a plain file name ending in .pdf (letters, digits, space, . _ ( ) -)')
  .refine((n) => !n.includes('..'), 'must not contain ".."');

/**
 * Filters a search narrows to; every field optional. Lists match any of their values.
 * `asOf` keeps only passages valid on that date (valid_from ≤ asOf < valid_to).
 */
export const SearchFilters = z
  .object({
    docType: z.array(z.string().min(1).max(100)).min(1).max(20).optional(),
    jurisdiction: z.array(z.string().min(1).max(100)).min(1).max(20).optional(),
    lang: z.array(z.string().min(1).max(20)).min(1).max(20).optional(),
    asOf: IsoDate.optional(),
  })
  .strict();
export type SearchFilters = z.infer<typeof SearchFilters>;

/** The store filter of a search's filters; undefined when there are none. */
export function searchFilter(f: SearchFilters | undefined): Filter | undefined {
  if (!f) return undefined;
  const parts: Filter[] = [];
  if (f.docType) parts.push(isIn('doc_type', f.docType));
  if (f.jurisdiction) parts.push(isIn('jurisdiction', f.jurisdiction));
  if (f.lang) parts.push(isIn('lang', f.lang));
  if (f.asOf) parts.push(temporalClamp(f.asOf));
  return parts.length ? and(...parts) : undefined;
}

/**
 * A hybrid search request: the query text, filters, the keyword/vector weight and how many hits.
 * Field names and bounds follow `POST /v1/query` (`query`, `alpha`); a search endpoint of the
 * HTTP API should parse this same schema.
 */
export const SearchRequest = z
  .object({
    query: QueryBody.shape.query,
    filters: SearchFilters.optional(),
    /** 0 = keyword only, 1 = vector only; absent: the configured default. */
    alpha: QueryBody.shape.alpha,
    /** @defaultValue 10 */
    limit: z.number().int().min(1).max(100).default(10),
  })
  .strict();
export type SearchRequest = z.infer<typeof SearchRequest>;

/** The `ask` tool's input: `POST /v1/query`'s body without its HTTP-only fields (async, timeoutMs). */
export const AskRequest = QueryBody.pick({ query: true, asOf: true, alpha: true });
export type AskRequest = z.infer<typeof AskRequest>;

/** One document by id (the id `GET /v1/documents/:id` takes). */
export const DocumentRequest = z.object({ docId: DocId }).strict();

/** A chunk and up to `neighbours` chunks each side of it in its document (by chunk_index). */
export const ChunkRequest = z
  .object({
    chunkId: z.string().uuid(),
    /** @defaultValue 1 */
    neighbours: z.number().int().min(0).max(10).default(1),
  })
  .strict();
export type ChunkRequest = z.infer<typeof ChunkRequest>;

/** A page of the document list, in registration order. */
export const ListDocumentsRequest = z
  .object({
    /** @defaultValue 0 */
    offset: z.number().int().min(0).default(0),
    /** @defaultValue 20 */
    limit: z.number().int().min(1).max(200).default(20),
  })
  .strict();
export type ListDocumentsRequest = z.infer<typeof ListDocumentsRequest>;

const Pages = z.object({ start: z.number().int(), end: z.number().int() });

/** One search hit: where the passage is, its score terms and its text. */
export const SearchHitView = z.object({
  rank: z.number().int().positive(),
  chunkId: z.string(),
  docId: z.string(),
  title: z.string().nullable(),
  sectionPath: z.string(),
  pages: Pages,
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  scores: z.object({ fused: z.number(), keyword: z.number(), vector: z.number() }),
  text: z.string(),
});
export type SearchHitView = z.infer<typeof SearchHitView>;

export const SearchResult = z.object({ query: z.string(), alpha: z.number(), hits: z.array(SearchHitView) });
export type SearchResult = z.infer<typeof SearchResult>;

/** The part of the agent's answer the `ask` tool returns. */
export const AskResult = AgentAnswer.pick({ runId: true, text: true, citations: true, dateQualifier: true, asOf: true, validated: true });
export type AskResult = z.infer<typeof AskResult>;

/** A chunk for reading: its place in the document and its text. */
export const ChunkView = z.object({
  chunkId: z.string(),
  docId: z.string(),
  version: z.string(),
  chunkIndex: z.number().int(),
  totalChunks: z.number().int(),
  sectionPath: z.string(),
  pages: Pages,
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  text: z.string(),
});
export type ChunkView = z.infer<typeof ChunkView>;

export const ChunkResult = z.object({ chunk: ChunkView, before: z.array(ChunkView), after: z.array(ChunkView) });
export type ChunkResult = z.infer<typeof ChunkResult>;

export const DocumentResult = z.object({
  docId: z.string(),
  title: z.string().nullable(),
  status: DocStatus,
  /** The indexed Document row (type, jurisdiction, language, validity, profile); null until indexed. */
  document: z.record(z.string(), z.unknown()).nullable(),
});
export type DocumentResult = z.infer<typeof DocumentResult>;

export const DocumentSummary = z.object({
  docId: z.string(),
  title: z.string().nullable(),
  state: DocStatus.shape.state,
  stage: z.string(),
  progress: z.number(),
  pages: z.number().int().nullable(),
  chunks: z.number().int().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type DocumentSummary = z.infer<typeof DocumentSummary>;

export const ListDocumentsResult = z.object({
  total: z.number().int(),
  offset: z.number().int(),
  documents: z.array(DocumentSummary),
  /** The offset of the next page, or null on the last one. */
  nextOffset: z.number().int().nullable(),
});
export type ListDocumentsResult = z.infer<typeof ListDocumentsResult>;
