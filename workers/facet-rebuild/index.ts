export { facetRebuildWorker } from './facet-rebuild.worker.ts';
