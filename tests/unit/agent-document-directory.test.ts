import { describe, expect, it } from 'vitest';
import { createDocumentDirectory } from '../../shared/retrieval/document-directory.ts';
import type { DocumentRecord } from '../../shared/domain/document.ts';
import type { AggregateBucket } from '../../shared/store/vector-store.ts';

function doc(id: string, title: string): DocumentRecord {
  return {
    doc_id: id, version: 'a'.repeat(64), title, doc_type: '10-Q', jurisdiction: 'US', lang: 'en', valid_from: null, valid_to: null, entities: [], page_count: 1,
    provenance: { source_uri: `file://${id}`, sha256: 'a'.repeat(64), fetched_at: '2025-01-01T00:00:00.000Z', collector: 't', bytes: 1 },
  };
}

function fakeStore(docs: Map<string, { count: number; doc: DocumentRecord }>) {
  const reads: string[] = [];
  return {
    reads,
    aggregates: 0,
    async aggregate(): Promise<AggregateBucket[]> {
      this.aggregates += 1;
      return [...docs.entries()].map(([value, d]) => ({ value, count: d.count }));
    },
    listReads: 0,
    async getDocuments(ids: readonly string[]): Promise<DocumentRecord[]> {
      this.listReads += 1;
      reads.push(...ids);
      return ids.flatMap((id) => docs.get(id)?.doc ?? []);
    },
  };
}

/** Lets a background refresh of the fake stores below finish. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('document directory', () => {
  it('lists the documents once per ttl, reads only new or changed ones, drops deleted ones, and re-reads all every fullEvery refreshes', async () => {
    const docs = new Map([['a', { count: 3, doc: doc('a', 'A') }], ['b', { count: 2, doc: doc('b', 'B') }]]);
    const store = fakeStore(docs);
    let now = 0;
    const list = createDocumentDirectory(store, { ttlMs: 1000, fullEvery: 3, now: () => now });
    expect((await list()).map((d) => d.title)).toEqual(['A', 'B']);
    await list();
    expect(store.aggregates).toBe(1);
    expect(store.reads.sort()).toEqual(['a', 'b']);
    // Every row a refresh needs in one list read, not one read each.
    expect(store.listReads).toBe(1);

    now = 2000;
    docs.set('b', { count: 4, doc: doc('b', 'B v2') });
    docs.delete('a');
    docs.set('c', { count: 1, doc: doc('c', 'C') });
    store.reads.length = 0;
    // Past the ttl the question gets the listing it has, and a refresh starts behind it.
    expect((await list()).map((d) => d.title)).toEqual(['A', 'B']);
    await settle();
    expect((await list()).map((d) => d.title)).toEqual(['B v2', 'C']);
    expect(store.reads.sort()).toEqual(['b', 'c']);

    now = 4000;
    store.reads.length = 0;
    await list();
    await settle();
    expect(store.reads).toEqual([]);
    now = 6000;
    await list();
    await settle();
    expect(store.reads.sort()).toEqual(['b', 'c']);
    expect(store.aggregates).toBe(4);
  });

  it('past the first listing a question never waits for a refresh; a failed one keeps the old listing', async () => {
    const docs = new Map([['a', { count: 1, doc: doc('a', 'A') }]]);
    let release: () => void = () => undefined;
    let blocked = false;
    let failing = false;
    const store = {
      async aggregate(): Promise<AggregateBucket[]> {
        if (failing) throw new Error('store down');
        return [...docs.entries()].map(([value, d]) => ({ value, count: d.count }));
      },
      async getDocuments(ids: readonly string[]): Promise<DocumentRecord[]> {
        if (blocked) await new Promise<void>((r) => (release = r));
        return ids.flatMap((id) => docs.get(id)?.doc ?? []);
      },
    };
    let now = 0;
    const list = createDocumentDirectory(store, { ttlMs: 1000, now: () => now });
    expect((await list()).map((d) => d.title)).toEqual(['A']);
    docs.set('b', { count: 1, doc: doc('b', 'B') });
    blocked = true;
    now = 5000;
    // The refresh hangs on a Document read; questions are answered from the listing they have.
    expect((await list()).map((d) => d.title)).toEqual(['A']);
    expect((await list()).map((d) => d.title)).toEqual(['A']);
    blocked = false;
    release();
    await settle();
    expect((await list()).map((d) => d.title)).toEqual(['A', 'B']);
    failing = true;
    now = 10_000;
    expect((await list()).map((d) => d.title)).toEqual(['A', 'B']);
    await settle();
    expect((await list()).map((d) => d.title)).toEqual(['A', 'B']);
  });

  it('a failed first listing is not kept: the next call asks again', async () => {
    let fail = true;
    const store = {
      async aggregate(): Promise<AggregateBucket[]> {
        if (fail) throw new Error('store down');
        return [];
      },
      async getDocuments() {
        return [];
      },
    };
    const list = createDocumentDirectory(store, { now: () => 0 });
    await expect(list()).rejects.toThrow('store down');
    fail = false;
    expect(await list()).toEqual([]);
  });
});

describe('document directory over many documents', () => {
  it("reads the rows in one list read, at most a few documents' headings at once (thousands at once ran out of file descriptors), and lists them all", async () => {
    const profiled = (id: string, title: string): DocumentRecord => ({
      ...doc(id, title),
      profile: {
        organisations: [{ name: 'Orchard Devices Inc.', aliases: ['orchard devices'] }],
        form: '10-Q',
        period: { end: '2023-07-01', fiscalYear: 2023, fiscalQuarter: 3, calendarYear: 2023, calendarQuarter: 3, edition: null },
        label: 'Orchard Devices Inc. · 10-Q',
      },
    });
    const ids = Array.from({ length: 500 }, (_, i) => `d${String(i).padStart(4, '0')}`);
    const docs = new Map(ids.map((id, i) => [id, { count: 3, doc: profiled(id, `t${i}`) }]));
    let listReads = 0;
    let open = 0;
    let most = 0;
    const store = {
      async aggregate(q: { groupBy: string }): Promise<AggregateBucket[]> {
        if (q.groupBy === 'doc_id') return [...docs.entries()].map(([value, d]) => ({ value, count: d.count }));
        open += 1;
        most = Math.max(most, open);
        await new Promise((r) => setTimeout(r, 1));
        open -= 1;
        return [{ value: 'Results of Operations', count: 3 }];
      },
      async getDocuments(wanted: readonly string[]): Promise<DocumentRecord[]> {
        listReads += 1;
        return wanted.flatMap((id) => docs.get(id)?.doc ?? []);
      },
    };
    const list = await createDocumentDirectory(store)();
    expect(list).toHaveLength(500);
    expect(list[0]?.headings).toEqual(['Results of Operations']);
    expect(listReads).toBe(1);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
  });
});
