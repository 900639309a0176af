import { sectionizeQueue } from '../../queues/ingest.queues.ts';
import { ExtractedDocument } from '../../shared/domain/index.ts';
import { defineStageWorker } from '../runtime/stage-worker.ts';
import { sectionizeStage } from './sectionize.stage.ts';

export const sectionizeWorker = defineStageWorker(sectionizeQueue, async ({ docId, version }, ctx) => {
  const extracted = await ctx.artifacts.getJson(docId, version, 'extracted.json', ExtractedDocument);
  const sections = sectionizeStage(extracted);
  await ctx.artifacts.putJson(docId, version, 'sections.json', { sections });
  return { sectionCount: sections.length };
});
