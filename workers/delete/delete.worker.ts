import { requestFacetRebuild } from '../../queues/facets.queues.ts';
import { deleteQueue } from '../../queues/ingest.queues.ts';
import { withDocLock } from '../../shared/status/index.ts';
import { defineStageWorker } from '../runtime/index.ts';

/** Removes a document whose source is gone: its chunks, its Document row and its artifacts. */
export const deleteWorker = defineStageWorker(deleteQueue, { needs: ['config', 'redis', 'status', 'store', 'artifacts', 'queues'] }, async ({ docId, gen }, ctx) => {
  const result = await withDocLock(ctx.redis, ctx.config.prefix, docId, async () => {
    const status = await ctx.status.get(docId);
    // Registered again since this deletion was asked for: the new registration wins.
    if (!status || status.gen !== gen || status.state !== 'deleting') return { deletedChunks: 0, skipped: true };
    const { deletedChunks } = await ctx.store.deleteByDoc(docId);
    await ctx.artifacts.deleteDoc(docId);
    await ctx.status.markDeleted(docId, gen);
    return { deletedChunks, skipped: false };
  });
  // A deleted document may have been the last to carry some facet value.
  if (!result.skipped) await requestFacetRebuild(ctx.queues, { debounceMs: ctx.config.facets.rebuildDebounceMs });
  return result;
});
