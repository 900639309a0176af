import * as lancedb from '@lancedb/lancedb';
import { relativeScoreFusion } from '../fusion.ts';
import type { HybridHit } from '../vector-store.ts';
import { keywordText } from '../keyword-text.ts';
import { sqlString } from './filter-sql.ts';
import { CHUNK_COLUMNS, FTS_COLUMN, rowToChunk, rowVector } from './schema.ts';
import { hnswEf } from './vector-index.ts';

/** A validated hybrid request, as the store hands it over. */
export interface HybridRequest {
  text: string;
  vector: ArrayLike<number>;
  alpha: number;
  /** Translated filter, or undefined for none. */
  where: string | undefined;
  limit: number;
  /** Candidates per side. */
  candidates: number;
  withVectors?: boolean;
}

type Row = Record<string, unknown>;

/** Where a side's hit lives: its id (fusion breaks ties by it) and its row address now. */
interface SideHit {
  id: string;
  rowId: bigint;
  score: number;
}

/**
 * Keyword top-N (native full-text index over `keyword_text`, BM25) and vector top-N (exact
 * cosine scan, or the HNSW index when one exists) under the same pre-filter, run in parallel,
 * fused by relativeScoreFusion. A side whose weight is 0 is not run at all, as in Weaviate.
 *
 * Two phases: the sides read only ids, row addresses and scores; then the rows fusion keeps
 * (at most `limit`) are read once, by address. Reading whole rows on both sides costs a random
 * read of every column for up to twice as many rows, most of which fusion drops. See
 * {@link readRows} for what happens when a write moves rows in between.
 */
export async function hybridSearch(table: lancedb.Table, req: HybridRequest): Promise<HybridHit[]> {
  const terms = keywordText(req.text);

  const keywordSide = async (): Promise<SideHit[]> => {
    if (req.alpha >= 1 || terms === '') return [];
    let query = table.query().fullTextSearch(new lancedb.MatchQuery(terms, FTS_COLUMN)).withRowId().select(['chunk_id', '_score']).limit(req.candidates);
    if (req.where) query = query.where(req.where);
    return ((await query.toArray()) as Row[]).map((row) => ({ id: String(row.chunk_id), rowId: row._rowid as bigint, score: Number(row._score) }));
  };
  const vectorSide = async (): Promise<SideHit[]> => {
    // A zero vector has no direction (cosine is undefined): that side finds nothing.
    if (req.alpha <= 0 || !Array.from(req.vector).some((x) => x !== 0)) return [];
    // ef and refine only matter when an ANN index exists (see vector-index.ts); refine keeps the
    // returned cosine exact, so fusion normalises true similarities either way.
    let query = table
      .vectorSearch(Float32Array.from(req.vector))
      .column('vector')
      .distanceType('cosine')
      .ef(hnswEf(req.candidates))
      .refineFactor(1)
      .withRowId()
      .select(['chunk_id', '_distance'])
      .limit(req.candidates);
    if (req.where) query = query.where(req.where);
    // cosine distance = 1 - similarity
    return ((await query.toArray()) as Row[]).map((row) => ({ id: String(row.chunk_id), rowId: row._rowid as bigint, score: 1 - Number(row._distance) }));
  };
  const [keywordHits, vectorHits] = await Promise.all([keywordSide(), vectorSide()]);

  const rowIdOf = new Map<string, bigint>();
  const bm25 = new Map<string, number>();
  const cosine = new Map<string, number>();
  for (const hit of keywordHits) {
    rowIdOf.set(hit.id, hit.rowId);
    bm25.set(hit.id, hit.score);
  }
  for (const hit of vectorHits) {
    rowIdOf.set(hit.id, hit.rowId);
    cosine.set(hit.id, hit.score);
  }
  const fused = relativeScoreFusion(
    [...bm25].map(([id, score]) => ({ id, score })),
    [...cosine].map(([id, score]) => ({ id, score })),
    req.alpha,
    req.limit,
  );
  const rows = await readRows(table, fused.map((f) => ({ id: f.id, rowId: rowIdOf.get(f.id) as bigint })), req.withVectors === true);
  return fused.flatMap((f) => {
    const row = rows.get(f.id);
    // Deleted between the two phases: it is gone, as it would be from a search a moment later.
    if (!row) return [];
    const hit: HybridHit = {
      chunk: rowToChunk(row),
      score: f.score,
      keywordScore: f.keywordScore,
      vectorScore: f.vectorScore,
      bm25: bm25.get(f.id) ?? null,
      cosine: cosine.get(f.id) ?? null,
    };
    if (req.withVectors) hit.vector = rowVector(row);
    return hit;
  });
}

/**
 * The rows of `hits` by chunk id. Row addresses are only stable within one table version: a
 * write that compacts or deletes between the search and this read can move a row or put another
 * in its place, so every row read by address is checked against the id it should hold, and the
 * ids whose address no longer holds them are read again by id (the B-tree on chunk_id).
 */
export async function readRows(table: lancedb.Table, hits: readonly { id: string; rowId: bigint }[], withVectors: boolean): Promise<Map<string, Row>> {
  const columns = withVectors ? [...CHUNK_COLUMNS, 'vector'] : [...CHUNK_COLUMNS];
  const found = new Map<string, Row>();
  if (hits.length === 0) return found;
  const wanted = new Set(hits.map((h) => h.id));
  try {
    for (const row of (await table.takeRowIds(hits.map((h) => h.rowId)).select(columns).toArray()) as Row[]) {
      const id = String(row.chunk_id);
      if (wanted.has(id)) found.set(id, row);
    }
  } catch {
    // An address past the end of a rewritten fragment: read them all by id below.
  }
  const moved = hits.filter((h) => !found.has(h.id)).map((h) => h.id);
  for (const [id, row] of await readRowsById(table, moved, columns)) found.set(id, row);
  return found;
}

const ID_BATCH = 500;

/** Rows by chunk id through the B-tree on chunk_id, `ID_BATCH` ids per query; missing ids are absent. */
export async function readRowsById(table: lancedb.Table, ids: readonly string[], columns: readonly string[]): Promise<Map<string, Row>> {
  const found = new Map<string, Row>();
  for (let start = 0; start < ids.length; start += ID_BATCH) {
    const list = ids.slice(start, start + ID_BATCH).map(sqlString).join(', ');
    const batch = (await table.query().where(`chunk_id IN (${list})`).select([...columns]).toArray()) as Row[];
    for (const row of batch) found.set(String(row.chunk_id), row);
  }
  return found;
}
