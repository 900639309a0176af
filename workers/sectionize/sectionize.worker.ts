import { sectionizeQueue } from '../../queues/ingest.queues.ts';
import { lineInventory } from '../../shared/sectionize/index.ts';
import { defineStageWorker } from '../runtime/index.ts';
import { sectionizeWithTablesStage } from './sectionize.stage.ts';

export const sectionizeWorker = defineStageWorker(sectionizeQueue, { needs: ['artifacts'] }, async ({ docId, version }, ctx) => {
  const extracted = await ctx.artifacts.getJson(docId, version, 'extracted.json');
  const { sections, tables } = sectionizeWithTablesStage(extracted);
  // Every printed line, for the chunk stage's coverage count (the extract artifact stays unread there).
  await ctx.artifacts.putJson(docId, version, 'sections.json', { sections, inventory: lineInventory(extracted), tables });
  return { sectionCount: sections.length };
});
