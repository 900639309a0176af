import { createHash } from 'node:crypto';
import * as lancedb from '@lancedb/lancedb';
import { createLru, type Lru } from '../../lru.ts';
import { relativeScoreFusion } from '../fusion.ts';
import type { HybridHit, StoredChunkWithoutVector } from '../vector-store.ts';
import { keywordText } from '../keyword-text.ts';
import { sqlString } from './filter-sql.ts';
import { CHUNK_COLUMNS, FTS_COLUMN, PAYLOAD_COLUMN, payloadChunk, rowToChunk, rowVector } from './schema.ts';
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
  /** A filter matching at most this many rows is searched exactly, not through the vector index. */
  flatSearchCutoff: number;
  withVectors?: boolean;
  /**
   * The store's caches of this table's reads (a store has one flat-search cutoff, so it is not
   * part of their keys); none → every side is searched, every filter counted.
   */
  caches?: SearchCaches;
}

type Row = Record<string, unknown>;

/** Where a side's hit lives: its id (fusion breaks ties by it) and its row address now. */
export interface SideHit {
  id: string;
  rowId: bigint;
  score: number;
}

/**
 * What a store remembers of its chunks table's reads at one table version: any write makes a new
 * version, and {@link SearchCaches.at} starts afresh for it, so nothing cached outlives the data
 * it was read from.
 * - `sides`: each hybrid side's hits, by filter, size and the terms or the query vector's hash.
 *   A validator loop asks a side again with the same question vector (a PIVOT changes only the
 *   keyword text and alpha), and people ask the same questions again.
 * - `rows`: hits' rows read by address (a loop's searches and the narrowed search read many of
 *   the rows the last search read).
 * - `counts`: rows matching a filter. The narrowed search counts its branch, then searches it
 *   (the vector side counts it again); the temporal clamp repeats all day.
 */
export interface VersionCaches {
  sides: Lru<string, readonly SideHit[]>;
  rows: Lru<bigint, ReadHit>;
  counts: Lru<string, number>;
}

/** A store's {@link VersionCaches}, kept for the newest table version read. */
export interface SearchCaches {
  at(version: number): VersionCaches;
}

/** {@link SearchCaches} of 256 side results (~30 KB each at 300 candidates), 4096 rows (~4 KB each) and 256 counts. */
export function createSearchCaches(): SearchCaches {
  const fresh = (): VersionCaches => ({ sides: createLru(256), rows: createLru(4096), counts: createLru(256) });
  let current = { version: -1, caches: fresh() };
  return {
    at(version) {
      if (current.version !== version) current = { version, caches: fresh() };
      return current.caches;
    },
  };
}

/** Rows matching `where` (all rows without one), remembered in `counts` when given. */
export async function countMatching(table: lancedb.Table, where: string | undefined, counts?: Lru<string, number>): Promise<number> {
  if (!where) return table.countRows();
  const known = counts?.get(where);
  if (known !== undefined) return known;
  const n = await table.countRows(where);
  counts?.set(where, n);
  return n;
}

/**
 * Keyword top-N (native full-text index over `keyword_text`, BM25) and vector top-N (exact
 * cosine scan, or the HNSW index when one exists and the filter leaves more than
 * `flatSearchCutoff` rows) under the same pre-filter, run in parallel,
 * fused by relativeScoreFusion. A side whose weight is 0 is not run at all, as in Weaviate.
 *
 * Two phases: the sides read only ids, row addresses and scores; then the rows fusion keeps
 * (at most `limit`) are read once, by address. Reading whole rows on both sides costs a random
 * read of every column for up to twice as many rows, most of which fusion drops. See
 * {@link readHits} for what happens when a write moves rows in between.
 */
