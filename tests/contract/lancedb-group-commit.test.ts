import * as lancedb from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { PermanentError } from '../../shared/errors.ts';
import { createLanceDbStore } from '../../shared/store/lancedb/lancedb-store.ts';
import { CHUNKS_TABLE, DOCUMENTS_TABLE } from '../../shared/store/lancedb/schema.ts';
import type { StoredChunk } from '../../shared/store/vector-store.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';
import { DIM, MODEL, DOC_B, VERSION, documents, makeChunk } from './store-fixtures.ts';

const tempDir = tempDirs('quarry-lancedb-group-');

/** One caller's chunks: a document's worth, told apart by section. */
function callerChunks(caller: number, n = 3): StoredChunk[] {
  return Array.from({ length: n }, (_, i) =>
    makeChunk({ doc: DOC_B, version: VERSION.b1, section: `caller ${caller}`, body: `caller ${caller} passage ${i} quarry${caller}`, vector: [1, caller, i, 1] }),
  );
}

/**
 * For each committed version of a table (as another process reads it): how many of `ids` it
 * holds. A batch that lands as one commit goes from none to all in one version.
 */
async function rowsPerVersion(dir: string, tableName: string, idColumn: string, ids: readonly string[]): Promise<number[]> {
  const db = await lancedb.connect(dir);
  const table = await db.openTable(tableName);
  const list = ids.map((id) => `'${id}'`).join(',');
  const counts: number[] = [];
  for (const { version } of await table.listVersions()) {
    await table.checkout(version);
    counts.push(await table.countRows(`${idColumn} IN (${list})`));
  }
  table.close();
  db.close();
  return counts;
}

describe('lancedb group commit', () => {
  it("several documents' chunk upserts made while the store is busy land as one commit, and every caller sees its own rows", async () => {
    const dir = tempDir();
    const store = await createLanceDbStore({ dir });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    await store.upsertChunks(callerChunks(0)); // the full-text index exists from here on
    const callers = [1, 2, 3, 4, 5, 6].map((c) => callerChunks(c));
    // A write holding the lock (as an index refresh would) while the six upserts arrive.
    const busy = store.optimize();
    await Promise.all([busy, ...callers.map((rows) => store.upsertChunks(rows))]);

    const ids = callers.flat().map((c) => c.chunk_id);
    const counts = await rowsPerVersion(dir, CHUNKS_TABLE, 'chunk_id', ids);
    // No version holds some of the six callers' rows but not all: one commit wrote them.
    expect(counts.filter((n) => n > 0 && n < ids.length)).toEqual([]);
    expect(counts.at(-1)).toBe(ids.length);
    expect(counts.filter((n, i) => n === ids.length && (counts[i - 1] ?? 0) === 0)).toHaveLength(1);
    for (const [c, rows] of callers.entries()) {
      expect((await store.fetchByIds(rows.map((r) => r.chunk_id))).map((r) => r.chunk_id).sort()).toEqual(rows.map((r) => r.chunk_id).sort());
      // Indexed for keyword search by the time the caller's upsert returned.
      const hits = await store.hybrid({ text: `quarry${c + 1}`, vector: [1, 0, 0, 0], alpha: 0, limit: 10 });
      expect(hits.map((h) => h.chunk.section)).toContain(`caller ${c + 1}`);
    }
    await store.close();
  });

  it('document rows of concurrent callers land as one commit', async () => {
    const dir = tempDir();
    const store = await createLanceDbStore({ dir });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    const base = documents().b;
    const docs = [1, 2, 3, 4, 5].map((n) => ({ ...base, doc_id: `batched-doc-${n}-0001` }));
    const busy = store.optimize();
    await Promise.all([busy, ...docs.map((d) => store.upsertDocuments([d]))]);
    const counts = await rowsPerVersion(dir, DOCUMENTS_TABLE, 'doc_id', docs.map((d) => d.doc_id));
    expect(counts.filter((n) => n > 0 && n < docs.length)).toEqual([]);
    expect(counts.at(-1)).toBe(docs.length);
    for (const d of docs) expect((await store.getDocument(d.doc_id))?.doc_id).toBe(d.doc_id);
    await store.close();
  });

  it("a bad row fails only its own caller, with a clear error; the other callers' rows land", async () => {
    const store = await createLanceDbStore({ dir: tempDir() });
    await store.ensureSchema({ dimension: DIM, model: MODEL });
    const good = [callerChunks(1), callerChunks(2)];
    const bad = callerChunks(3).map((c, i) => (i === 1 ? { ...c, vector: [1, 2, 3] } : c));
    const busy = store.optimize().catch(() => undefined);
    const outcomes = await Promise.allSettled([busy, store.upsertChunks(good[0]!), store.upsertChunks(bad), store.upsertChunks(good[1]!)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const reason = (outcomes[2] as PromiseRejectedResult).reason as PermanentError;
    expect(reason.code).toBe('DIMENSION_MISMATCH');
    expect(reason.message).toContain(bad[1]!.chunk_id);
    const landed = await store.fetchByIds([...good.flat(), ...bad].map((c) => c.chunk_id));
    expect(landed.map((c) => c.section).sort()).toEqual([...good.flat()].map((c) => c.section).sort());
    await store.close();
  });
});
