import { describe, expect, it } from 'vitest';
import { DocChunkCounts, MAX_REBUILD_BACKOFF, rowsPerDoc } from '../../shared/store/lancedb/doc-counts.ts';

const at = (version: number, entries: [string, number][]) => {
  const c = new DocChunkCounts();
  expect(c.shouldRebuild(version)).toBe(true);
  c.rebuilt(version, new Map(entries));
  return c;
};

describe('DocChunkCounts: chunks per document carried across this process commits', () => {
  it('answers from a scan at its version only, a document not seen having none', () => {
    const c = at(7, [['a', 3]]);
    expect(c.lookup('a', 7)).toBe(3);
    expect(c.lookup('b', 7)).toBe(0);
    expect(c.lookup('a', 8)).toBeUndefined();
  });

  it('moves to the next version with a commit: a new document gains exactly its rows, one that had chunks an unknown number', () => {
    const c = at(7, [['a', 3]]);
    c.committed(8, new Map([['b', 4], ['a', 2]]));
    expect(c.lookup('b', 8)).toBe(4);
    expect(c.lookup('a', 8)).toBeUndefined();
    expect(c.lookup('b', 7)).toBeUndefined();
    // Unknown stays unknown; the state is still current, so no rebuild for it.
    c.committed(9, new Map([['a', 1]]));
    expect(c.lookup('a', 9)).toBeUndefined();
    expect(c.shouldRebuild(9)).toBe(false);
    expect(c.lookup('b', 9)).toBe(4);
  });

  it('stops at a gap: a commit that does not directly follow (another process, a compaction) is not applied, nor any after it', () => {
    const c = at(7, [['a', 3]]);
    c.committed(9, new Map([['b', 4]]));
    expect(c.lookup('b', 9)).toBeUndefined();
    c.committed(10, new Map([['b', 4]]));
    expect(c.lookup('b', 10)).toBeUndefined();
    // Nor does it describe its own version any more.
    expect(c.lookup('a', 7)).toBeUndefined();
  });

  it('deletes: all of a document leaves it with none, some of it unknown; a delete that matched nothing may keep the version', () => {
    const c = at(7, [['a', 3], ['b', 2]]);
    c.deleted(8, 'a', true);
    expect(c.lookup('a', 8)).toBe(0);
    c.deleted(9, 'b', false);
    expect(c.lookup('b', 9)).toBeUndefined();
    c.deleted(9, 'z', true);
    expect(c.lookup('a', 9)).toBe(0);
    // A merge-insert always makes a version: the same one again is a gap.
    c.committed(9, new Map([['c', 1]]));
    expect(c.lookup('c', 9)).toBeUndefined();
  });

  it('after a rebuild no lookup used, answers the next ones by plain counts, twice as many each time, and a used one resets it', () => {
    const c = at(1, []);
    // Never used, then stale: the next miss is a plain count.
    expect(c.shouldRebuild(2)).toBe(false);
    expect(c.shouldRebuild(2)).toBe(true);
    c.rebuilt(2, new Map());
    expect(c.shouldRebuild(3)).toBe(false);
    expect(c.shouldRebuild(3)).toBe(false);
    expect(c.shouldRebuild(3)).toBe(true);
    c.rebuilt(3, new Map());
    expect(c.lookup('x', 3)).toBe(0);
    expect(c.shouldRebuild(4)).toBe(true);
    // Capped.
    for (let i = 0; i < 20; i++) {
      expect(c.shouldRebuild(100 + i)).toBe(true);
      c.rebuilt(100 + i, new Map());
      while (!c.shouldRebuild(200 + i));
    }
    let skipped = 0;
    while (!c.shouldRebuild(1000)) skipped += 1;
    expect(skipped).toBeLessThanOrEqual(MAX_REBUILD_BACKOFF);
  });

  it('rowsPerDoc counts distinct chunk ids per document', () => {
    expect(rowsPerDoc([{ chunk_id: 'x', doc_id: 'a' }, { chunk_id: 'x', doc_id: 'a' }, { chunk_id: 'y', doc_id: 'a' }, { chunk_id: 'x', doc_id: 'b' }])).toEqual(new Map([['a', 2], ['b', 1]]));
  });
});
