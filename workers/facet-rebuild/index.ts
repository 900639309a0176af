/**
 * The facet rebuild worker: facet-value vectors from the chunks the store holds, then the store's
 * index upkeep (VectorStore.maintain); asked for, debounced, by every upsert and delete.
 * May import shared/, queues/ and workers/runtime/; never apps/.
 * Entry point: facetRebuildWorker.
 */

export { facetRebuildWorker } from './facet-rebuild.worker.ts';
