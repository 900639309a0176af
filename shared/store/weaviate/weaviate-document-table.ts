import type { DocumentRecord } from '../../domain/index.ts';
import type { DocumentTable } from '../document-table.ts';
import { validDocuments } from '../validation.ts';
import { documentToProperties, documentUuid, propertiesToDocument, type Properties } from './weaviate-objects.ts';
import type { WeaviateState } from './weaviate-state.ts';

/** The document table on Weaviate: the Document collection, object id uuid5 of the `doc_id`. */
export class WeaviateDocumentTable implements DocumentTable {
  constructor(private readonly s: WeaviateState) {}

  async upsertDocuments(docs: DocumentRecord[]): Promise<void> {
    if (docs.length === 0) return;
    const valid = validDocuments(docs);
    await this.s.requireSchema('upsertDocuments');
    await this.s.insert(this.s.documents, 'upsertDocuments', valid.map((d) => ({ id: documentUuid(d.doc_id), properties: documentToProperties(d) })));
  }

  async getDocument(docId: string): Promise<DocumentRecord | null> {
    if (!(await this.s.schema())) return null;
    const o = await this.s.guarded('getDocument', () => this.s.documents.query.fetchObjectById(documentUuid(docId)));
    return o ? propertiesToDocument(o.properties as Properties) : null;
  }

  /** Deletes a document's object (its chunks are the chunk index's). */
  async deleteRow(docId: string): Promise<void> {
    await this.s.guarded('deleteByDoc', () => this.s.documents.data.deleteById(documentUuid(docId)));
  }
}
