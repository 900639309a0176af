import { describe, expect, it } from 'vitest';
import { createSearchCaches, FLAT_CHOICE_COUNT_MS } from '../../shared/store/lancedb/hybrid-search.ts';

describe('search caches', () => {
  it('keep a flat-choice count across table versions until it is FLAT_CHOICE_COUNT_MS old', () => {
    let now = 1_000;
    const caches = createSearchCaches(() => now);
    caches.at(7).counts.set("lang = 'ko'", 50);
    caches.flatChoiceCounts.set("lang = 'ko'", 50);
    now += FLAT_CHOICE_COUNT_MS;
    // A new version starts its own caches; the flat-choice count stands.
    expect(caches.at(8).counts.get("lang = 'ko'")).toBeUndefined();
    expect(caches.flatChoiceCounts.get("lang = 'ko'")).toBe(50);
    now += 1;
    expect(caches.flatChoiceCounts.get("lang = 'ko'")).toBeUndefined();
    expect(caches.flatChoiceCounts.size).toBe(0);
    // Counted again, it is good for another FLAT_CHOICE_COUNT_MS from then.
    caches.flatChoiceCounts.set("lang = 'ko'", 60);
    now += FLAT_CHOICE_COUNT_MS - 1;
    expect(caches.flatChoiceCounts.get("lang = 'ko'")).toBe(60);
  });

  it('keep the rows read by address across table versions, and forget them when the version goes back', () => {
    const caches = createSearchCaches();
    const row = { chunk: { chunk_id: 'c1' } } as unknown as Parameters<typeof caches.rows.set>[1];
    caches.at(7);
    caches.rows.set(42n, row);
    // Commits move the version on: an address still names the same row.
    caches.at(8);
    caches.at(9);
    expect(caches.rows.get(42n)).toBe(row);
    // A table made anew numbers its versions (and its row addresses) from the start again.
    caches.at(3);
    expect(caches.rows.get(42n)).toBeUndefined();
    expect(caches.rows.size).toBe(0);
  });
});
