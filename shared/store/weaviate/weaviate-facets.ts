/**
 * The FacetValueVector collection on Weaviate: one object per (facet, value), id uuid5 of that
 * pair. It is small (one object per distinct value), so it is read whole by cursor.
 */
import type { Collection as WeaviateCollection, FilterValue, WeaviateClient } from 'weaviate-client';
import { PermanentError } from '../../errors.ts';
import type { FacetName, FacetValueVector } from '../facet-values.ts';
import { checkFacetName, checkReplaceFacet, compareFacetRows, facetKey, validFacetRows } from '../validation.ts';
import type { FacetValueStore } from '../facet-value-store.ts';
import { facetValueToProperties, facetValueUuid, propertiesToFacetValue, type Properties } from './weaviate-objects.ts';
import type { SchemaState } from './weaviate-schema-sync.ts';

type Collection = WeaviateCollection<undefined, string, undefined>;

/** What the facet operations need from the store that owns the client. */
export interface FacetAccess {
  client: WeaviateClient;
  name: string;
  guarded: <T>(what: string, fn: () => Promise<T>) => Promise<T>;
  insert(collection: Collection, what: string, objects: { id: string; properties: Properties; vectors?: number[] }[]): Promise<void>;
  deleteWhere(collection: Collection, where: FilterValue, what: string): Promise<number>;
  schema(): Promise<SchemaState | null>;
}

const PAGE = 1000;

/** The facet-value part of the store (the FacetValueStore port), sharing the store's client, batches and error mapping. */
export function createWeaviateFacetOps(access: FacetAccess): FacetValueStore {
  const collection = access.client.collections.use(access.name);

  async function dimension(what: string): Promise<number> {
    const s = await access.schema();
    if (!s) throw new PermanentError('STORE_REJECTED', `weaviate collection ${access.name} does not exist: call ensureSchema first (${what})`);
    return s.dimension;
  }

  async function write(rows: Iterable<FacetValueVector>): Promise<void> {
    const objects = [...rows].map((r) => ({ id: facetValueUuid(r.facet, r.value), properties: facetValueToProperties(r), vectors: Array.from(r.vector) }));
    if (objects.length > 0) await access.insert(collection, 'upsertFacetValues', objects);
  }

  async function readAll(facet: FacetName | undefined): Promise<FacetValueVector[]> {
    const out: FacetValueVector[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await access.guarded('listFacetValues', () => collection.query.fetchObjects({ limit: PAGE, ...(after ? { after } : {}), includeVector: true }));
      for (const o of page.objects) {
        const v = o.vectors.default ?? Object.values(o.vectors)[0];
        const row = propertiesToFacetValue(o.properties as Properties, Array.isArray(v) ? v.map(Number) : []);
        if (facet === undefined || row.facet === facet) out.push(row);
      }
      if (page.objects.length < PAGE) return out.sort(compareFacetRows);
      after = page.objects[page.objects.length - 1]?.uuid;
    }
  }

  return {
    async upsertFacetValues(rows) {
      if (rows.length === 0) return;
      await write(validFacetRows(rows, await dimension('upsertFacetValues')).values());
    },

    async replaceFacetValues(facet, rows) {
      checkReplaceFacet(facet, rows);
      const byKey = validFacetRows(rows, await dimension('replaceFacetValues'));
      // New rows first, stale ones after: a reader never finds the facet empty.
      await write(byKey.values());
      const stale = (await readAll(facet)).filter((r) => !byKey.has(facetKey(r.facet, r.value)));
      if (stale.length === 0) return { deleted: 0 };
      const ids = stale.map((r) => facetValueUuid(r.facet, r.value));
      const deleted = await access.deleteWhere(collection, { operator: 'ContainsAny', target: { property: '_id' }, value: ids }, 'replaceFacetValues');
      return { deleted };
    },

    async listFacetValues(facet) {
      checkFacetName(facet);
      if (!(await access.schema())) return [];
      return readAll(facet);
    },
  };
}
