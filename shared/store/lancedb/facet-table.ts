import { makeArrowTable, type Table } from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Int32, List, Schema, TimestampMillisecond, Utf8 } from 'apache-arrow';
import { PermanentError } from '../../errors.ts';
import type { FacetValueStore } from '../facet-value-store.ts';
import type { FacetName, FacetValueVector } from '../facet-values.ts';
import { checkFacetName, checkReplaceFacet, compareFacetRows, facetKey, validFacetRows } from '../validation.ts';
import { sqlString } from './filter-sql.ts';
import { dimensionOfSchema, isoInstant, rowVector, stringList } from './schema.ts';
import { withConflictRetry } from './write-guard.ts';

/*
 * The FacetValueVector collection as a LanceDB table `facet_values`, keyed by (facet, value).
 * It is tiny (one row per distinct facet value) and only ever read whole or per facet, so it
 * has no index: query-time cosine runs in the caller over `listFacetValues()`.
 */

/** Table of facet-value vectors. */
export const FACET_VALUES_TABLE = 'facet_values';

/** Values per `IN (…)` list of a stale-value delete. */
const DELETE_BATCH = 500;

/** Arrow schema of the facet-values table for vectors of `dimension` floats. */
export function facetValuesSchema(dimension: number): Schema {
  return new Schema([
    new Field('facet', new Utf8(), false),
    new Field('value', new Utf8(), false),
    new Field('aliases', new List(new Field('item', new Utf8(), true)), false),
    new Field('description', new Utf8(), false),
    new Field('sample_count', new Int32(), false),
    new Field('updated_at', new TimestampMillisecond('UTC'), false),
    new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), false),
  ]);
}

/** What the facet operations need from the store that owns the connection. */
export interface FacetTableAccess {
  /** The table if it exists (throws once the store is closed). */
  openTable(name: string): Promise<Table | null>;
  /** The write mutex shared with every other write of the store. */
  lock: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Maps LanceDB failures to Quarry errors. */
  guarded: <T>(what: string, fn: () => Promise<T>) => Promise<T>;
  /** Compacts and prunes a table. */
  optimize(table: Table): Promise<void>;
}

/** The facet-value part of the store (the FacetValueStore port), over `facet_values`. */
export type FacetTableOps = FacetValueStore;

function rowToFacetValue(row: Record<string, unknown>): FacetValueVector {
  return {
    facet: String(row.facet) as FacetName,
    value: String(row.value),
    aliases: stringList(row.aliases),
    description: String(row.description),
    sample_count: Number(row.sample_count),
    updated_at: isoInstant(row.updated_at),
    vector: rowVector(row),
  };
}

/**
 * Creates `facet_values` when missing, or checks its dimension. Runs inside `ensureSchema`'s
 * lock, so stores made before the collection existed gain it on their next `ensureSchema`.
 * @throws PermanentError `DIMENSION_MISMATCH` when the table exists with another dimension.
 */
export async function ensureFacetTable(
  openTable: (name: string) => Promise<Table | null>,
  createTable: (name: string, schema: Schema) => Promise<Table>,
  dimension: number,
): Promise<void> {
  const table = (await openTable(FACET_VALUES_TABLE)) ?? (await createTable(FACET_VALUES_TABLE, facetValuesSchema(dimension)));
  const existing = dimensionOfSchema(await table.schema());
  if (existing !== dimension) {
    throw new PermanentError('DIMENSION_MISMATCH', `facet_values has dimension ${existing}, asked for ${dimension}`);
  }
}

/** The facet-value operations, sharing the store's handles, mutex and error mapping. */
export function createFacetTableOps(access: FacetTableAccess): FacetTableOps {
  const { lock, guarded } = access;

  async function requireTable(what: string): Promise<{ table: Table; dimension: number }> {
    return guarded(what, async () => {
      const table = await access.openTable(FACET_VALUES_TABLE);
      if (!table) throw new PermanentError('STORE_REJECTED', `lancedb table ${FACET_VALUES_TABLE} does not exist: call ensureSchema first`);
      return { table, dimension: dimensionOfSchema(await table.schema()) as number };
    });
  }

  async function merge(table: Table, dimension: number, rows: Iterable<FacetValueVector>): Promise<void> {
    const data = makeArrowTable(
      [...rows].map((r) => ({ ...r, updated_at: new Date(r.updated_at), vector: Array.from(r.vector) })),
      { schema: facetValuesSchema(dimension) },
    );
    if (data.numRows === 0) return;
    await withConflictRetry('upsertFacetValues', () =>
      table.mergeInsert(['facet', 'value']).whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data),
    );
  }

  return {
    async upsertFacetValues(rows) {
      if (rows.length === 0) return;
      const { table, dimension } = await requireTable('upsertFacetValues');
      const byKey = validFacetRows(rows, dimension);
      await lock(() => merge(table, dimension, byKey.values()));
    },

    async replaceFacetValues(facet, rows) {
      checkReplaceFacet(facet, rows);
      const { table, dimension } = await requireTable('replaceFacetValues');
      const byKey = validFacetRows(rows, dimension);
      return lock(async () => {
        // New rows first, stale ones after: a reader never finds the facet empty.
        await merge(table, dimension, byKey.values());
        const present = (await guarded('replaceFacetValues', () =>
          table.query().where(`facet = ${sqlString(facet)}`).select(['value']).toArray(),
        )) as Record<string, unknown>[];
        const stale = present.map((r) => String(r.value)).filter((v) => !byKey.has(facetKey(facet, v)));
        let deleted = 0;
        for (let start = 0; start < stale.length; start += DELETE_BATCH) {
          const list = stale.slice(start, start + DELETE_BATCH).map(sqlString).join(', ');
          const result = await withConflictRetry('replaceFacetValues', () => table.delete(`facet = ${sqlString(facet)} AND value IN (${list})`));
          deleted += result.numDeletedRows;
        }
        // Every rebuild adds a version and small files; compaction keeps reads of this tiny
        // table cheap. It is maintenance, so its failure must not fail the rebuild.
        await access.optimize(table).catch(() => undefined);
        return { deleted };
      });
    },

    async listFacetValues(facet) {
      checkFacetName(facet);
      return guarded('listFacetValues', async () => {
        const table = await access.openTable(FACET_VALUES_TABLE);
        if (!table) return [];
        let query = table.query();
        if (facet !== undefined) query = query.where(`facet = ${sqlString(facet)}`);
        const found = (await query.toArray()) as Record<string, unknown>[];
        return found.map(rowToFacetValue).sort(compareFacetRows);
      });
    },
  };
}
