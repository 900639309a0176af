import { createLruEmbeddingCache, embedWithCache, type Embedder } from '../shared/embed/index.ts';
import type { VectorStore } from '../shared/store/index.ts';
import type { BeirDoc } from './beir.ts';
import { corpusRows, embeddingTextOf, isSearchable, type DocIdMap } from './corpus-rows.ts';

/** Options of {@link indexCorpus}. */
export interface IndexCorpusOptions {
  store: VectorStore;
  embedder: Embedder;
  ids: DocIdMap;
  /** Dataset name, recorded in each Document row's provenance. */
  dataset: string;
  /** Texts per embedder call (EMBED_BATCH_SIZE). */
  embedBatchSize: number;
  /**
   * Documents per store write. Every `upsertChunks` call waits for a full-text index refresh whose
   * cost grows with the table, so a few large writes beat many small ones.
   * @defaultValue 1000
   */
  writeBatchSize?: number;
  /** Called after each written batch with the number of documents written so far. */
  onProgress?: (written: number, total: number) => void;
}

/** What {@link indexCorpus} did. */
export interface IndexCorpusResult {
  /** Documents written to the store. */
  indexed: number;
  /** Documents skipped because they hold no letter or digit (nothing could find them). */
  skippedEmpty: number;
  /** Time spent embedding, in milliseconds. */
  embedMs: number;
  /** Time spent writing (including the full-text index refreshes), in milliseconds. */
  writeMs: number;
}

/**
 * Embeds and writes a corpus through the VectorStore port, one chunk per document, in batches.
 * `ensureSchema` must have been called with the embedder's dimension and model.
 *
 * @throws whatever the embedder or the store throws (`EMBEDDER_UNAVAILABLE`, `STORE_REJECTED`…).
 */
export async function indexCorpus(corpus: readonly BeirDoc[], opts: IndexCorpusOptions): Promise<IndexCorpusResult> {
  const writeBatchSize = opts.writeBatchSize ?? 1000;
  const searchable = corpus.filter(isSearchable);
  // Sized to the batch: repeated texts inside a batch are embedded once, nothing more is needed.
  const cache = createLruEmbeddingCache({ maxEntries: Math.max(1, writeBatchSize) });
  const now = new Date().toISOString();
  let embedMs = 0;
  let writeMs = 0;
  for (let start = 0; start < searchable.length; start += writeBatchSize) {
    const batch = searchable.slice(start, start + writeBatchSize);
    const t0 = performance.now();
    const vectors = await embedWithCache(opts.embedder, batch.map(embeddingTextOf), cache, { batchSize: opts.embedBatchSize });
    const t1 = performance.now();
    const rows = batch.map((doc, i) => corpusRows(doc, opts.ids, { dataset: opts.dataset, vector: vectors[i] as Float32Array, now }));
    await opts.store.upsertDocuments(rows.map((r) => r.document));
    await opts.store.upsertChunks(rows.map((r) => r.chunk));
    embedMs += t1 - t0;
    writeMs += performance.now() - t1;
    opts.onProgress?.(start + batch.length, searchable.length);
  }
  return { indexed: searchable.length, skippedEmpty: corpus.length - searchable.length, embedMs, writeMs };
}
