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

describe('openSearchView (a lagging view of a table)', () => {
  it('opens one handle for searches that arrive together, and finds a table created after a first miss', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-search-view-'));
    dirs.push(dir);
    const view = openSearchView(dir, 'rows', 1000, async () => null);
    expect(await view.table()).toBeNull();
    const db = await lancedb.connect(dir);
    (await db.createTable('rows', [{ id: 'a', n: 1 }])).close();
    const [first, second, third] = await Promise.all([view.table(), view.table(), view.table()]);
    expect(first).not.toBeNull();
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(await first?.countRows()).toBe(1);
    view.close();
    db.close();
  });
});
