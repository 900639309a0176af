import { z } from 'zod';

/**
 * The facets that get per-value vectors (seed 000 §5): the chunk fields a soft metadata prior
 * can match. Each is also a filter and an aggregate field, so a planner can turn a weighted
 * value into a narrowed search and count its candidates.
 */
export const FACET_NAMES = ['doc_type', 'section', 'jurisdiction', 'lang'] as const;
/** One of {@link FACET_NAMES}. */
export const FacetName = z.enum(FACET_NAMES);
export type FacetName = z.infer<typeof FacetName>;

/** Longest facet value the collection holds; longer ones are not labels and get no vector. */
export const FACET_VALUE_MAX_CHARS = 1000;

/**
 * A facet value's vector row as the store holds it, minus the vector (seed 000 §3.2
 * FacetValueVector). Unique on (`facet`, `value`).
 */
export const FacetValueVectorWithoutVector = z.object({
  facet: FacetName,
  /** The value exactly as chunks carry it (`eligibility`, `지원 대상`, `law`, `KR`, `ko`). */
  value: z.string().min(1).max(FACET_VALUE_MAX_CHARS),
  /** Spacing, case and alias variants of the value, the value itself excluded. */
  aliases: z.array(z.string()),
  /** The typed description that opened the embedded text. */
  description: z.string(),
  /** Chunks carrying the value when the row was built. */
  sample_count: z.number().int().nonnegative(),
  /** When the row was built, ISO 8601. */
  updated_at: z.iso.datetime({ offset: true }),
});
export type FacetValueVectorWithoutVector = z.infer<typeof FacetValueVectorWithoutVector>;

/** A facet value's row with its vector. Reads return the vector as a Float32Array. */
export type FacetValueVector = FacetValueVectorWithoutVector & { vector: number[] | Float32Array };
