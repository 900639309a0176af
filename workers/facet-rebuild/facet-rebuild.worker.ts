import { facetRebuildQueue, facetsOf } from '../../queues/facets.queues.ts';
import { embedWithCacheStats } from '../../shared/embed/index.ts';
import { collectFacetSamples, replaceFacets, toFacetValueRows } from '../../shared/facets/index.ts';
import { defineStageWorker } from '../runtime/index.ts';
import { facetRebuildStage } from './facet-rebuild.stage.ts';

/**
 * Rebuilds the facet-value vectors of the asked facets from what the store holds now: sample
 * (one scan), build texts (pure stage), embed (same embedder and cache as chunks, so queries,
 * chunks and facet values share one space), then replace each facet's rows, dropping values
 * no chunk carries any more. Last, the store's index maintenance (see facetRebuildQueue).
 */
export const facetRebuildWorker = defineStageWorker(
  facetRebuildQueue,
  {
    needs: ['config', 'store', 'embedder', 'embeddingCache'],
    // One rebuild at a time per process: each reads the whole store, and deduplication already
    // keeps the queue to one running and one pending rebuild per target.
    concurrency: () => 1,
  },
  async ({ facet }, ctx) => {
    const facets = facetsOf(facet);
    // Creates facet_values in stores made before it existed; refuses a store of another dimension or
    // embedder (facet vectors are compared with questions' vectors).
    await ctx.store.ensureSchema({ dimension: ctx.embedder.dimension, model: ctx.embedder.model });
    const samples = await collectFacetSamples(ctx.store, facets, {}, ctx.signal);
    await ctx.progress(40);
    const texts = facetRebuildStage(samples);
    const { vectors, cachedCount, embeddedCount } = await embedWithCacheStats(
      ctx.embedder,
      texts.map((t) => t.text),
      ctx.embeddingCache,
      { batchSize: ctx.config.embedder.batchSize, signal: ctx.signal },
    );
    await ctx.progress(80);
    const written = await replaceFacets(ctx.store, facets, toFacetValueRows(texts, vectors, new Date().toISOString()));
    ctx.log.info('facet vectors rebuilt', { facets: written.map((w) => `${w.facet}:${w.values}-${w.removed}`).join(' ') });
    // The same debounced after-write moment suits the store's own index upkeep, and rebuilds are
    // deduplicated and run one at a time per process, so builds do not pile up.
    const index = await ctx.store.maintain();
    if (index.vectorIndex === 'built' || index.vectorIndex === 'rebuilt') ctx.log.info(`vector index ${index.vectorIndex}`, { reason: index.reason, seconds: index.seconds });
    return { facets: written, embedded: embeddedCount, cached: cachedCount, index };
  },
);
