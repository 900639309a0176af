import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentTable } from '../../shared/store/document-table.ts';
import type { StoreAdmin } from '../../shared/store/store-admin.ts';
import { DIM, MODEL, DOC_A, DOC_B, documents, rejectsWith } from './store-fixtures.ts';

/** What the document-table suite touches: the table, plus the schema to write into. */
export type DocumentTableSubject = DocumentTable & Pick<StoreAdmin, 'ensureSchema' | 'close'>;

/**
 * The DocumentTable contract (shared/store/document-table.ts): every adapter runs this suite
 * against a fresh, empty store per test; the suite closes it after each test. (That a document's
 * row goes with its chunks is the chunk index's `deleteByDoc`, checked by its suite.)
 */
export function runDocumentTableContract(name: string, makeStore: () => Promise<DocumentTableSubject>): void {
  describe(`DocumentTable contract: ${name}`, () => {
    let store: DocumentTableSubject;

    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('before ensureSchema: no document, writes are rejected', async () => {
      expect(await store.getDocument(DOC_A)).toBeNull();
      expect(await store.getDocuments([DOC_A])).toEqual([]);
      await rejectsWith(store.upsertDocuments([documents().a]), 'STORE_REJECTED');
    });

    describe('with the schema', () => {
      beforeEach(async () => {
        await store.ensureSchema({ dimension: DIM, model: MODEL });
        const d = documents();
        await store.upsertDocuments([d.a, d.b]);
      });

      it('upserts are idempotent on doc_id', async () => {
        const d = documents();
        await store.upsertDocuments([d.a, d.b]);
        expect(await store.getDocument(DOC_A)).toEqual(documents().a);
      });

      it('getDocument round-trips the record', async () => {
        expect(await store.getDocument(DOC_B)).toEqual(documents().b);
        expect(await store.getDocument('missing')).toBeNull();
      });

      it('getDocuments reads a list at once: the rows that exist, in the order asked, each once', async () => {
        const d = documents();
        expect(await store.getDocuments([DOC_B, 'missing', DOC_A, DOC_B])).toEqual([d.b, d.a]);
        expect(await store.getDocuments([])).toEqual([]);
        // More ids than one query takes: every row is still found.
        const many = Array.from({ length: 1200 }, (_, i) => `absent-${i}`);
        expect(await store.getDocuments([...many, DOC_A])).toEqual([d.a]);
      });

      it('an upsert replaces the row; a malformed record is refused', async () => {
        await store.upsertDocuments([{ ...documents().b, title: 'HTTP State Management Mechanism, revised' }]);
        expect((await store.getDocument(DOC_B))?.title).toBe('HTTP State Management Mechanism, revised');
        await rejectsWith(store.upsertDocuments([{ ...documents().a, page_count: -1 }]), 'STORE_REJECTED');
        expect(await store.getDocument(DOC_A)).toEqual(documents().a);
      });
    });
  });
}
