import type { VectorStore } from '../../shared/store/vector-store.ts';
import { runChunkIndexContract } from './chunk-index.contract.ts';
import { runDocumentTableContract } from './document-table.contract.ts';
import { runFacetValuesContract } from './facet-values.contract.ts';
import { runStoreAdminContract } from './store-admin.contract.ts';

/**
 * The vector-store port's contract: the suite of each of its parts (chunk index, document table,
 * facet values, store admin), run against whole stores as an adapter opens them. Every adapter
 * calls this; `makeStore` must return a new, empty store with its own storage each time.
 */
export function runVectorStoreContract(name: string, makeStore: () => Promise<VectorStore>): void {
  runStoreAdminContract(name, makeStore);
  runChunkIndexContract(name, makeStore);
  runDocumentTableContract(name, makeStore);
  runFacetValuesContract(name, makeStore);
}
