import { describe, expect, it } from 'vitest';
import { createExpiringLru, createLru } from '../../shared/lru.ts';

describe('createLru', () => {
  it('keeps the most recently used entries and evicts the least recently used one past its size', () => {
    const lru = createLru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // 'a' is now the most recent: 'b' goes first
    lru.set('c', 3);
    expect([lru.get('a'), lru.get('b'), lru.get('c'), lru.size]).toEqual([1, undefined, 3, 2]);
    lru.set('a', 10); // overwriting refreshes, it does not grow
    lru.set('d', 4);
    expect([lru.get('a'), lru.get('c'), lru.get('d'), lru.size]).toEqual([10, undefined, 4, 2]);
    lru.delete('a');
    expect([lru.get('a'), lru.size]).toEqual([undefined, 1]);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => createLru(0)).toThrow(RangeError);
    expect(() => createLru(1.5)).toThrow(/positive integer/);
  });
});

describe('createExpiringLru', () => {
  it('reads an entry until it is maxAgeMs old, then forgets it; setting it again starts its age over', () => {
    let now = 0;
    const lru = createExpiringLru<string, number>(4, 100, () => now);
    lru.set('a', 1);
    now = 100;
    expect(lru.get('a')).toBe(1);
    now = 101;
    expect(lru.get('a')).toBeUndefined();
    expect(lru.size).toBe(0);
    lru.set('a', 2);
    now = 200;
    expect(lru.get('a')).toBe(2);
  });
});
