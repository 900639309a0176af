import { deleteQueue } from '../../queues/ingest.queues.ts';
import { docIdForSource } from '../../shared/domain/index.ts';
import type { RegisterPorts } from './register-source.ts';

/**
 * Removes a document whose source is gone (a file removed, an object deleted, `DELETE
 * /v1/documents/:id`): status first, then the delete job.
 * @returns its doc_id, or null when there was nothing to delete.
 */
export async function deleteSource(ports: Pick<RegisterPorts, 'status' | 'queues'>, sourceKey: string): Promise<string | null> {
  const docId = docIdForSource(sourceKey);
  const gen = await ports.status.markDeleting(docId);
  if (gen === null) return null;
  await ports.queues.enqueue(deleteQueue, { docId, gen });
  return docId;
}
