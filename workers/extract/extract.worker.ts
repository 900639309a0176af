import { extractQueue } from '../../queues/ingest.queues.ts';
import { ExtractedDocument } from '../../shared/domain/index.ts';
import { DEFAULT_SPARE_SLOTS, textWarnings } from '../../shared/pdf/index.ts';
import { defineStageWorker } from '../runtime/index.ts';

export const extractWorker = defineStageWorker(
  extractQueue,
  {
    needs: ['config', 'artifacts', 'extractor'],
    // One job more than the pool's regular children per spare child: while slow PDFs hold every
    // regular child, quick ones still get taken from the queue and run in the spare one.
    concurrency: (configured) => configured + DEFAULT_SPARE_SLOTS,
    // Children with pdf.js loaded wait for the first document (starting one takes ~1 s): one per
    // regular job slot (WORKER_CONCURRENCY), which is also how many parts a large file is split
    // into when EXTRACT_SPLIT_MIN_BYTES turns splitting on (see page-parts.ts).
    onStart: async ({ extractor }) => extractor.warm(),
  },
  async ({ docId, version }, ctx) => {
    const source = await ctx.artifacts.getJson(docId, version, 'source.json');
    const bytes = await ctx.artifacts.getBytes(docId, version, 'source.pdf');
    const { maxBytes, maxPages } = ctx.config.extract;
    // Parsing runs in a pooled child process with a memory limit and a deadline: a hostile PDF
    // can fail its own document but never take the worker (and its other jobs) down. The signal
    // (shutdown) kills the child at once, so the job goes back to the queue within the grace.
    const extracted = ExtractedDocument.parse(
      await ctx.extractor.extract({ bytes, password: source.meta.password }, { maxBytes, maxPages }, { signal: ctx.signal }),
    );
    await ctx.artifacts.putJson(docId, version, 'extracted.json', extracted);
    const charCount = extracted.pages.reduce((n, p) => n + p.lines.reduce((m, l) => m + l.text.length, 0), 0);
    // A few garbled pages do not fail the document (a mostly garbled one failed above): say which.
    ctx.recordStatus({ pageCount: extracted.pageCount, warnings: textWarnings(extracted.pages) });
    return { pageCount: extracted.pageCount, charCount };
  },
);
