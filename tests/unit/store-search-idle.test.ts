import { mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as lancedb from '@lancedb/lancedb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FOLD_SPACING, LanceIndexUpkeep, MAX_FOLD_SPACING_MS, SEARCH_IDLE_REFRESH_MS, foldDue, lanceSettings } from '../../shared/store/lancedb/lance-state.ts';
import { DEFAULT_RECENT_REFRESH_INTERVAL_MS } from '../../shared/store/lancedb/store-options.ts';
import { SEARCHED_AT_FILE, fileSearchActivity, isSearchIdle, type SearchActivity } from '../../shared/store/lancedb/search-activity.ts';
import { createMutex } from '../../shared/store/lancedb/write-guard.ts';

/** A chunks (or recent) table that has its full-text index and counts the refreshes (optimize calls) and deletes it gets. */
function fakeTable() {
  const table = {
    optimizes: 0,
    deletes: [] as string[],
    delete: async (predicate: string) => {
      table.deletes.push(predicate);
      return {};
    },
    indexStats: async () => ({ numUnindexedRows: 5, numIndexedRows: 10, indexType: 'FTS', distanceType: undefined, numIndices: 1, loss: undefined }),
    optimize: async () => {
      table.optimizes += 1;
      return {};
    },
  };
  return table;
}

function upkeepWith(sinceLastSearch: number | null, searchIdleAfterMs = 30_000, recent: ReturnType<typeof fakeTable> | null = null, recentIntervalMs = 0) {
  const marks: number[] = [];
  const activity: SearchActivity = { mark: () => marks.push(1), sinceLastSearch: async () => sinceLastSearch };
  const settings = {
    pruneOlderThanMs: 3_600_000,
    refreshPacing: { minIntervalMs: 0, maxShare: 1 },
    recentRefreshPacing: { minIntervalMs: recentIntervalMs, maxShare: 1 },
    searchIdleAfterMs,
    foldAfter: { rows: 10, ms: 60_000 },
  };
  const upkeep = new LanceIndexUpkeep(createMutex(), settings, activity, async () => (recent ? asTable(recent) : null));
  return { upkeep, marks };
}

const asTable = (t: ReturnType<typeof fakeTable>) => t as unknown as lancedb.Table;

describe('search-idle index refresh', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.useRealTimers();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('isSearchIdle: never searched or not lately is idle; a recent search or a 0 setting is not', () => {
    expect(isSearchIdle(null, 30_000)).toBe(true);
    expect(isSearchIdle(45_000, 30_000)).toBe(true);
    expect(isSearchIdle(2_000, 30_000)).toBe(false);
    expect(isSearchIdle(null, 0)).toBe(false);
  });

  it('a store searched lately refreshes behind every write', async () => {
    const table = fakeTable();
    const { upkeep } = upkeepWith(1_000);
    await upkeep.afterChunkWrite(asTable(table));
    await upkeep.settled();
    expect(table.optimizes).toBe(1);
  });

  it('a search-idle store defers the refresh to the next search here, which records itself', async () => {
    const table = fakeTable();
    const { upkeep, marks } = upkeepWith(null);
    await upkeep.afterChunkWrite(asTable(table));
    await upkeep.afterChunkWrite(asTable(table));
    // A refresh asked for would have run by now (the fake's optimize takes no time).
    await new Promise((r) => setTimeout(r, 50));
    expect(table.optimizes).toBe(0);
    upkeep.searched();
    await upkeep.settled();
    expect(table.optimizes).toBe(1);
    expect(marks).toHaveLength(1);
    // Nothing is deferred any more: a later search asks for no refresh.
    upkeep.searched();
    await upkeep.settled();
    expect(table.optimizes).toBe(1);
  });

  it('a search-idle store is still refreshed once its oldest waiting write is SEARCH_IDLE_REFRESH_MS old', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const table = fakeTable();
    const { upkeep } = upkeepWith(null);
    await upkeep.afterChunkWrite(asTable(table));
    vi.setSystemTime(1_000_000 + SEARCH_IDLE_REFRESH_MS - 1);
    await upkeep.afterChunkWrite(asTable(table));
    await new Promise((r) => setTimeout(r, 50));
    expect(table.optimizes).toBe(0);
    vi.setSystemTime(1_000_000 + SEARCH_IDLE_REFRESH_MS);
    await upkeep.afterChunkWrite(asTable(table));
    await vi.waitFor(() => expect(table.optimizes).toBe(1));
    // The clock starts again with the next waiting write.
    vi.setSystemTime(1_000_000 + SEARCH_IDLE_REFRESH_MS + 5_000);
    await upkeep.afterChunkWrite(asTable(table));
    await new Promise((r) => setTimeout(r, 50));
    expect(table.optimizes).toBe(1);
  });

  it('closing folds in a deferred refresh; one that maintenance already ran is not run again', async () => {
    const closing = fakeTable();
    const a = upkeepWith(null);
    await a.upkeep.afterChunkWrite(asTable(closing));
    await a.upkeep.settled();
    expect(closing.optimizes).toBe(1);

    const maintained = fakeTable();
    const b = upkeepWith(null);
    await b.upkeep.afterChunkWrite(asTable(maintained));
    await b.upkeep.refreshText(asTable(maintained));
    await b.upkeep.settled();
    expect(maintained.optimizes).toBe(1);
  });

  it('foldDue: none written is never due; enough rows or an old enough first write is', () => {
    const after = { rows: 10, ms: 1_000 };
    expect(foldDue(null, 5_000, after)).toBe(false);
    expect(foldDue({ rows: 9, since: 4_001 }, 5_000, after)).toBe(false);
    expect(foldDue({ rows: 10, since: 4_999 }, 5_000, after)).toBe(true);
    expect(foldDue({ rows: 1, since: 4_000 }, 5_000, after)).toBe(true);
    // No sooner than FOLD_SPACING times the last fold's length after it ended.
    const last = { endedAt: 4_000, ms: 400 };
    expect(foldDue({ rows: 10, since: 0 }, 4_000 + FOLD_SPACING * 400 - 1, after, last)).toBe(false);
    expect(foldDue({ rows: 10, since: 0 }, 4_000 + FOLD_SPACING * 400, after, last)).toBe(true);
    expect(foldDue(null, 60_000, after, last)).toBe(false);
    // A fold the clock saw as hours long holds the next back at most MAX_FOLD_SPACING_MS; a clock
    // set back since the last fold ended holds nothing back.
    const long = { endedAt: 4_000, ms: 3_600_000 };
    expect(foldDue({ rows: 10, since: 0 }, 4_000 + MAX_FOLD_SPACING_MS - 1, after, long)).toBe(false);
    expect(foldDue({ rows: 10, since: 0 }, 4_000 + MAX_FOLD_SPACING_MS, after, long)).toBe(true);
    expect(foldDue({ rows: 10, since: 0 }, 3_000, after, last)).toBe(true);
  });

  it('a long fold spaces the next: until then a due fold waits and the recent rows are refreshed instead', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const chunks = fakeTable();
    // This fold takes 2 s of the clock.
    chunks.optimize = async () => {
      chunks.optimizes += 1;
      vi.setSystemTime(Date.now() + 2_000);
      return {};
    };
    const recent = fakeTable();
    const { upkeep } = upkeepWith(1_000, 30_000, recent);
    await upkeep.afterChunkWrite(asTable(chunks), 10);
    await vi.waitFor(() => expect(chunks.optimizes).toBe(1));
    await vi.waitFor(() => expect(recent.deletes).toHaveLength(1));
    // Not before the fold ended (the faked clock still moves with real time).
    const endedAt = Date.now();
    // Enough rows for a fold again, but well within three times the last one's 2 s after it.
    vi.setSystemTime(endedAt + FOLD_SPACING * 2_000 - 3_000);
    await upkeep.afterChunkWrite(asTable(chunks), 10);
    await vi.waitFor(() => expect(recent.optimizes).toBe(1));
    expect(chunks.optimizes).toBe(1);
    vi.setSystemTime(endedAt + FOLD_SPACING * 2_000);
    await upkeep.afterChunkWrite(asTable(chunks), 1);
    await vi.waitFor(() => expect(chunks.optimizes).toBe(2));
    await upkeep.settled();
  });

  it("paces the recent rows' refresh by its own interval: the first runs at once, the next waits (or for close), a due fold does not", async () => {
    const chunks = fakeTable();
    const recent = fakeTable();
    const { upkeep } = upkeepWith(1_000, 30_000, recent, 60_000);
    await upkeep.afterChunkWrite(asTable(chunks), 2);
    await vi.waitFor(() => expect(recent.optimizes).toBe(1));
    await upkeep.afterChunkWrite(asTable(chunks), 2);
    // A refresh not held back would have run by now (the fakes take no time).
    await new Promise((r) => setTimeout(r, 50));
    expect(recent.optimizes).toBe(1);
    // The fold keeps its own (unpaced) schedule.
    await upkeep.afterChunkWrite(asTable(chunks), 6);
    await vi.waitFor(() => expect(chunks.optimizes).toBe(1));
    await upkeep.settled();
    expect(recent.optimizes).toBe(2);
  });

  it("lanceSettings: the recent rows' refresh is paced by the larger of its interval and the refreshes' own, 2 s by default", () => {
    expect(lanceSettings({ dir: 'x' }).recentRefreshPacing).toEqual({ minIntervalMs: DEFAULT_RECENT_REFRESH_INTERVAL_MS, maxShare: 1 });
    expect(DEFAULT_RECENT_REFRESH_INTERVAL_MS).toBe(2_000);
    expect(lanceSettings({ dir: 'x', recentRefreshIntervalMs: 0 }).recentRefreshPacing).toEqual({ minIntervalMs: 0, maxShare: 1 });
    expect(lanceSettings({ dir: 'x', recentRefreshIntervalMs: 500, refreshPacing: { minIntervalMs: 3_000, maxShare: 0.5 } }).recentRefreshPacing).toEqual({ minIntervalMs: 3_000, maxShare: 0.5 });
    expect(() => lanceSettings({ dir: 'x', recentRefreshIntervalMs: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }));
  });

  it('with recent rows, a searched store refreshes them behind every write and folds once enough rows were written; the fold drops what it covers', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const chunks = fakeTable();
    const recent = fakeTable();
    const { upkeep } = upkeepWith(1_000, 30_000, recent);
    await upkeep.afterChunkWrite(asTable(chunks), 6);
    await vi.waitFor(() => expect(recent.optimizes).toBe(1));
    // A fold asked for would have run by now (the fakes take no time).
    await new Promise((r) => setTimeout(r, 50));
    expect(chunks.optimizes).toBe(0);
    vi.setSystemTime(1_000_500);
    await upkeep.afterChunkWrite(asTable(chunks), 4);
    await vi.waitFor(() => expect(chunks.optimizes).toBe(1));
    // Recent rows added before the fold began are in the chunks table's index now.
    await vi.waitFor(() => expect(recent.deletes).toHaveLength(1));
    const [, before] = /^added_at < TIMESTAMP '(.+)'$/.exec(recent.deletes[0] ?? '') ?? [];
    expect(Date.parse(before ?? '')).toBeGreaterThanOrEqual(1_000_500);
    expect(recent.optimizes).toBe(1);
    // The count starts again: the next write only refreshes the recent rows, and closing folds it.
    await upkeep.afterChunkWrite(asTable(chunks), 1);
    await vi.waitFor(() => expect(recent.optimizes).toBe(2));
    expect(chunks.optimizes).toBe(1);
    await upkeep.settled();
    expect(chunks.optimizes).toBe(2);
    // Nothing written since: closing folds nothing more.
    await upkeep.settled();
    expect(chunks.optimizes).toBe(2);
  });

  it('fileSearchActivity: a search is seen by another process through the file; marks are at most one a second', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-search-idle-'));
    dirs.push(dir);
    let now = 1_000_000;
    const clock = () => now;
    const searcher = fileSearchActivity(dir, clock);
    const writer = fileSearchActivity(dir, clock);
    expect(await writer.sinceLastSearch()).toBeNull();
    searcher.mark();
    await vi.waitFor(() => expect(statSync(path.join(dir, SEARCHED_AT_FILE)).isFile()).toBe(true));
    // The file says when: set its time, as another process's search would have, 5 s ago.
    utimesSync(path.join(dir, SEARCHED_AT_FILE), new Date(now - 5_000), new Date(now - 5_000));
    expect(await writer.sinceLastSearch()).toBe(5_000);
    // This process's own search counts at once, whatever the file says.
    now += 40_000;
    expect(await writer.sinceLastSearch()).toBe(45_000);
    writer.mark();
    expect(await writer.sinceLastSearch()).toBe(0);
    // A second search within the second writes nothing more.
    utimesSync(path.join(dir, SEARCHED_AT_FILE), new Date(0), new Date(0));
    now += 500;
    writer.mark();
    await new Promise((r) => setTimeout(r, 20));
    expect(statSync(path.join(dir, SEARCHED_AT_FILE)).mtimeMs).toBe(0);
  });
});
