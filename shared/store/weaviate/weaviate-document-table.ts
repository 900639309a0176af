import type { DocumentRecord } from '../../domain/index.ts';
import type { DocumentTable } from '../document-table.ts';
import { validDocuments } from '../validation.ts';
import { ID_BATCH, documentToProperties, documentUuid, propertiesToDocument, type Properties } from './weaviate-objects.ts';
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

  async getDocuments(docIds: readonly string[]): Promise<DocumentRecord[]> {
    const wanted = [...new Set(docIds)];
    if (wanted.length === 0 || !(await this.s.schema())) return [];
    const found = new Map<string, DocumentRecord>();
    for (let start = 0; start < wanted.length; start += ID_BATCH) {
      const slice = wanted.slice(start, start + ID_BATCH).map(documentUuid);
      const page = await this.s.guarded('getDocuments', () =>
        this.s.documents.query.fetchObjects({ filters: { operator: 'ContainsAny', target: { property: '_id' }, value: slice }, limit: slice.length }),
      );
      for (const o of page.objects) {
        const doc = propertiesToDocument(o.properties as Properties);
        found.set(doc.doc_id, doc);
      }
    }
    return wanted.flatMap((id) => found.get(id) ?? []);
  }

  /** Deletes a document's object (its chunks are the chunk index's). */
  async deleteRow(docId: string): Promise<void> {
    await this.s.guarded('deleteByDoc', () => this.s.documents.data.deleteById(documentUuid(docId)));
  }
}
