/** A least-recently-used map of at most `maxEntries` entries (see {@link createLru}). */
export interface Lru<K, V> {
  /** The value under `key`, now the most recently used; undefined when absent. */
  get(key: K): V | undefined;
  /** Stores `value` as the most recently used, evicting the least recently used past the limit. */
  set(key: K, value: V): void;
  /** Forgets `key`. */
  delete(key: K): void;
  readonly size: number;
}

/**
 * An in-process LRU map. A Map iterates in insertion order, so re-inserting on use keeps the
 * least recently used entry first, where eviction takes it.
 * @throws RangeError when `maxEntries` is not a positive integer.
 */
export function createLru<K, V>(maxEntries: number): Lru<K, V> {
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`LRU maxEntries must be a positive integer, got ${maxEntries}`);
  const entries = new Map<K, V>();
  return {
    get(key) {
      const hit = entries.get(key);
      if (hit === undefined) return undefined;
      entries.delete(key);
      entries.set(key, hit);
      return hit;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as K);
    },
    delete(key) {
      entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}

/**
 * An {@link Lru} whose entries expire `maxAgeMs` after they were set, by the clock `now` (ms): an
 * expired entry reads as absent and is forgotten.
 * @throws RangeError as {@link createLru}.
 */
export function createExpiringLru<K, V>(maxEntries: number, maxAgeMs: number, now: () => number): Lru<K, V> {
  const lru = createLru<K, { value: V; at: number }>(maxEntries);
  return {
    get(key) {
      const hit = lru.get(key);
      if (hit === undefined) return undefined;
      if (now() - hit.at <= maxAgeMs) return hit.value;
      lru.delete(key);
      return undefined;
    },
    set: (key, value) => lru.set(key, { value, at: now() }),
    delete: (key) => lru.delete(key),
    get size() {
      return lru.size;
    },
  };
}
