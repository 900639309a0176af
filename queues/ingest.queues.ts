import { z } from 'zod';
import { DocId } from '../shared/domain/index.ts';
import { defineIngestQueue, defineQueue, ingestStageName } from './define-queue.ts';

// Defined from the last stage back, so each can name the one after it.

export const upsertQueue = defineIngestQueue(
  'ingest-upsert',
  z.object({
    upsertedChunks: z.number().int(),
    deletedStaleChunks: z.number().int(),
    /** Set when a newer version or a deletion overtook this one: nothing was written. */
    superseded: z.boolean(),
  }),
);

export const embedQueue = defineIngestQueue(
  'ingest-embed',
  z.object({ vectorCount: z.number().int(), cachedCount: z.number().int(), model: z.string(), dimension: z.number().int() }),
  upsertQueue,
);

export const enrichQueue = defineIngestQueue(
  'ingest-enrich',
  z.object({ entityCount: z.number().int(), validFrom: z.string().nullable(), lang: z.string() }),
  embedQueue,
);

export const chunkQueue = defineIngestQueue('ingest-chunk', z.object({ chunkCount: z.number().int() }), enrichQueue);

export const sectionizeQueue = defineIngestQueue(
  'ingest-sectionize',
  z.object({ sectionCount: z.number().int() }),
  chunkQueue,
);

export const extractQueue = defineIngestQueue(
  'ingest-extract',
  z.object({ pageCount: z.number().int(), charCount: z.number().int() }),
  sectionizeQueue,
  // A PDF that fails to parse fails the same way every time; errors are classified as permanent.
  { attempts: 3 },
);

export const DeletePayload = z.object({ docId: DocId, gen: z.number().int().nonnegative() });
export type DeletePayload = z.infer<typeof DeletePayload>;

export const deleteQueue = defineQueue({
  name: 'ingest-delete',
  payload: DeletePayload,
  result: z.object({ deletedChunks: z.number().int(), skipped: z.boolean() }),
  jobId: (p) => `ingest-delete-${p.docId}-g${p.gen}`,
});

/** Every ingest queue in pipeline order (delete last). */
export const INGEST_QUEUES = [extractQueue, sectionizeQueue, chunkQueue, enrichQueue, embedQueue, upsertQueue, deleteQueue] as const;

/** Stage names as used by the CLI (`--only extract,chunk`) and the status record. */
export const STAGE_NAMES = ['extract', 'sectionize', 'chunk', 'enrich', 'embed', 'upsert', 'delete'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

export function stageOfQueue(queueName: string): StageName {
  const stage = ingestStageName(queueName);
  if (!(STAGE_NAMES as readonly string[]).includes(stage)) throw new TypeError(`not an ingest queue: ${queueName}`);
  return stage as StageName;
}
