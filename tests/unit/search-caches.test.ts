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
});
