import { z } from 'zod';
import { Box } from '../domain/index.ts';

/**
 * One cited passage of an answer: enough to find it again (document, section, pages) and to date
 * it. `pages` are those of the lines the answer quotes (the whole passage's when it quotes none).
 */
export const Citation = z.object({
  n: z.number().int().positive(),
  chunkId: z.string(),
  docId: z.string(),
  title: z.string(),
  sectionPath: z.string(),
  pages: z.object({ start: z.number().int().positive(), end: z.number().int().positive() }),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  /** The characters of the passage's body the answer quotes, `[start, end)`. */
  quote: z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }).optional(),
  /** The table cell a figure was read from: its row, column, text as printed, page and box. */
  cell: z.object({ row: z.string(), column: z.string(), text: z.string(), page: z.number().int().positive(), box: Box.optional() }).optional(),
});
export type Citation = z.infer<typeof Citation>;

/** What a query run answers. `validated` is the validator's verdict; a fallback answer says so. */
export const AgentAnswer = z.object({
  runId: z.string(),
  text: z.string(),
  citations: z.array(Citation),
  dateQualifier: z.string().nullable(),
  asOf: z.string().nullable(),
  validated: z.boolean(),
  fallback: z.boolean(),
  loops: z.number().int().nonnegative(),
  verdict: z.string(),
  reason: z.string(),
  latencyMs: z.number(),
});
export type AgentAnswer = z.infer<typeof AgentAnswer>;
