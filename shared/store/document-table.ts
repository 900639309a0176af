import type { DocumentRecord } from '../domain/index.ts';

/**
 * The document table: one Document row per `doc_id` (title, facets, validity, provenance,
 * profile). Part of the vector-store port (docs/architecture.md §2); every adapter passes
 * `tests/contract/document-table.contract.ts`. A document's row goes with its chunks
 * (`ChunkIndex.deleteByDoc` without `exceptVersion`).
 */
export interface DocumentTable {
  /**
   * Inserts or replaces documents by `doc_id`.
   * @throws PermanentError `STORE_REJECTED` before `ensureSchema` or for a malformed record.
   */
  upsertDocuments(docs: DocumentRecord[]): Promise<void>;
  /** The document's row, or null (also before `ensureSchema`). */
  getDocument(docId: string): Promise<DocumentRecord | null>;
  /**
   * The rows of those of `docIds` that exist, in the order asked, each once (none before
   * `ensureSchema`): a few reads for a whole list, where a read per document would each scan
   * what the store has not indexed yet.
   */
  getDocuments(docIds: readonly string[]): Promise<DocumentRecord[]>;
}

/** The methods of {@link DocumentTable}, for composing a store from its parts (vector-store.ts). */
export const DOCUMENT_TABLE_METHODS = ['upsertDocuments', 'getDocument', 'getDocuments'] as const satisfies readonly (keyof DocumentTable)[];
