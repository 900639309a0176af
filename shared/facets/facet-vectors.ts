import type { Embedder } from '../embed/index.ts';
import { PermanentError } from '../errors.ts';
import { isIn, type FacetName, type FacetValueVector, type VectorStore } from '../store/index.ts';
import { createFacetSampleCollector, type FacetSamplingOptions } from './facet-sampling.ts';
import type { FacetValueText } from './facet-text.ts';
import { facetWeights, type FacetWeightOptions, type FacetWeights } from './facet-weights.ts';

/*
 * Facet-value vectors (seed 000 §5): the thin I/O around the pure parts. Building a value's
 * text (facet-text.ts) and sampling its sentences (facet-sampling.ts) are pure; this file reads
 * the chunks they need from the store, and writes the embedded rows back.
 */

export * from './facet-text.ts';
export * from './facet-sampling.ts';
export * from './facet-weights.ts';

/** One facet value with what its text is built from. */
export interface FacetValueSamples {
  facet: FacetName;
  value: string;
  /** Chunks carrying the value. */
  chunkCount: number;
  /** Bodies of the picked chunks, in pick order (round-robin over documents). */
  bodies: string[];
}

/** Chunk ids per `IN (…)` when reading the picked bodies. */
const BODY_BATCH = 500;

/**
 * Every value of `facets` present in the store's chunks, with the bodies of a deterministic,
 * document-balanced sample of its chunks. One projected scan over the chunks (ids, doc ids and
 * the facet columns), then one read of the picked bodies: two passes however many values.
 *
 * @throws whatever the store's `scanChunks` throws (`STORE_UNAVAILABLE`, …).
 */
export async function collectFacetSamples(
  store: Pick<VectorStore, 'scanChunks'>,
  facets: readonly FacetName[],
  options: FacetSamplingOptions = {},
  signal?: AbortSignal,
): Promise<FacetValueSamples[]> {
  const collector = createFacetSampleCollector(facets, options);
  let seen = 0;
  for await (const chunk of store.scanChunks({ fields: ['chunk_id', 'doc_id', 'doc_type', 'section', 'jurisdiction', 'lang'] })) {
    collector.add(chunk);
    // A scan of a large store is long: let a cancelled job stop it.
    if (++seen % 10_000 === 0) signal?.throwIfAborted();
  }
  const picks = collector.picks();
  const wanted = [...new Set(picks.flatMap((p) => p.chunkIds))];
  const bodyOf = new Map<string, string>();
  for (let start = 0; start < wanted.length; start += BODY_BATCH) {
    signal?.throwIfAborted();
    const filter = isIn('chunk_id', wanted.slice(start, start + BODY_BATCH));
    for await (const row of store.scanChunks({ fields: ['chunk_id', 'body'], filter })) bodyOf.set(row.chunk_id, row.body);
  }
  // A chunk deleted between the two passes is simply not quoted.
  return picks.map((p) => ({ facet: p.facet, value: p.value, chunkCount: p.chunkCount, bodies: p.chunkIds.flatMap((id) => bodyOf.get(id) ?? []) }));
}

/**
 * Pairs each built text with its vector: the rows to store.
 * @throws PermanentError `DIMENSION_MISMATCH` when texts and vectors do not line up.
 */
export function toFacetValueRows(
  texts: readonly (FacetValueText & { sampleCount: number })[],
  vectors: readonly Float32Array[],
  now: string,
): FacetValueVector[] {
  if (texts.length !== vectors.length) throw new PermanentError('DIMENSION_MISMATCH', `${texts.length} facet texts but ${vectors.length} vectors`);
  return texts.map((t, i) => ({
    facet: t.facet,
    value: t.value,
    aliases: t.aliases,
    description: t.description,
    sample_count: t.sampleCount,
    updated_at: now,
    vector: vectors[i] as Float32Array,
  }));
}

/**
 * Makes `rows` the complete set of values of each facet in `facets` (a facet with no rows is
 * emptied: all its chunks are gone). Returns, per facet, the values written and removed.
 * @throws whatever the store's `replaceFacetValues` throws.
 */
export async function replaceFacets(
  store: Pick<VectorStore, 'replaceFacetValues'>,
  facets: readonly FacetName[],
  rows: readonly FacetValueVector[],
): Promise<{ facet: FacetName; values: number; removed: number }[]> {
  const out: { facet: FacetName; values: number; removed: number }[] = [];
  for (const facet of facets) {
    const own = rows.filter((r) => r.facet === facet);
    const { deleted } = await store.replaceFacetValues(facet, own);
    out.push({ facet, values: own.length, removed: deleted });
  }
  return out;
}

/**
 * Soft metadata weights for a query text: embeds it, reads every facet-value vector and runs
 * {@link facetWeights}. For callers that do not already hold the query vector and the rows.
 * @throws whatever the embedder or the store throws, and {@link facetWeights}' errors.
 */
export async function queryFacetWeights(
  deps: { store: Pick<VectorStore, 'listFacetValues'>; embedder: Embedder },
  query: string,
  options: FacetWeightOptions = {},
): Promise<FacetWeights> {
  const [[vector], rows] = await Promise.all([deps.embedder.embed([query]), deps.store.listFacetValues()]);
  if (!vector) throw new PermanentError('DIMENSION_MISMATCH', 'the embedder returned no vector for the query');
  return facetWeights(vector, rows, options);
}
