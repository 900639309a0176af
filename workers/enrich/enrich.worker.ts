import { enrichQueue } from '../../queues/ingest.queues.ts';
import { defineStageWorker } from '../runtime/index.ts';
import { enrichStage } from './enrich.stage.ts';

/** Validity lines (시행일, "Effective date") sit at the top of a document; three pages is plenty. */
const HEAD_PAGES = 3;

export const enrichWorker = defineStageWorker(enrichQueue, { needs: ['artifacts'] }, async ({ docId, version }, ctx) => {
  const [source, extracted, { chunks }] = await Promise.all([
    ctx.artifacts.getJson(docId, version, 'source.json'),
    ctx.artifacts.getJson(docId, version, 'extracted.json'),
    ctx.artifacts.getJson(docId, version, 'chunks.json'),
  ]);
  const firstPagesText = extracted.pages
    .slice(0, HEAD_PAGES)
    .map((p) => p.lines.map((l) => l.text).join('\n'))
    .join('\n\n');
  const enriched = enrichStage({
    source,
    extracted: { pageCount: extracted.pageCount, info: extracted.info, firstPagesText },
    chunks,
  });
  await ctx.artifacts.putJson(docId, version, 'enriched.json', enriched);
  return { entityCount: enriched.document.entities.length, validFrom: enriched.document.valid_from, lang: enriched.document.lang };
});
