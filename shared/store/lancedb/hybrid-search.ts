import { createHash } from 'node:crypto';
import * as lancedb from '@lancedb/lancedb';
import { createExpiringLru, createLru, type Lru } from '../../lru.ts';
import { relativeScoreFusion, type FusedScore } from '../fusion.ts';
import type { HybridHit, StoredChunkWithoutVector } from '../vector-store.ts';
import { keywordQueryText } from '../keyword-text.ts';
import { sqlInLists } from './filter-sql.ts';
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
  /**
   * The recent rows' table (see RECENT_TABLE): when given, the keyword side reads the chunks
   * table's full-text index alone (no scan of the rows it lacks) and this table beside it.
   */
  recent?: lancedb.Table | null;
}

type Row = Record<string, unknown>;

/**
 * A side's hit: its row address and score. An address names one physical row for the table's
 * whole life: Lance never rewrites a data file, numbers every new fragment past all earlier ones
 * (compaction moves rows to new addresses instead of reusing old ones), and this store never
 * overwrites or drops its tables. So a row read by an address found moments earlier is that row,
 * or nothing when a delete or a compaction has removed it since.
 */
export interface SideHit {
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
 *   (the vector side reads the count here when its flat-choice count has expired); the temporal
 *   clamp repeats all day.
 */
export interface VersionCaches {
  sides: Lru<string, readonly SideHit[]>;
  rows: Lru<bigint, ReadHit>;
  counts: Lru<string, number>;
}

/** A store's {@link VersionCaches}, kept for the newest table version read, and its {@link SearchCaches.flatChoiceCounts}. */
export interface SearchCaches {
  at(version: number): VersionCaches;
  /**
   * Filter counts for the vector side's choice between the exact scan and the vector index, kept
   * across table versions for {@link FLAT_CHOICE_COUNT_MS}: see {@link vectorSideQuery}.
   */
  flatChoiceCounts: Lru<string, number>;
}

/**
 * How long a filter's count decides the vector side's exact scan or index, whatever was
 * committed since. While documents are ingested the table's version moves every second or so,
 * and counting again at each one took ~14 ms a filtered search at 10k chunks (the per-version
 * count behind it was a cache hit in 1 of 3 searches).
 */
export const FLAT_CHOICE_COUNT_MS = 10_000;

/**
 * {@link SearchCaches} of 256 side results (~30 KB each at 300 candidates), 4096 rows (~4 KB each)
 * and 256 counts a version, and 256 flat-choice counts. `now` (ms) ages the flat-choice counts.
 */
export function createSearchCaches(now: () => number = () => performance.now()): SearchCaches {
  const fresh = (): VersionCaches => ({ sides: createLru(256), rows: createLru(4096), counts: createLru(256) });
  let current = { version: -1, caches: fresh() };
  return {
    at(version) {
      if (current.version !== version) current = { version, caches: fresh() };
      return current.caches;
    },
    flatChoiceCounts: createExpiringLru(256, FLAT_CHOICE_COUNT_MS, now),
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

/** Searches at most this often when writes keep landing between a search's first and last read. */
const MAX_ATTEMPTS = 3;

/**
 * Keyword top-N (native full-text index over `keyword_text`, BM25) and vector top-N (exact
 * cosine scan, or the HNSW index when one exists and the filter leaves more than
 * `flatSearchCutoff` rows) under the same pre-filter, run in parallel,
 * fused by relativeScoreFusion. A side whose weight is 0 is not run at all, as in Weaviate.
 *
 * Two phases: the sides read only row addresses and scores; then the rows fusion keeps (at most
 * `limit`, and any tied with the last) are read once, by address, and ties are broken by chunk
 * id. Reading more on the sides costs a random read per column for up to twice as many rows,
 * most of which fusion drops (reading just the chunk id there cost ~1 ms of a ~25 ms search at
 * 100k chunks).
 *
 * Both phases are meant to see one table version. When a commit lands in between (the version
 * read after the rows differs from the one read before the sides), the search runs again, at most
 * {@link MAX_ATTEMPTS} times; the last attempt's hits stand. They are still true rows (see
 * {@link SideHit}): a chunk deleted in between is missing, as from a search a moment later, and a
 * chunk a compaction moved between the two sides is merged from its two addresses.
 */
export async function hybridSearch(table: lancedb.Table, req: HybridRequest): Promise<HybridHit[]> {
  const terms = keywordQueryText(req.text);
  for (let attempt = 1; ; attempt++) {
    const version = await table.version();
    const hits = await searchOnce(table, req, terms, req.caches?.at(version));
    if (attempt >= MAX_ATTEMPTS || (await table.version()) === version) return hits;
  }
}

async function searchOnce(table: lancedb.Table, req: HybridRequest, terms: string, caches: VersionCaches | undefined): Promise<HybridHit[]> {
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
    const recent = req.recent ?? null;
    const recentVersion = recent ? await recent.version() : null;
    return cached(`keyword ${recentVersion ?? ''} ${terms}`, async () => {
      const match = () => new lancedb.MatchQuery(terms, FTS_COLUMN);
      let query = table.query().fullTextSearch(match()).withRowId().select(['_score']).limit(req.candidates);
      if (req.where) query = query.where(req.where);
      if (!recent) return ((await query.toArray()) as Row[]).map((row) => ({ rowId: row._rowid as bigint, score: Number(row._score) }));
      let recentQuery = recent.query().fullTextSearch(match()).select(['chunk_id', '_score']).limit(req.candidates);
      if (req.where) recentQuery = recentQuery.where(req.where);
      const [indexed, fresh] = await Promise.all([query.fastSearch().toArray() as Promise<Row[]>, recentQuery.toArray() as Promise<Row[]>]);
      const indexedHits = indexed.map((row) => ({ rowId: row._rowid as bigint, score: Number(row._score) }));
      const contenders = freshContenders(indexedHits, fresh.map((row) => ({ chunkId: String(row.chunk_id), score: Number(row._score) })), req.candidates);
      const at = await addressesOf(table, contenders.map((hit) => hit.chunkId));
      return mergeKeywordHits(
        indexedHits,
        contenders.flatMap((hit) => {
          const rowId = at.get(hit.chunkId);
          return rowId === undefined ? [] : [{ rowId, score: hit.score }];
        }),
        req.candidates,
      );
    });
  };
  const vectorSide = async (): Promise<readonly SideHit[]> => {
    const vector = Float32Array.from(req.vector);
    // A zero vector has no direction (cosine is undefined): that side finds nothing.
    if (req.alpha <= 0 || !vector.some((x) => x !== 0)) return [];
    return cached(`vector ${createHash('sha256').update(new Uint8Array(vector.buffer)).digest('base64')}`, async () => {
      const query = await vectorSideQuery(table, { ...req, vector }, caches && req.caches ? { version: caches.counts, flatChoice: req.caches.flatChoiceCounts } : undefined);
      // cosine distance = 1 - similarity
      return ((await query.toArray()) as Row[]).map((row) => ({ rowId: row._rowid as bigint, score: 1 - Number(row._distance) }));
    });
  };
  const [keywordHits, vectorHits] = await Promise.all([keywordSide(), vectorSide()]);

  // Fusion by address (as a string id); the chunk ids are only known once the rows are read.
  const keyword = keywordHits.map((h) => ({ id: String(h.rowId), score: h.score }));
  const vector = vectorHits.map((h) => ({ id: String(h.rowId), score: h.score }));
  const bm25 = new Map(keyword.map((h) => [h.id, h.score]));
  const cosine = new Map(vector.map((h) => [h.id, h.score]));
  const fused = relativeScoreFusion(keyword, vector, req.alpha);
  const last = fused[req.limit - 1]?.score;
  const kept = fused.filter((f, i) => i < req.limit || f.score === last);
  const read = await readHits(table, kept.map((f) => BigInt(f.id)), req.withVectors === true, caches?.rows);

  return hitsByChunk(kept, read, { bm25, cosine }, req);
}

/** Row addresses in `table` of the chunks `ids` (through the B-tree on chunk_id); ids without a row are absent. */
async function addressesOf(table: lancedb.Table, ids: readonly string[]): Promise<Map<string, bigint>> {
  const at = new Map<string, bigint>();
  for (const list of sqlInLists(ids)) {
    for (const row of (await table.query().where(`chunk_id IN (${list})`).withRowId().select(['chunk_id']).toArray()) as Row[]) {
      at.set(String(row.chunk_id), row._rowid as bigint);
    }
  }
  return at;
}

/**
 * The recent rows' hits (`fresh`, by chunk id) that can still be among the keyword side's best
 * `limit` once merged with `indexed` ({@link mergeKeywordHits}): only these are looked up in the
 * chunks table. When the index returned `limit` hits, they are `limit` distinct rows scoring at
 * least the last one's score; a recent hit scoring below it is outranked by all of them, and one
 * that is the same row as an indexed hit adds nothing a better score does not already hold. So
 * the merge comes out the same without the lookups (while another process ingests, up to
 * `limit` B-tree and scan lookups of rows a fold has not indexed yet, every search).
 */
export function freshContenders<T extends { score: number }>(indexed: readonly SideHit[], fresh: readonly T[], limit: number): T[] {
  if (indexed.length < limit) return [...fresh];
  const floor = Math.min(...indexed.map((hit) => hit.score));
  return fresh.filter((hit) => hit.score >= floor);
}

/**
 * The keyword side from the chunks table's index (`indexed`) and the recent rows (`fresh`, at
 * their chunks-table addresses): one hit per address with its better score (a row a fold has
 * just indexed is in both until the fold drops it from the recent table), best first, at most
 * `limit`. Each table scores by its own term statistics, as Elasticsearch's shards do by default.
 */
export function mergeKeywordHits(indexed: readonly SideHit[], fresh: readonly SideHit[], limit: number): SideHit[] {
  const best = new Map<bigint, number>();
  for (const hit of [...indexed, ...fresh]) best.set(hit.rowId, Math.max(best.get(hit.rowId) ?? -Infinity, hit.score));
  return [...best]
    .map(([rowId, score]) => ({ rowId, score }))
    .sort((a, b) => b.score - a.score || (a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0))
    .slice(0, limit);
}

/**
 * The hybrid hits of `fused` (fused by row address, best first) from the rows read at those
 * addresses: one hit per chunk, best first, ties by chunk id, at most `limit`. An address not in
 * `read` (its row is gone) gives no hit. Two addresses hold one chunk only when a compaction
 * landed between the two sides, each address carrying one side's score: the chunk keeps both,
 * as if found at one address. Hits are copies: what a caller does with them never reaches a cache.
 */
export function hitsByChunk(
  fused: readonly FusedScore[],
  read: ReadonlyMap<bigint, ReadHit>,
  raw: { bm25: ReadonlyMap<string, number>; cosine: ReadonlyMap<string, number> },
  req: { alpha: number; limit: number; withVectors?: boolean },
): HybridHit[] {
  const byChunk = new Map<string, HybridHit>();
  for (const f of fused) {
    const found = read.get(BigInt(f.id));
    if (!found) continue;
    const seen = byChunk.get(found.chunk.chunk_id);
    if (seen) {
      seen.keywordScore = Math.max(seen.keywordScore, f.keywordScore);
      seen.vectorScore = Math.max(seen.vectorScore, f.vectorScore);
      seen.score = req.alpha * seen.vectorScore + (1 - req.alpha) * seen.keywordScore;
      seen.bm25 ??= raw.bm25.get(f.id) ?? null;
      seen.cosine ??= raw.cosine.get(f.id) ?? null;
      continue;
    }
    const hit: HybridHit = {
      chunk: { ...found.chunk, entities: [...found.chunk.entities] },
      score: f.score,
      keywordScore: f.keywordScore,
      vectorScore: f.vectorScore,
      bm25: raw.bm25.get(f.id) ?? null,
      cosine: raw.cosine.get(f.id) ?? null,
    };
    if (req.withVectors && found.vector) hit.vector = Float32Array.from(found.vector);
    byChunk.set(found.chunk.chunk_id, hit);
  }
  return [...byChunk.values()]
    .sort((a, b) => b.score - a.score || (a.chunk.chunk_id < b.chunk.chunk_id ? -1 : a.chunk.chunk_id > b.chunk.chunk_id ? 1 : 0))
    .slice(0, req.limit);
}

/**
 * The vector side's query: row addresses and cosine distances of the `candidates` nearest
 * rows under the filter. Through the HNSW index when there is one, unless the filter leaves at
 * most `flatSearchCutoff` rows: those are scanned exactly (see DEFAULT_FLAT_SEARCH_CUTOFF).
 *
 * The count behind that choice may be a few seconds old (`counts.flatChoice`, see
 * {@link FLAT_CHOICE_COUNT_MS}): the cutoff weighs a scan's cost against the index's, and either
 * way the search returns rows the filter allows. A count that crossed the cutoff meanwhile — a
 * branch grown or shrunk by a few hundred chunks around 20,000 — picks the other of two searches
 * that are both fit for that size.
 */
export async function vectorSideQuery(
  table: lancedb.Table,
  req: Omit<HybridRequest, 'text' | 'alpha' | 'limit' | 'caches'>,
  counts?: { version: Lru<string, number>; flatChoice: Lru<string, number> },
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
    .select(['_distance'])
    .limit(req.candidates);
  if (req.where) {
    query = query.where(req.where);
    // The count reads only the scalar indexes (~2 ms at 100k chunks when idle), while the keyword
    // side runs; the narrowed search has just counted its branch, and the clamp of the day repeats.
    let rows = counts?.flatChoice.get(req.where);
    if (rows === undefined) {
      rows = await countMatching(table, req.where, counts?.version);
      counts?.flatChoice.set(req.where, rows);
    }
    if (rows <= req.flatSearchCutoff) query = query.bypassVectorIndex();
  }
  return query;
}

/** A hit's chunk as read, and its vector when asked for. */
export interface ReadHit {
  chunk: StoredChunkWithoutVector;
  vector?: Float32Array;
}

/**
 * The rows at `rowIds`, from the one payload column (see PAYLOAD_COLUMN), by address; an address
 * whose row is gone (see {@link SideHit}) is absent. Rows written before the payload existed are
 * read again from their columns. With `rows` (rows already read at this table version), those
 * are not read again.
 */
export async function readHits(table: lancedb.Table, rowIds: readonly bigint[], withVectors: boolean, rows?: Lru<bigint, ReadHit>): Promise<Map<bigint, ReadHit>> {
  const vectorColumn = withVectors ? ['vector'] : [];
  const found = new Map<bigint, ReadHit>();
  const take: bigint[] = [];
  for (const rowId of rowIds) {
    const known = rows?.get(rowId);
    if (known && (!withVectors || known.vector)) found.set(rowId, known);
    else take.push(rowId);
  }
  const read = async (addresses: bigint[], columns: string[], toChunk: (row: Row) => StoredChunkWithoutVector | null): Promise<bigint[]> => {
    if (addresses.length === 0) return [];
    const unread: bigint[] = [];
    for (const row of (await table.takeRowIds(addresses).withRowId().select([...columns, ...vectorColumn]).toArray()) as Row[]) {
      const rowId = row._rowid as bigint;
      const chunk = toChunk(row);
      if (!chunk) {
        unread.push(rowId);
        continue;
      }
      const hit: ReadHit = withVectors ? { chunk, vector: rowVector(row) } : { chunk };
      found.set(rowId, hit);
      rows?.set(rowId, hit);
    }
    return unread;
  };
  const withoutPayload = await read(take, [PAYLOAD_COLUMN], payloadChunk);
  await read(withoutPayload, [...CHUNK_COLUMNS], rowToChunk);
  return found;
}

/** Rows by chunk id through the B-tree on chunk_id, `IN_LIST_MAX` ids per query; missing ids are absent. */
export async function readRowsById(table: lancedb.Table, ids: readonly string[], columns: readonly string[]): Promise<Map<string, Row>> {
  const found = new Map<string, Row>();
  for (const list of sqlInLists(ids)) {
    const batch = (await table.query().where(`chunk_id IN (${list})`).select([...columns]).toArray()) as Row[];
    for (const row of batch) found.set(String(row.chunk_id), row);
  }
  return found;
}
