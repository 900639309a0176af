import { z } from 'zod';

/** One cited passage of an answer: enough to find it again (document, section, pages) and to date it. */
export const Citation = z.object({
  n: z.number().int().positive(),
  chunkId: z.string(),
  docId: z.string(),
  title: z.string(),
  sectionPath: z.string(),
  pages: z.object({ start: z.number().int().positive(), end: z.number().int().positive() }),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
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
