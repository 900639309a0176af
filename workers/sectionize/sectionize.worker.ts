import { sectionizeQueue } from '../../queues/ingest.queues.ts';
import { flattenLines, lineInventory } from '../../shared/sectionize/index.ts';
import { defineStageWorker } from '../runtime/index.ts';
import { sectionizeWithTablesStage } from './sectionize.stage.ts';

export const sectionizeWorker = defineStageWorker(sectionizeQueue, { needs: ['artifacts'] }, async ({ docId, version }, ctx) => {
  const extracted = await ctx.artifacts.getJson(docId, version, 'extracted.json');
  const lines = flattenLines(extracted);
  const { sections, tables } = sectionizeWithTablesStage(extracted, undefined, lines);
  // Every printed line, for the chunk stage's coverage count (the extract artifact stays unread there).
  await ctx.artifacts.putJson(docId, version, 'sections.json', { sections, inventory: lineInventory(extracted, lines), tables });
  return { sectionCount: sections.length };
});
