/**
 * Chunk sizes per document type (seed 000 §4.4: 400–900 tokens, overlap 50–100; seed 001 §1.1:
 * one rule set per chunk type). Token counts are cl100k tokens (see tokenizer.ts).
 */
import { z } from 'zod';
import { PermanentError } from '../errors.ts';

/** How big the chunks of one document type should be, in tokens. */
export const ChunkPolicy = z
  .object({
    /** Sections smaller than this are merged with adjacent siblings (same parent) when they fit. */
    minTokens: z.number().int().positive(),
    /** Size the packer aims for when a section has to be split. */
    targetTokens: z.number().int().positive(),
    /** Hard ceiling for a chunk body (only a single unsplittable unit could exceed it, and none can: oversized units are cut). */
    maxTokens: z.number().int().positive(),
    /** Trailing whole sentences of a chunk repeated at the start of the next one of the same split section. */
    overlapTokens: z.number().int().nonnegative(),
  })
  .refine((p) => p.minTokens <= p.targetTokens && p.targetTokens <= p.maxTokens, {
    message: 'chunk policy: need minTokens <= targetTokens <= maxTokens',
  })
  .refine((p) => p.overlapTokens * 2 <= p.targetTokens, {
    message: 'chunk policy: overlapTokens must be at most half of targetTokens',
  })
  .refine((p) => p.minTokens * 2 <= p.maxTokens, {
    // Guarantees a too-small tail chunk can always be rebalanced with its predecessor.
    message: 'chunk policy: minTokens must be at most half of maxTokens',
  });
export type ChunkPolicy = z.infer<typeof ChunkPolicy>;

/** Policies by lower-case doc_type; `default` covers every type not listed. */
export const ChunkPolicyTable = z
  .record(z.string(), ChunkPolicy)
  .refine((t) => t.default !== undefined, { message: 'chunk policy table needs a "default" entry' });
export type ChunkPolicyTable = Readonly<Record<string, ChunkPolicy>>;

const DEFAULT_POLICY: ChunkPolicy = { minTokens: 120, targetTokens: 600, maxTokens: 900, overlapTokens: 80 };

/**
 * Statutes, acts, regulations: an article (제N조 / Article N / § N) is the unit people cite and
 * ask about, and most are 80–450 tokens. A smaller target keeps one or a few whole articles
 * per chunk instead of packing ten together, and max 700 follows seed 001's `law` rule (its
 * 400–500 recommendation is the target range). Min 80 still merges one-line or "삭제" articles.
 */
const LAW_POLICY: ChunkPolicy = { minTokens: 80, targetTokens: 450, maxTokens: 700, overlapTokens: 60 };

/**
 * The chunk policy table.
 *
 * | doc_type | min | target | max | overlap | why |
 * |---|---|---|---|---|---|
 * | default | 120 | 600 | 900 | 80 | seed 000 §4.4 middle of 400–900 |
 * | law, statute, act, regulation, ordinance | 80 | 450 | 700 | 60 | whole articles (see above) |
 * | contract | 100 | 500 | 800 | 60 | clauses are cited one by one, like articles |
 * | policy | 120 | 600 | 900 | 80 | prose with eligibility lists: default shape |
 * | faq | 60 | 400 | 600 | 50 | one or two Q&A pairs per chunk; a pair rarely passes 300 |
 * | label | 100 | 500 | 800 | 60 | drug/product label sections are short and distinct |
 * | manual | 120 | 600 | 900 | 80 | procedures: the lists are kept whole anyway |
 * | rfc, standard, spec | 150 | 650 | 900 | 100 | normative text with cross-references: more context and overlap |
 * | paper | 150 | 700 | 900 | 100 | dense argument, long paragraphs (seed 001 `reasoning`: 700–800) |
 *
 * @defaultValue the table above; a config file may replace it (validate with {@link ChunkPolicyTable}).
 */
export const DEFAULT_CHUNK_POLICIES: ChunkPolicyTable = Object.freeze({
  default: DEFAULT_POLICY,
  law: LAW_POLICY,
  statute: LAW_POLICY,
  act: LAW_POLICY,
  regulation: LAW_POLICY,
  ordinance: LAW_POLICY,
  contract: { minTokens: 100, targetTokens: 500, maxTokens: 800, overlapTokens: 60 },
  policy: DEFAULT_POLICY,
  faq: { minTokens: 60, targetTokens: 400, maxTokens: 600, overlapTokens: 50 },
  label: { minTokens: 100, targetTokens: 500, maxTokens: 800, overlapTokens: 60 },
  manual: DEFAULT_POLICY,
  rfc: { minTokens: 150, targetTokens: 650, maxTokens: 900, overlapTokens: 100 },
  standard: { minTokens: 150, targetTokens: 650, maxTokens: 900, overlapTokens: 100 },
  spec: { minTokens: 150, targetTokens: 650, maxTokens: 900, overlapTokens: 100 },
  paper: { minTokens: 150, targetTokens: 700, maxTokens: 900, overlapTokens: 100 },
});

/**
 * The policy for a doc_type: exact match after trimming and lower-casing, else `default`.
 *
 * @throws PermanentError INVALID_CONFIG when the table has no usable entry for the type, or the
 *   entry breaks the {@link ChunkPolicy} invariants (min ≤ target ≤ max, overlap ≤ target / 2,
 *   min ≤ max / 2).
 */
export function resolvePolicy(table: ChunkPolicyTable, docType: string | null | undefined): ChunkPolicy {
  const key = (docType ?? '').trim().toLowerCase();
  const policy = (key !== '' ? table[key] : undefined) ?? table.default;
  if (!policy) throw new PermanentError('INVALID_CONFIG', `no chunk policy for doc_type "${key}" and no default`);
  const parsed = ChunkPolicy.safeParse(policy);
  if (!parsed.success) {
    throw new PermanentError('INVALID_CONFIG', `chunk policy for "${key || 'default'}": ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  return parsed.data;
}
