import * as lancedb from '@lancedb/lancedb';
import type { DocumentRecord } from '../../domain/index.ts';
import type { DocumentTable } from '../document-table.ts';
import { validDocuments } from '../validation.ts';
import { sqlInLists, sqlString } from './filter-sql.ts';
import { guarded, isDataError, rows, type LanceStoreState } from './lance-state.ts';
import { DOCUMENTS_TABLE, documentToRow, documentsSchema, rowToDocument } from './schema.ts';
import { createGroupCommit, withConflictRetry, type GroupCommit } from './write-guard.ts';

/** The document table on LanceDB: the `documents` table, one row per `doc_id`. */
export class LanceDocumentTable implements DocumentTable {
  /**
   * Document rows of concurrent callers, one merge-insert commit per batch (each commit adds a
   * version and a data file; per document that was one commit each).
   */
  private readonly commits: GroupCommit<DocumentRecord>;

  constructor(private readonly s: LanceStoreState) {
    this.commits = createGroupCommit<DocumentRecord>({
      keyOf: (doc) => doc.doc_id,
      maxRows: s.settings.writeBatchSize,
      lingerMs: s.settings.commitLingerMs,
      schedule: s.lock,
      isDataError,
      commit: (docs) => this.commit(docs),
    });
  }

  // Each call is validated on its own before it joins a batch, so a malformed row fails its
  // caller with a clear error and never the other callers sharing the commit.
  async upsertDocuments(docs: DocumentRecord[]): Promise<void> {
    if (docs.length === 0) return;
    const valid = validDocuments(docs);
    await guarded('upsertDocuments', () => this.s.tables.require(DOCUMENTS_TABLE));
    await this.commits.submit(valid);
  }

  async getDocument(docId: string): Promise<DocumentRecord | null> {
    return guarded('getDocument', async () => {
      const table = await this.s.tables.open(DOCUMENTS_TABLE);
      if (!table) return null;
      const [row] = await rows(table.query().where(`doc_id = ${sqlString(docId)}`).limit(1));
      return row ? rowToDocument(row) : null;
    });
  }

  async getDocuments(docIds: readonly string[]): Promise<DocumentRecord[]> {
    const wanted = [...new Set(docIds)];
    if (wanted.length === 0) return [];
    return guarded('getDocuments', async () => {
      const table = await this.s.tables.open(DOCUMENTS_TABLE);
      if (!table) return [];
      const found = new Map<string, DocumentRecord>();
      for (const list of sqlInLists(wanted)) {
        for (const row of await rows(table.query().where(`doc_id IN (${list})`))) {
          const doc = rowToDocument(row);
          found.set(doc.doc_id, doc);
        }
      }
      return wanted.flatMap((id) => found.get(id) ?? []);
    });
  }

  /** Deletes a document's row, if the table exists. The caller holds the write lock. */
  async deleteRow(docId: string): Promise<void> {
    const documents = await guarded('deleteByDoc', () => this.s.tables.open(DOCUMENTS_TABLE));
    if (documents) await withConflictRetry('deleteByDoc', () => documents.delete(`doc_id = ${sqlString(docId)}`));
  }

  /** Resolves once every batch submitted so far has settled (for closing the store). */
  drain(): Promise<void> {
    return this.commits.drain();
  }

  private async commit(docs: DocumentRecord[]): Promise<void> {
    const table = await guarded('upsertDocuments', () => this.s.tables.require(DOCUMENTS_TABLE));
    const data = await guarded('upsertDocuments', async () => lancedb.makeArrowTable(docs.map(documentToRow), { schema: documentsSchema }));
    await withConflictRetry('upsertDocuments', () => table.mergeInsert('doc_id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data));
  }
}
