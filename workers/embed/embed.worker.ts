import { embedQueue } from '../../queues/ingest.queues.ts';
import { packVectors } from '../../shared/embed/index.ts';
import { defineStageWorker } from '../runtime/index.ts';
import { embedStage } from './embed.stage.ts';

export const embedWorker = defineStageWorker(embedQueue, { needs: ['config', 'artifacts', 'store', 'embedder', 'embeddingCache'] }, async ({ docId, version }, ctx) => {
  const { chunks } = await ctx.artifacts.getJson(docId, version, 'enriched.json');
  const expectedDimension = await ctx.store.dimension();
  const out = await embedStage(chunks, {
    embedder: ctx.embedder,
    cache: ctx.embeddingCache,
    batchSize: ctx.config.embedder.batchSize,
    expectedDimension,
  });
  await ctx.artifacts.putBytes(docId, version, 'embeddings.bin', packVectors(out.vectors, out.dimension));
  await ctx.artifacts.putJson(docId, version, 'embeddings.json', {
    model: out.model,
    dimension: out.dimension,
    count: out.vectors.length,
    chunkIds: chunks.map((c) => c.chunk_id),
  });
  return { vectorCount: out.vectors.length, cachedCount: out.cachedCount, model: out.model, dimension: out.dimension };
});
