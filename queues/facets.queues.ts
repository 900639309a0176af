import { z } from 'zod';
import { FACET_NAMES, FacetName, VECTOR_INDEX_STATES } from '../shared/store/index.ts';
import { defineQueue } from './define-queue.ts';
import { jobOptions, type QueueClient } from './queue-client.ts';

/** What a rebuild covers: one facet, or every facet. */
export const FacetRebuildTarget = z.union([FacetName, z.literal('all')]);
export type FacetRebuildTarget = z.infer<typeof FacetRebuildTarget>;

/** Payload of a facet rebuild: which facets, and when it was asked for (ms since the epoch). */
export const FacetRebuildPayload = z.object({
  facet: FacetRebuildTarget,
  requestedAt: z.number().int().nonnegative(),
});
export type FacetRebuildPayload = z.infer<typeof FacetRebuildPayload>;

/** The facets a target names, in {@link FACET_NAMES} order. */
export function facetsOf(target: FacetRebuildTarget): FacetName[] {
  return target === 'all' ? [...FACET_NAMES] : [target];
}

/**
 * Rebuilds facet-value vectors from the chunks the store holds now, then lets the store bring
 * its search indexes up to date (`VectorStore.maintain`: the vector index is built once the
 * store is large enough, and rebuilt when writes have fragmented it). Requests come from every
 * successful upsert and delete, debounced by {@link requestFacetRebuild}; the job id names the request
 * time, and the deduplication id (one per target) is what coalesces requests.
 */
export const facetRebuildQueue = defineQueue({
  name: 'facet-rebuild',
  payload: FacetRebuildPayload,
  result: z.object({
    facets: z.array(z.object({ facet: FacetName, values: z.number().int(), removed: z.number().int() })),
    embedded: z.number().int(),
    cached: z.number().int(),
    /** What the store's maintenance did after the rebuild (see VectorStore.maintain). */
    index: z.object({ vectorIndex: z.enum(VECTOR_INDEX_STATES), reason: z.string(), seconds: z.number() }),
  }),
  // A rebuild reads the whole store; retried a few times (the store may be busy), then the next
  // upsert asks again anyway.
  policy: { attempts: 3, backoffMs: 2000, keepCompleted: { count: 1000, age: 7 * 24 * 3600 } },
  jobId: (p) => `facet-rebuild-${p.facet}-${p.requestedAt}`,
});

/** Deduplication id of a target: at most one pending and one running rebuild per target. */
export function facetRebuildDedupId(target: FacetRebuildTarget): string {
  return `facet-rebuild-${target}`;
}

/** Options of {@link requestFacetRebuild}. */
export interface FacetRebuildRequest {
  /** Wait this long after the first request before rebuilding; requests meanwhile join it. */
  debounceMs: number;
  /**
   * What to rebuild.
   * @defaultValue 'all'
   */
  facet?: FacetRebuildTarget;
  /**
   * The request time (ms since the epoch); tests pin it.
   * @defaultValue Date.now()
   */
  now?: number;
}

/**
 * Asks for a facet rebuild `debounceMs` from now, coalescing with any rebuild already asked for.
 *
 * BullMQ deduplication (one id per target) with `keepLastIfActive`:
 * - no rebuild pending → a delayed job is added; it runs `debounceMs` later;
 * - one pending (delayed or waiting) → nothing is added: the pending one has not read the store
 *   yet, so it will see this request's writes (a burst of 200 upserts → one rebuild);
 * - one running → BullMQ keeps this request and adds it (delayed again) when the running one
 *   finishes, because the running one may already have read past the new writes. However many
 *   requests arrive meanwhile, exactly one follow-up is kept: no lost update, no pile-up.
 *
 * The delay starts at the first request and is not pushed back by later ones, so steady
 * ingestion still gets a rebuild at least every `debounceMs` + one rebuild's duration.
 * Returns the id of the job that will do the work (the pending one when coalesced).
 *
 * @throws the Redis error when the job cannot be added (a calling stage job is then retried).
 */
export async function requestFacetRebuild(queues: QueueClient, request: FacetRebuildRequest): Promise<string> {
  const payload = FacetRebuildPayload.parse({ facet: request.facet ?? 'all', requestedAt: request.now ?? Date.now() });
  const job = await queues.queue(facetRebuildQueue).add(facetRebuildQueue.name, payload, {
    ...jobOptions(facetRebuildQueue, facetRebuildQueue.jobId(payload)),
    delay: Math.max(0, request.debounceMs),
    deduplication: { id: facetRebuildDedupId(payload.facet), keepLastIfActive: true },
  });
  return job.id ?? facetRebuildQueue.jobId(payload);
}