export async function hybridSearch(table: lancedb.Table, req: HybridRequest): Promise<HybridHit[]> {
  const terms = keywordText(req.text);
  const caches = req.caches?.at(await table.version());
  const cached = async (side: string, run: () => Promise<SideHit[]>): Promise<readonly SideHit[]> => {
    if (!caches) return run();
    const key = `${req.where ?? ''}\u0000${req.candidates}\u0000${side}`;
    const hit = caches.sides.get(key);
    if (hit) return hit;
    const hits = await run();
    caches.sides.set(key, hits);
    return hits;
  };

  const keywordSide = async (): Promise<readonly SideHit[]> => {
    if (req.alpha >= 1 || terms === '') return [];
    return cached(`keyword ${terms}`, async () => {
      let query = table.query().fullTextSearch(new lancedb.MatchQuery(terms, FTS_COLUMN)).withRowId().select(['chunk_id', '_score']).limit(req.candidates);
      if (req.where) query = query.where(req.where);
      return ((await query.toArray()) as Row[]).map((row) => ({ id: String(row.chunk_id), rowId: row._rowid as bigint, score: Number(row._score) }));
    });
  };
  const vectorSide = async (): Promise<readonly SideHit[]> => {
    const vector = Float32Array.from(req.vector);
    // A zero vector has no direction (cosine is undefined): that side finds nothing.
    if (req.alpha <= 0 || !vector.some((x) => x !== 0)) return [];
    return cached(`vector ${createHash('sha256').update(new Uint8Array(vector.buffer)).digest('base64')}`, async () => {
      const query = await vectorSideQuery(table, { ...req, vector }, caches?.counts);
      // cosine distance = 1 - similarity
      return ((await query.toArray()) as Row[]).map((row) => ({ id: String(row.chunk_id), rowId: row._rowid as bigint, score: 1 - Number(row._distance) }));
    });
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
  const read = await readHits(table, fused.map((f) => ({ id: f.id, rowId: rowIdOf.get(f.id) as bigint })), req.withVectors === true, caches?.rows);
  return fused.flatMap((f) => {
    const found = read.get(f.id);
    // Deleted between the two phases: it is gone, as it would be from a search a moment later.
    if (!found) return [];
    // Copies: what a caller does with its hits never reaches the row cache.
    const hit: HybridHit = {
      chunk: { ...found.chunk, entities: [...found.chunk.entities] },
      score: f.score,
      keywordScore: f.keywordScore,
      vectorScore: f.vectorScore,
      bm25: bm25.get(f.id) ?? null,
      cosine: cosine.get(f.id) ?? null,
    };
    if (req.withVectors && found.vector) hit.vector = Float32Array.from(found.vector);
    return hit;
  });
}

/**
 * The vector side's query: ids, row addresses and cosine distances of the `candidates` nearest
 * rows under the filter. Through the HNSW index when there is one, unless the filter leaves at
 * most `flatSearchCutoff` rows: those are scanned exactly (see DEFAULT_FLAT_SEARCH_CUTOFF).
 */
export async function vectorSideQuery(
  table: lancedb.Table,
  req: Omit<HybridRequest, 'text' | 'alpha' | 'limit' | 'caches'>,
  counts?: Lru<string, number>,
): Promise<lancedb.VectorQuery> {
  // ef and refine only matter when an ANN index exists (see vector-index.ts); refine keeps the
  // returned cosine exact, so fusion normalises true similarities either way.
  let query = table
    .vectorSearch(req.vector instanceof Float32Array ? req.vector : Float32Array.from(req.vector))
    .column('vector')
    .distanceType('cosine')
    .ef(hnswEf(req.candidates))
    .refineFactor(1)
    .withRowId()
    .select(['chunk_id', '_distance'])
    .limit(req.candidates);
  if (req.where) {
    query = query.where(req.where);
    // The count reads only the scalar indexes (~2 ms at 100k chunks), while the keyword side runs;
    // the narrowed search has just counted its branch, and the clamp of the day repeats.
    if ((await countMatching(table, req.where, counts)) <= req.flatSearchCutoff) query = query.bypassVectorIndex();
  }
  return query;
}

/** A hit's chunk as read, and its vector when asked for. */
export interface ReadHit {
  chunk: StoredChunkWithoutVector;
  vector?: Float32Array;
}

/**
 * The chunks of `hits` by chunk id, read by row address from the one payload column (see
 * PAYLOAD_COLUMN). Row addresses are only stable within one table version: a write that compacts
 * or deletes between the search and this read can move a row or put another in its place, so
 * every row read by address is checked against the id it should hold. The ids whose address no
 * longer holds them, and rows written before the payload existed, are read again by id from the
 * columns (the B-tree on chunk_id). With `rows` (those read at the table version the hits were
 * found at), rows already read at the same address (and holding the same id) are not read again.
 */
export async function readHits(
  table: lancedb.Table,
  hits: readonly { id: string; rowId: bigint }[],
  withVectors: boolean,
  rows?: Lru<bigint, ReadHit>,
): Promise<Map<string, ReadHit>> {
  const vectorColumn = withVectors ? ['vector'] : [];
  const found = new Map<string, ReadHit>();
  const rowIdOf = new Map(hits.map((h) => [h.id, h.rowId]));
  const take: { id: string; rowId: bigint }[] = [];
  for (const h of hits) {
    const known = rows?.get(h.rowId);
    if (known && known.chunk.chunk_id === h.id && (!withVectors || known.vector)) found.set(h.id, known);
    else take.push(h);
  }
  if (take.length === 0) return found;
  const wanted = new Set(take.map((h) => h.id));
  const read = (chunk: StoredChunkWithoutVector, row: Row) => {
    const hit: ReadHit = withVectors ? { chunk, vector: rowVector(row) } : { chunk };
    found.set(chunk.chunk_id, hit);
    return hit;
  };
  try {
    for (const row of (await table.takeRowIds(take.map((h) => h.rowId)).select([PAYLOAD_COLUMN, ...vectorColumn]).toArray()) as Row[]) {
      const chunk = payloadChunk(row);
      if (!chunk || !wanted.has(chunk.chunk_id)) continue;
      const hit = read(chunk, row);
      // Only rows found at their address are remembered there.
      rows?.set(rowIdOf.get(chunk.chunk_id) as bigint, hit);
    }
  } catch {
    // An address past the end of a rewritten fragment: read them all by id below.
  }
  const rest = take.filter((h) => !found.has(h.id)).map((h) => h.id);
  for (const row of (await readRowsById(table, rest, [...CHUNK_COLUMNS, ...vectorColumn])).values()) read(rowToChunk(row), row);
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
