/**
 * A small in-memory stand-in for the parts of weaviate-client the store calls, to test the
 * adapter's own logic (schema checks, batch errors, delete loops, result mapping, cursor scans)
 * without a server. It does not rank or filter like Weaviate (only fetch-by-ids is filtered): searches answer
 * what a test queued, and every call is recorded so a test can check what the adapter sent. The real
 * server's behaviour is covered by tests/contract/weaviate-store.test.ts when WEAVIATE_URL is set.
 */
import type { CollectionConfigCreate, WeaviateClient } from 'weaviate-client';

export interface FakeObject {
  uuid: string;
  properties: Record<string, unknown>;
  vectors: Record<string, number[]>;
}

interface FakeCollection {
  config: { name: string; description?: string; properties: Record<string, unknown>[]; invertedIndex: Record<string, unknown> };
  objects: Map<string, FakeObject>;
}

export interface FakeWeaviate {
  client: WeaviateClient;
  collections: Map<string, FakeCollection>;
  calls: { method: string; collection: string; args: unknown }[];
  /** Refuse collection creation while this returns an error message. */
  refuseCreate: ((config: CollectionConfigCreate) => string | null) | null;
  /** Per-object batch errors for the next insertMany (index → message). */
  nextBatchErrors: Record<number, string>;
  /** What the next hybrid / bm25 / nearVector answers, objects with metadata. */
  nextSearch: { uuid: string; metadata: Record<string, unknown> }[];
  /** How many objects one deleteMany removes at most (the server caps it). */
  deleteCap: number;
}

export function createFakeWeaviate(): FakeWeaviate {
  const fake: FakeWeaviate = { client: undefined as unknown as WeaviateClient, collections: new Map(), calls: [], refuseCreate: null, nextBatchErrors: {}, nextSearch: [], deleteCap: Number.POSITIVE_INFINITY };
  const record = (method: string, collection: string, args: unknown) => fake.calls.push({ method, collection, args });
  const coll = (name: string) => {
    const c = fake.collections.get(name);
    if (!c) throw Object.assign(new Error(`collection ${name} not found`), { name: 'WeaviateQueryError' });
    return c;
  };
  const searched = (name: string) =>
    fake.nextSearch.map((h) => ({ ...(coll(name).objects.get(h.uuid) as FakeObject), metadata: h.metadata }));

  const use = (name: string) => ({
    config: {
      update: async (update: { description?: string }) => {
        record('updateConfig', name, update);
        if (update.description !== undefined) coll(name).config.description = update.description;
      },
    },
    data: {
      insertMany: async (objects: { id: string; properties: Record<string, unknown>; vectors?: number[] }[]) => {
        record('insertMany', name, objects);
        const errors: Record<number, { message: string; object: unknown }> = {};
        objects.forEach((o, i) => {
          const message = fake.nextBatchErrors[i];
          if (message) errors[i] = { message, object: o };
          else coll(name).objects.set(o.id, { uuid: o.id, properties: o.properties, vectors: { default: o.vectors ?? [] } });
        });
        fake.nextBatchErrors = {};
        return { errors, hasErrors: Object.keys(errors).length > 0, allResponses: [], elapsedSeconds: 0, uuids: {} };
      },
      deleteMany: async (where: { target?: { property?: string }; value?: unknown }) => {
        record('deleteMany', name, where);
        const c = coll(name);
        const matches = [...c.objects.values()].filter((o) => where.target?.property === 'doc_id' && o.properties.doc_id === where.value);
        const removed = matches.slice(0, fake.deleteCap);
        for (const o of removed) c.objects.delete(o.uuid);
        return { matches: matches.length, successful: removed.length, failed: 0, objects: undefined };
      },
      deleteById: async (id: string) => {
        record('deleteById', name, id);
        return coll(name).objects.delete(id);
      },
    },
    query: {
      fetchObjects: async (opts: { limit?: number; after?: string; filters?: { operator: string; target?: { property?: string }; value: unknown }; offset?: number }) => {
        record('fetchObjects', name, opts);
        // The one filter the fake understands: ids (fetchByIds).
        const f = opts.filters;
        const ids = f?.operator === 'ContainsAny' && f.target?.property === '_id' ? new Set(f.value as string[]) : null;
        const all = [...coll(name).objects.values()].filter((o) => !ids || ids.has(o.uuid)).sort((a, b) => (a.uuid < b.uuid ? -1 : 1));
        const start = opts.after ? all.findIndex((o) => o.uuid === opts.after) + 1 : (opts.offset ?? 0);
        return { objects: all.slice(start, start + (opts.limit ?? 25)) };
      },
      fetchObjectById: async (id: string) => coll(name).objects.get(id) ?? null,
      hybrid: async (query: string, opts: unknown) => (record('hybrid', name, { query, opts }), { objects: searched(name) }),
      bm25: async (query: string, opts: unknown) => (record('bm25', name, { query, opts }), { objects: searched(name) }),
      nearVector: async (vector: number[], opts: unknown) => (record('nearVector', name, { vector, opts }), { objects: searched(name) }),
    },
    aggregate: {
      overAll: async (opts: unknown) => (record('aggregate', name, opts), { totalCount: coll(name).objects.size, properties: {} }),
      groupBy: { overAll: async (opts: unknown) => (record('groupBy', name, opts), []) },
    },
  });

  const client = {
    collections: {
      exists: async (name: string) => fake.collections.has(name),
      export: async (name: string) => coll(name).config,
      create: async (config: CollectionConfigCreate) => {
        record('create', String(config.name), config);
        const refusal = fake.refuseCreate?.(config);
        if (refusal) throw Object.assign(new Error(refusal), { name: 'WeaviateUnexpectedStatusCodeError', code: 422 });
        const properties = (config.properties ?? []).map((p) => ({ indexFilterable: true, indexSearchable: false, tokenization: '', ...p }));
        fake.collections.set(String(config.name), { config: { name: String(config.name), description: config.description, properties, invertedIndex: { ...config.invertedIndex } }, objects: new Map() });
        return use(String(config.name));
      },
      delete: async (name: string) => void fake.collections.delete(name),
      use,
    },
    close: async () => undefined,
  };
  fake.client = client as unknown as WeaviateClient;
  return fake;
}
