/**
 * The Weaviate vector store: one client, four parts sharing it (weaviate-state.ts): the chunk
 * index (weaviate-chunk-index.ts), the document table (weaviate-document-table.ts), the facet
 * values (weaviate-facets.ts) and the store admin (weaviate-store-admin.ts).
 */
import type { WeaviateClient } from 'weaviate-client';
import { composeVectorStore, type VectorStore } from '../vector-store.ts';
import { WeaviateChunkIndex } from './weaviate-chunk-index.ts';
import { connectWeaviate, type WeaviateConnectionOptions } from './weaviate-connection.ts';
import { WeaviateDocumentTable } from './weaviate-document-table.ts';
import { createWeaviateFacetOps } from './weaviate-facets.ts';
import { collectionNames, type BodyTokenization } from './weaviate-schema.ts';
import { WeaviateState, type WeaviateSettings } from './weaviate-state.ts';
import { WeaviateStoreAdmin } from './weaviate-store-admin.ts';

export { defaultVector } from './weaviate-state.ts';

/** Options of the Weaviate vector store. */
export interface WeaviateStoreOptions extends WeaviateConnectionOptions {
  /** Prefix of the collection names (`<prefix>Document`, `<prefix>Chunk`, `<prefix>FacetValueVector`). @defaultValue '' */
  collectionPrefix?: string;
  /** Tokenization of `body`: `auto` asks for `kagome_kr` and falls back to `trigram` when the server lacks it. @defaultValue auto */
  bodyTokenization?: BodyTokenization | 'auto';
  /** Objects per batch request (seed 000: 200–1,000). @defaultValue 500 */
  batchSize?: number;
  /** Candidates each side of a client-fused search fetches: `max(limit, candidateFloor)`. @defaultValue 100 */
  candidateFloor?: number;
  /** The server's QUERY_MAXIMUM_RESULTS: filtered reads page by offset up to it, larger ones scan by cursor. @defaultValue 10000 */
  maxResultWindow?: number;
}

/**
 * Opens the Weaviate store: one client for the process, collections created by `ensureSchema`.
 * `connect` is the client factory (tests pass a fake).
 * @throws RetryableError `STORE_UNAVAILABLE` when the server cannot be reached.
 * @throws PermanentError `INVALID_CONFIG` for a malformed URL or collection prefix.
 */
export async function createWeaviateStore(
  options: WeaviateStoreOptions,
  connect: (o: WeaviateConnectionOptions) => Promise<WeaviateClient> = connectWeaviate,
): Promise<VectorStore> {
  const settings: WeaviateSettings = {
    collectionPrefix: options.collectionPrefix ?? '',
    bodyTokenization: options.bodyTokenization ?? 'auto',
    batchSize: Math.min(1000, Math.max(1, options.batchSize ?? 500)),
    candidateFloor: options.candidateFloor ?? 100,
    maxResultWindow: options.maxResultWindow ?? 10_000,
  };
  const names = collectionNames(settings.collectionPrefix);
  const client = await connect(options);
  const state = new WeaviateState(client, settings, names);
  const documents = new WeaviateDocumentTable(state);
  const facets = createWeaviateFacetOps({
    client,
    name: names.FacetValueVector,
    guarded: (what, fn) => state.guarded(what, fn),
    insert: (collection, what, objects) => state.insert(collection, what, objects),
    deleteWhere: (collection, where, what) => state.deleteWhere(collection, where, what),
    schema: () => state.schema(),
  });
  return composeVectorStore({ chunks: new WeaviateChunkIndex(state, documents), documents, facets, admin: new WeaviateStoreAdmin(state) });
}
