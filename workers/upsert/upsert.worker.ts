import { requestFacetRebuild } from '../../queues/facets.queues.ts';
import { upsertQueue } from '../../queues/ingest.queues.ts';
import { unpackVectors } from '../../shared/embed/index.ts';
import { withDocLock } from '../../shared/status/index.ts';
import { defineStageWorker } from '../runtime/index.ts';
import { createSchemaOnce } from './schema-once.ts';
import { upsertStage } from './upsert.stage.ts';

/**
 * Upserts mostly wait: on the document lock and on the store's write lock, where concurrent
 * upserts join one group commit. More of them at once means fewer commits per document (the
 * index refresh runs in the background and no upsert waits for it).
 */
export const UPSERT_CONCURRENCY_FACTOR = 16;

const ensureSchemaOnce = createSchemaOnce();

export const upsertWorker = defineStageWorker(
  upsertQueue,
  { needs: ['config', 'redis', 'status', 'artifacts', 'store', 'queues'], concurrency: (configured) => configured * UPSERT_CONCURRENCY_FACTOR },
  async ({ docId, version, gen }, ctx) => {
    const [enriched, meta, bin] = await Promise.all([
      ctx.artifacts.getJson(docId, version, 'enriched.json'),
      ctx.artifacts.getJson(docId, version, 'embeddings.json'),
      ctx.artifacts.getBytes(docId, version, 'embeddings.bin'),
    ]);
    const vectors = unpackVectors(bin, meta.dimension, meta.count);
    // The artifacts' embedder, which wrote these vectors: a store recorded with another refuses them.
    await ensureSchemaOnce(ctx.store, meta.dimension, meta.model);

    // Under the document's lock, and only while this version is still the registered one: an older
    // version finishing late must never overwrite (or delete) a newer one.
    const outcome = await withDocLock(ctx.redis, ctx.config.prefix, docId, async () => {
      if (!(await ctx.status.isCurrent(docId, version, gen))) return null;
      const held = await ctx.store.countChunks({ op: 'eq', field: 'doc_id', value: docId });
      // Chunk ids are content-addressed within their document, so a document the store holds no
      // chunk of (a first ingest, the usual case) has none of these ids either: no read needed.
      const existing = held > 0 ? await ctx.store.fetchByIds(enriched.chunks.map((c) => c.chunk_id)) : [];
      // Read before the write, as the delete would: a chunk of this document that is not one of this
      // version's ids (content-addressed) belongs to an older version. When there is none (a first
      // ingest, or a retry of this version) the stale-version delete, a commit under the store's
      // write lock, is skipped.
      const stale = held > new Set(existing.map((c) => c.chunk_id)).size;
      const createdAt = new Map(existing.map((c) => [c.chunk_id, c.created_at]));
      const rows = upsertStage(enriched, { meta, vectors }, createdAt, new Date().toISOString());
      // New version first, then the old version's chunks: readers never see the document empty.
      await ctx.store.upsertDocuments([enriched.document]);
      await ctx.store.upsertChunks(rows);
      const { deletedChunks } = stale ? await ctx.store.deleteByDoc(docId, { exceptVersion: version }) : { deletedChunks: 0 };
      // The profile goes on the status record too: `quarry status` and GET /v1/documents/:id show it.
      await ctx.status.update(docId, version, gen, { state: 'indexed', chunkCount: rows.length, error: null, profile: enriched.document.profile ?? null });
      return { upsertedChunks: rows.length, deletedStaleChunks: deletedChunks };
    });
    if (!outcome) return { upsertedChunks: 0, deletedStaleChunks: 0, superseded: true };
    await requestFacetRebuild(ctx.queues, { debounceMs: ctx.config.facets.rebuildDebounceMs }); // facet values follow the chunks
    await ctx.artifacts.deleteDoc(docId, { exceptVersion: version });
    return { ...outcome, superseded: false };
  },
);
