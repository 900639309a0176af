import { chunkQueue } from '../../queues/ingest.queues.ts';
import { DEFAULT_CHUNK_POLICIES, createCl100kCounter } from '../../shared/chunk/index.ts';
import { defineStageWorker } from '../runtime/index.ts';
import { chunkStageWithCoverage } from './chunk.stage.ts';

export const chunkWorker = defineStageWorker(
  chunkQueue,
  {
    needs: ['artifacts'],
    // The tokenizer's tables load on first use (~35 MB, up to a second on a busy machine): at
    // start, not in the first document's time.
    onStart: async () => void createCl100kCounter().count('warm'),
  },
  async ({ docId, version }, ctx) => {
    const [{ sections, inventory, tables }, source] = await Promise.all([
      ctx.artifacts.getJson(docId, version, 'sections.json'),
      ctx.artifacts.getJson(docId, version, 'source.json'),
    ]);
    const { chunks, spans, headingLines, coverage } = chunkStageWithCoverage({ docId, version, docType: source.meta.doc_type ?? 'unknown', sections, inventory, ...(tables ? { tables } : {}) }, DEFAULT_CHUNK_POLICIES);
    await ctx.artifacts.putJson(docId, version, 'chunks.json', { chunks, spans, headingLines, ...(coverage ? { coverage } : {}) });
    // Text no chunk holds is said on the status record, never dropped silently.
    if (coverage) ctx.recordStatus({ coverage });
    return { chunkCount: chunks.length };
  },
);
