import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { afterEach, describe, expect, it } from 'vitest';
import { openSearchView } from '../../shared/store/lancedb/search-view.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-search-view-'));
  dirs.push(dir);
  return dir;
}

/** A clock the test moves by hand. */
function manualClock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

/** A table of one row written by another connection (another process), and a view of it with `lagMs` on a manual clock. */
async function writerAndView(lagMs: number) {
  const dir = tempDir();
  const clock = manualClock();
  const db = await lancedb.connect(dir);
  const writer = await db.createTable('rows', [{ id: 'a', n: 1 }]);
  const view = openSearchView(dir, 'rows', lagMs, async () => null, clock.now);
  const close = () => {
    view.close();
    writer.close();
    db.close();
  };
  return { clock, writer, view, close };
}

describe('openSearchView (a lagging view of a table)', () => {
  it('opens one handle for searches that arrive together, and finds a table created after a first miss', async () => {
    const dir = tempDir();
    const view = openSearchView(dir, 'rows', 1000, async () => null);
    expect(await view.read(async (table) => table)).toBeNull();
    const db = await lancedb.connect(dir);
    (await db.createTable('rows', [{ id: 'a', n: 1 }])).close();
    const [first, second, third] = await Promise.all([0, 1, 2].map(() => view.read(async (table) => table)));
    expect(first).not.toBeNull();
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(await view.read(async (table) => table?.countRows())).toBe(1);
    view.close();
    db.close();
  });

  it('keeps a read on one version while another process commits, and moves later reads on once the lag has passed', async () => {
    const { clock, writer, view, close } = await writerAndView(1000);

    let oldHandle: lancedb.Table | null = null;
    const seen = await view.read(async (table) => {
      oldHandle = table;
      const before = await table!.countRows();
      await writer.add([{ id: 'b', n: 2 }]);
      clock.advance(5000);
      // A read that begins now opens the new version; this one still reads its own.
      const other = await view.read(async (t) => t!.countRows());
      return { before, after: await table!.countRows(), other, version: await table!.version() };
    });
    expect(seen).toEqual({ before: 1, after: 1, other: 2, version: 1 });
    // Replaced, and closed once its last read was done.
    expect(oldHandle!.isOpen()).toBe(false);

    // Within the lag, another process's commit is not seen yet; past it, it is, on the same
    // handle moved to the latest version (nothing read it meanwhile).
    const handle = await view.read(async (t) => t);
    await writer.add([{ id: 'c', n: 3 }]);
    clock.advance(999);
    expect(await view.read(async (t) => t!.countRows())).toBe(2);
    clock.advance(1);
    const [moved, count] = await view.read(async (t) => [t, await t!.countRows()] as const);
    expect(moved).toBe(handle);
    expect(count).toBe(3);
    close();
  });

  it("shows this process's own commit to every read that begins after advance(), within the lag", async () => {
    const { writer, view, close } = await writerAndView(60_000);
    expect(await view.read(async (t) => t!.countRows())).toBe(1);
    await writer.add([{ id: 'b', n: 2 }]);
    expect(await view.read(async (t) => t!.countRows())).toBe(1);
    view.advance();
    expect(await view.read(async (t) => t!.countRows())).toBe(2);
    view.close();
    await expect(view.read(async () => 0)).rejects.toMatchObject({ code: 'STORE_REJECTED' });
    close();
  });

  it('reads through the fresh handle when the lag is 0, and refuses a negative lag', async () => {
    const sentinel = {} as lancedb.Table;
    const view = openSearchView(tempDir(), 'rows', 0, async () => sentinel);
    expect(await view.read(async (t) => t)).toBe(sentinel);
    expect(() => openSearchView(tempDir(), 'rows', -1, async () => null)).toThrow(/non-negative/);
  });
});
