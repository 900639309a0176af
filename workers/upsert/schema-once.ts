import type { VectorStore } from '../../shared/store/index.ts';

/**
 * `ensureSchema` once per store, dimension and embedder model in this process, not once per upsert job: on
 * LanceDB it lists tables and indexes under the store's write lock, so every call queued behind
 * (and held up) the other documents' writes. A failed attempt is forgotten, so the next job tries
 * again; a different dimension or model is always passed through (the store refuses it with its
 * own error: `DIMENSION_MISMATCH`, `EMBEDDER_MISMATCH`).
 */
export function createSchemaOnce(): (store: VectorStore, dimension: number, model: string) => Promise<void> {
  const ensured = new WeakMap<VectorStore, { dimension: number; model: string; done: Promise<void> }>();
  return (store, dimension, model) => {
    const known = ensured.get(store);
    if (known && known.dimension === dimension && known.model === model) return known.done;
    const done = store.ensureSchema({ dimension, model });
    const entry = { dimension, model, done };
    ensured.set(store, entry);
    done.catch(() => {
      if (ensured.get(store) === entry) ensured.delete(store);
    });
    return done;
  };
}
