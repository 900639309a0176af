/**
 * The sectionize stage: extracted.json → sections.json, tables read as data and their lines
 * kept out of the sections' text (sectionize.stage.ts, pure).
 * May import shared/, queues/ and workers/runtime/; never apps/.
 * Entry point: sectionizeWorker.
 */

export { sectionizeWorker } from './sectionize.worker.ts';
