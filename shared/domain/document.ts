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
    /** Organisations the document is about ("Apple Inc."); replaces the ones read from the text. */
    organisations: z.array(z.string().min(1).max(200)).max(20).optional(),
    /** Its form or kind ("10-Q", "policy", "law"); replaces the one read from the text. */
    form: z.string().min(1).max(64).optional(),
    /** Fiscal year and quarter of the period it reports on. */
    fiscal_year: z.number().int().min(1900).max(2199).optional(),
    fiscal_quarter: z.number().int().min(1).max(4).optional(),
    /** Last day of the period it reports on. */
    period_end: IsoDate.optional(),
    /** Edition, version or revision ("2.1", "법률 제19000호"). */
    edition: z.string().min(1).max(100).optional(),
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

/** An organisation a document is about: its name as written and the names a question may use. */
export const DocumentOrganisation = z.object({
  /** The name as the document writes it ("Apple Inc.", "AMAZON.COM, INC."). */
  name: z.string(),
  /** Lower-case names a question may use: the short name, tickers ("apple", "aapl"). */
  aliases: z.array(z.string()),
});
export type DocumentOrganisation = z.infer<typeof DocumentOrganisation>;

/** The period a document reports on or the edition it is. Every field may be unknown. */
export const DocumentPeriod = z.object({
  /** Last day of the period (quarter or year ended …), YYYY-MM-DD. */
  end: IsoDate.nullable(),
  /** Fiscal year as the document counts it ("fiscal 2023"). */
  fiscalYear: z.number().int().nullable(),
  /** Fiscal quarter 1–4; null for a whole year. */
  fiscalQuarter: z.number().int().min(1).max(4).nullable(),
  /** Calendar year and quarter the period ends in (a period ended July 1 ends in June's quarter). */
  calendarYear: z.number().int().nullable(),
  calendarQuarter: z.number().int().min(1).max(4).nullable(),
  /** Edition, version or revision, as written. */
  edition: z.string().nullable(),
});
export type DocumentPeriod = z.infer<typeof DocumentPeriod>;

/** What a document is about, read at ingest from its first pages (or given by the sidecar). */
export const DocumentProfile = z.object({
  organisations: z.array(DocumentOrganisation),
  /** "10-Q", "10-K", "8-K", "policy", "standard", "law", … or null. */
  form: z.string().nullable(),
  period: DocumentPeriod,
  /** One line for breadcrumbs and status: "Apple Inc. (AAPL) · 10-Q · fiscal 2023 Q3 · period ended 2023-07-01". */
  label: z.string(),
});
export type DocumentProfile = z.infer<typeof DocumentProfile>;

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
  /** Organisations, period and form (issue 13); absent in rows written before profiles existed. */
  profile: DocumentProfile.nullable().optional(),
});
export type DocumentRecord = z.infer<typeof DocumentRecord>;

/** A stored profile, or null for rows written before profiles (or one this version cannot read). */
export function parseProfile(cell: unknown): DocumentProfile | null {
  if (typeof cell !== 'string' || cell === '') return null;
  try {
    const parsed = DocumentProfile.safeParse(JSON.parse(cell));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** `{ profile }` when there is one, else nothing: a record written without a profile reads back as written. */
export function profileField(profile: DocumentProfile | null): { profile?: DocumentProfile } {
  return profile ? { profile } : {};
}
