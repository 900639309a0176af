/**
 * Loads the synthetic corpus into a store through the VectorStore port, as the pipeline would
 * leave it: documents and chunks (embedded with the configured embedder) bulk-upserted in large
 * batches, then the facet-value vectors built by the facet-rebuild worker's own code path.
 */
import { createLruEmbeddingCache, embedWithCache, embedWithCacheStats } from '../shared/embed/index.ts';
import type { Embedder } from '../shared/embed/embedder.ts';
import type { EmbeddingCache } from '../shared/embed/embedding-cache.ts';
import { collectFacetSamples, replaceFacets, toFacetValueRows } from '../shared/facets/index.ts';
import { FACET_NAMES } from '../shared/store/facet-values.ts';
import type { StoredChunk, StoredChunkWithoutVector, VectorStore } from '../shared/store/index.ts';
import type { DocumentRecord } from '../shared/domain/index.ts';
import { facetRebuildStage } from '../workers/facet-rebuild/facet-rebuild.stage.ts';
import { syntheticCorpus } from './synthetic-corpus.ts';

/** What loading cost. */
export interface LoadFigures {
  chunks: number;
  documents: number;
  /** Mean body length in characters. */
  meanBodyChars: number;
  /** Wall time of the whole load: generate + embed + write + facet vectors. */
  loadSeconds: number;
  embedSeconds: number;
  /** upsertDocuments + upsertChunks, full-text index refreshes included. */
  writeSeconds: number;
  /** Number of upsertChunks calls (each waits for one full-text refresh). */
  writeBatches: number;
  facetSeconds: number;
  facetValues: number;
}

export interface LoadOptions {
  store: VectorStore;
  embedder: Embedder;
  /** The cache the facet-rebuild worker uses (Redis in the benchmark). */
  embeddingCache: EmbeddingCache;
  embedBatchSize: number;
  chunks: number;
  seed: number;
  /**
   * Chunks per upsertChunks call: each waits for a full-text index refresh whose cost grows with
   * the table, so a few large writes beat many small ones.
   * @defaultValue 25000
   */
  writeBatch?: number;
  onProgress?: (written: number, total: number) => void;
}

const seconds = (ms: number) => Math.round(ms / 10) / 100;

/**
 * Generates, embeds and writes `chunks` chunks, then builds every facet's value vectors.
 * `ensureSchema` must have been called with the embedder's dimension and model.
 */
export async function loadSyntheticCorpus(opts: LoadOptions): Promise<LoadFigures> {
  const writeBatch = opts.writeBatch ?? 25_000;
  const t0 = performance.now();
  let embedMs = 0;
  let writeMs = 0;
  let written = 0;
  let documents = 0;
  let bodyChars = 0;
  let writeBatches = 0;
  let docs: DocumentRecord[] = [];
  let pending: StoredChunkWithoutVector[] = [];
  // Only for repeats inside one batch; the pipeline's Redis cache would only cost round trips here.
  const cache = createLruEmbeddingCache({ maxEntries: writeBatch });

  const flush = async () => {
    if (pending.length === 0) return;
    const e0 = performance.now();
    const vectors = await embedWithCache(opts.embedder, pending.map((c) => c.embedding_text), cache, { batchSize: opts.embedBatchSize });
    const w0 = performance.now();
    const rows: StoredChunk[] = pending.map((c, i) => ({ ...c, vector: vectors[i] as Float32Array }));
    await opts.store.upsertDocuments(docs);
    await opts.store.upsertChunks(rows);
    embedMs += w0 - e0;
    writeMs += performance.now() - w0;
    written += rows.length;
    writeBatches += 1;
    opts.onProgress?.(written, opts.chunks);
    docs = [];
    pending = [];
  };

  for (const doc of syntheticCorpus({ chunks: opts.chunks, seed: opts.seed })) {
    documents += 1;
    docs.push(doc.document);
    for (const c of doc.chunks) bodyChars += c.body.length;
    pending.push(...doc.chunks);
    if (pending.length >= writeBatch) await flush();
  }
  await flush();

  const f0 = performance.now();
  const samples = await collectFacetSamples(opts.store, FACET_NAMES);
  const texts = facetRebuildStage(samples);
  const { vectors } = await embedWithCacheStats(opts.embedder, texts.map((t) => t.text), opts.embeddingCache, { batchSize: opts.embedBatchSize });
  const replaced = await replaceFacets(opts.store, FACET_NAMES, toFacetValueRows(texts, vectors, new Date().toISOString()));
  const facetMs = performance.now() - f0;

  return {
    chunks: written,
    documents,
    meanBodyChars: Math.round(bodyChars / Math.max(1, written)),
    loadSeconds: seconds(performance.now() - t0),
    embedSeconds: seconds(embedMs),
    writeSeconds: seconds(writeMs),
    writeBatches,
    facetSeconds: seconds(facetMs),
    facetValues: replaced.reduce((n, r) => n + r.values, 0),
  };
}
