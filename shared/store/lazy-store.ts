import type { VectorStore } from './vector-store.ts';

/**
 * A VectorStore that opens the real one on its first call, once (concurrent first calls share
 * the opening). Most stage workers (extract, sectionize, chunk, enrich, embed, memory) never touch
 * the store, yet every process builds the same ports: opening LanceDB eagerly loaded its native
 * binding and Arrow into each of them, and made a scale-up wait for a store it does not use.
 * A failed opening is not kept: the next call tries again (a Weaviate that comes up later).
 *
 * @param open opens the store; its errors (e.g. `STORE_UNAVAILABLE`) reach the call that opened it.
 */
export function createLazyVectorStore(open: () => Promise<VectorStore>): VectorStore & { readonly opened: boolean } {
  let opening: Promise<VectorStore> | null = null;
  let closed = false;
  const store = (): Promise<VectorStore> => {
    opening ??= open().catch((err: unknown) => {
      opening = null;
      throw err;
    });
    return opening;
  };
  return {
    get opened() {
      return opening !== null;
    },
    ensureSchema: async (opts) => (await store()).ensureSchema(opts),
    dimension: async () => (await store()).dimension(),
    embedderRecord: async () => (await store()).embedderRecord(),
    upsertDocuments: async (docs) => (await store()).upsertDocuments(docs),
    upsertChunks: async (chunks) => (await store()).upsertChunks(chunks),
    deleteByDoc: async (docId, opts) => (await store()).deleteByDoc(docId, opts),
    hybrid: async (q) => (await store()).hybrid(q),
    aggregate: async (q) => (await store()).aggregate(q),
    fetchByIds: async (ids) => (await store()).fetchByIds(ids),
    getDocument: async (docId) => (await store()).getDocument(docId),
    getDocuments: async (docIds) => (await store()).getDocuments(docIds),
    countChunks: async (filter, opts) => (await store()).countChunks(filter, opts),
    listChunkIds: async (docId) => (await store()).listChunkIds(docId),
    async *scanChunks(q) {
      yield* (await store()).scanChunks(q);
    },
    upsertFacetValues: async (rows) => (await store()).upsertFacetValues(rows),
    replaceFacetValues: async (facet, rows) => (await store()).replaceFacetValues(facet, rows),
    listFacetValues: async (facet) => (await store()).listFacetValues(facet),
    maintain: async () => (await store()).maintain(),
    // Closing a store that was never opened opens nothing; one being opened is closed once open.
    async close() {
      if (closed) return;
      closed = true;
      if (opening) await (await opening.catch(() => null))?.close();
    },
  };
}
