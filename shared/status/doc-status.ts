import { z } from 'zod';
import { Coverage, MIN_COVERAGE, DocumentProfile, parseProfile } from '../domain/index.ts';

export const DOC_STATES = ['queued', 'running', 'indexed', 'failed', 'deleting', 'deleted'] as const;
export type DocState = (typeof DOC_STATES)[number];

/**
 * Something wrong with an indexed document that did not fail it (a few pages of its text layer
 * decode to garbage: GARBLED_TEXT), with the pages concerned.
 */
export const StatusWarning = z.object({
  code: z.string(),
  message: z.string(),
  /** 1-based pages concerned; empty when the whole document is. */
  pages: z.array(z.number().int().positive()),
});
export type StatusWarning = z.infer<typeof StatusWarning>;

/** Warnings stored as JSON in one hash field; an unreadable value reads as none. */
function parseWarnings(raw: string | undefined): StatusWarning[] | undefined {
  if (!raw) return undefined;
  try {
    const parsed = z.array(StatusWarning).safeParse(JSON.parse(raw));
    return parsed.success && parsed.data.length > 0 ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Coverage stored as JSON in one hash field; an unreadable value reads as none. */
function parseCoverage(raw: string | undefined): Coverage | undefined {
  if (!raw) return undefined;
  try {
    const parsed = Coverage.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The warning a document indexed below MIN_COVERAGE carries, naming the pages whose text no chunk holds; null above it. */
export function coverageWarning(coverage: Coverage): StatusWarning | null {
  if (coverage.ratio >= MIN_COVERAGE) return null;
  const missing = coverage.bodyChars - coverage.indexedChars;
  return {
    code: 'TEXT_NOT_INDEXED',
    message: `${missing} of ${coverage.bodyChars} characters of body text (${((1 - coverage.ratio) * 100).toFixed(1)}%) are in no chunk`,
    pages: coverage.unindexed.map((u) => u.page),
  };
}

/**
 * The per-document status record: registration (source, version, generation) and progress
 * through the stages. One Redis hash per document, so every update is a single atomic write.
 */
export const DocStatus = z.object({
  docId: z.string(),
  sourceKey: z.string(),
  version: z.string(),
  gen: z.number().int(),
  state: z.enum(DOC_STATES),
  stage: z.string(),
  /** 0–100 within the current stage. */
  progress: z.number(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /** Milliseconds spent in each finished stage of this version. */
  timings: z.record(z.string(), z.number()),
  pageCount: z.number().int().nullable(),
  chunkCount: z.number().int().nullable(),
  /** Set by a stage that indexed the document with reservations; absent when there are none. */
  warnings: z.array(StatusWarning).optional(),
  /** What the document is about (organisations, period, form), once indexed; absent before. */
  profile: DocumentProfile.optional(),
  /** How much of its printed body text is indexed, once chunked (see shared/domain/coverage.ts); absent before. */
  coverage: Coverage.optional(),
  registeredAt: z.string(),
  updatedAt: z.string(),
});
export type DocStatus = z.infer<typeof DocStatus>;

/** Hash fields → DocStatus; timings are stored as `t_<stage>` fields. */
export function parseStatusHash(h: Record<string, string>): DocStatus | null {
  if (!h.doc_id) return null;
  const timings: Record<string, number> = {};
  for (const [k, v] of Object.entries(h)) if (k.startsWith('t_')) timings[k.slice(2)] = Number(v);
  const num = (v: string | undefined) => (v === undefined || v === '' ? null : Number(v));
  const coverage = parseCoverage(h.coverage);
  const lowCoverage = coverage ? coverageWarning(coverage) : null;
  const warnings = lowCoverage ? [...(parseWarnings(h.warnings) ?? []), lowCoverage] : parseWarnings(h.warnings);
  const profile = parseProfile(h.profile);
  return DocStatus.parse({
    docId: h.doc_id,
    sourceKey: h.source_key ?? '',
    version: h.version ?? '',
    gen: Number(h.gen ?? 0),
    state: h.state ?? 'queued',
    stage: h.stage ?? '',
    progress: Number(h.progress ?? 0),
    errorCode: h.error_code || null,
    errorMessage: h.error_message || null,
    timings,
    pageCount: num(h.page_count),
    chunkCount: num(h.chunk_count),
    ...(warnings ? { warnings } : {}),
    ...(profile ? { profile } : {}),
    ...(coverage ? { coverage } : {}),
    registeredAt: h.registered_at ?? '',
    updatedAt: h.updated_at ?? '',
  });
}

/** True once a document will not move again without a new registration. */
export function isSettled(s: Pick<DocStatus, 'state'>): boolean {
  return s.state === 'indexed' || s.state === 'failed' || s.state === 'deleted';
}
