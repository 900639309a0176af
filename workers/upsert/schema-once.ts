import type { VectorStore } from '../../shared/store/vector-store.ts';

/**
 * `ensureSchema` once per store and dimension in this process, not once per upsert job: on
 * LanceDB it lists tables and indexes under the store's write lock, so every call queued behind
 * (and held up) the other documents' writes. A failed attempt is forgotten, so the next job tries
 * again; a different dimension is always passed through (the store refuses it with its own error).
 */
export function createSchemaOnce(): (store: VectorStore, dimension: number) => Promise<void> {
  const ensured = new WeakMap<VectorStore, { dimension: number; done: Promise<void> }>();
  return (store, dimension) => {
    const known = ensured.get(store);
    if (known && known.dimension === dimension) return known.done;
    const done = store.ensureSchema({ dimension });
    const entry = { dimension, done };
    ensured.set(store, entry);
    done.catch(() => {
      if (ensured.get(store) === entry) ensured.delete(store);
    });
    return done;
  };
}
