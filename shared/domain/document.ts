import { z } from 'zod';
import { DocId, Version } from './ids.ts';

/** ISO calendar date, YYYY-MM-DD, validated as a real date. */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'date: YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'not a real calendar date');
export type IsoDate = z.infer<typeof IsoDate>;

/**
 * What a person may say about a document in a `<name>.meta.json` sidecar or a manifest line.
 * Every field is optional: lang is detected, dates are read from the text, the title from the PDF.
 */
export const DocumentMeta = z
  .object({
    doc_type: z.string().min(1).max(64).optional(),
    jurisdiction: z.string().min(1).max(32).optional(),
    lang: z.string().regex(/^[a-z]{2,3}$/, 'lang: ISO 639 code such as en or ko').optional(),
    valid_from: IsoDate.optional(),
    valid_to: IsoDate.nullable().optional(),
    title: z.string().min(1).max(500).optional(),
    password: z.string().optional(),
  })
  .strict()
  .refine((m) => !m.valid_from || !m.valid_to || m.valid_from < m.valid_to, {
    message: 'valid_to must be after valid_from',
    path: ['valid_to'],
  });
export type DocumentMeta = z.infer<typeof DocumentMeta>;

export const Provenance = z.object({
  source_uri: z.string(),
  sha256: Version,
  fetched_at: z.string(),
  collector: z.string(),
  bytes: z.number().int().nonnegative(),
});
export type Provenance = z.infer<typeof Provenance>;

/** The registration record written next to the source bytes: who, what, where from. */
export const SourceRecord = z.object({
  doc_id: DocId,
  version: Version,
  source_key: z.string(),
  meta: DocumentMeta,
  provenance: Provenance,
});
export type SourceRecord = z.infer<typeof SourceRecord>;

/** The Document row of the store (seed 000 §3.1). */
export const DocumentRecord = z.object({
  doc_id: DocId,
  version: Version,
  title: z.string(),
  doc_type: z.string(),
  jurisdiction: z.string(),
  lang: z.string(),
  valid_from: IsoDate.nullable(),
  valid_to: IsoDate.nullable(),
  entities: z.array(z.string()),
  page_count: z.number().int().nonnegative(),
  provenance: Provenance,
});
export type DocumentRecord = z.infer<typeof DocumentRecord>;
