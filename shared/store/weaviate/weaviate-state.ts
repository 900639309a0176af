/**
 * What the parts of the Weaviate store share: the one client, the collections, the schema as this
 * process knows it, error mapping, batched inserts and looping deletes. Each part
 * (weaviate-chunk-index.ts, weaviate-document-table.ts, weaviate-facets.ts, weaviate-store-admin.ts)
 * takes this state and nothing else of the others, but the document table the chunk index
 * deletes objects of.
 */
import type { Collection, FilterValue, WeaviateClient } from 'weaviate-client';
import { PermanentError } from '../../errors.ts';
import type { Filter } from '../filter.ts';
import { batchError, classifyWeaviateError } from './weaviate-errors.ts';
import { checkFilterAgainstSchema, toWeaviateFilter, type Translated } from './weaviate-filter.ts';
import type { Properties } from './weaviate-objects.ts';
import { ensureCollections, type SchemaState } from './weaviate-schema-sync.ts';
import type { BodyTokenization, CollectionKind } from './weaviate-schema.ts';

/** A collection handle as the store uses it (no generics: properties are checked by weaviate-objects.ts). */
export type WeaviateCollection = Collection<undefined, string, undefined>;

/** An object to insert: its id, its properties and, for vector collections, its vector. */
export interface NewObject {
  id: string;
  properties: Properties;
  vectors?: number[];
}

/** An object as reads return it, as far as the store looks at it. */
export interface RawObject {
  uuid: string;
  properties: Properties;
  vectors: Record<string, unknown>;
}

/** The store's options with their defaults applied (see `WeaviateStoreOptions`). */
export interface WeaviateSettings {
  collectionPrefix: string;
  bodyTokenization: BodyTokenization | 'auto';
  batchSize: number;
  candidateFloor: number;
  maxResultWindow: number;
}

/** The object's default vector as plain numbers. */
export function defaultVector(o: { vectors: Record<string, unknown> }): number[] {
  const v = o.vectors.default ?? Object.values(o.vectors)[0];
  return Array.isArray(v) ? v.map(Number) : [];
}

/** The client, the collections and the schema the parts of one store share. */
export class WeaviateState {
  readonly chunks: WeaviateCollection;
  readonly documents: WeaviateCollection;
  /** Set by `close`: every later call is refused. */
  closed = false;
  private known: SchemaState | null = null;

  /** @param names the collections' names (`collectionNames(settings.collectionPrefix)`) */
  constructor(
    readonly client: WeaviateClient,
    readonly settings: WeaviateSettings,
    readonly names: Record<CollectionKind, string>,
  ) {
    this.chunks = client.collections.use(this.names.Chunk);
    this.documents = client.collections.use(this.names.Document);
  }

  /** Runs `fn`, mapping what the client throws to Quarry's errors. @throws PermanentError `STORE_REJECTED` once closed. */
  async guarded<T>(what: string, fn: () => Promise<T>): Promise<T> {
    if (this.closed) throw new PermanentError('STORE_REJECTED', 'weaviate store is closed');
    try {
      return await fn();
    } catch (err) {
      throw classifyWeaviateError(err, what);
    }
  }

  /** The schema as this process knows it; read from the server once (another process may have created it). */
  async schema(): Promise<SchemaState | null> {
    this.known ??= await this.guarded('read schema', () => ensureCollections(this.client, { prefix: this.settings.collectionPrefix, create: false }));
    return this.known;
  }

  /** Remembers the schema `ensureSchema` made or checked. */
  schemaEnsured(state: SchemaState | null): void {
    this.known = state;
  }

  /** The schema. @throws PermanentError `STORE_REJECTED` while the collections do not exist. */
  async requireSchema(what: string): Promise<SchemaState> {
    const s = await this.schema();
    if (!s) throw new PermanentError('STORE_REJECTED', `weaviate collection ${this.names.Chunk} does not exist: call ensureSchema first (${what})`);
    return s;
  }

  /** Translates a filter and checks it against the Chunk properties before it is sent. */
  translate(filter: Filter | undefined, s: SchemaState | null): Translated {
    const t = toWeaviateFilter(filter);
    if (t.kind === 'filter' && s) checkFilterAgainstSchema(t.value, s.chunkProperties);
    return t;
  }

  /** Inserts (or replaces, by id) `objects` in batches; a batch with any failed object fails the call. */
  async insert(collection: WeaviateCollection, what: string, objects: NewObject[]): Promise<void> {
    for (let start = 0; start < objects.length; start += this.settings.batchSize) {
      const batch = objects.slice(start, start + this.settings.batchSize);
      const result = await this.guarded(what, () => collection.data.insertMany(batch));
      const failure = batchError(what, batch.length, Object.values(result.errors).map((e) => ({ message: e.message, code: e.code })));
      if (failure) throw failure;
    }
  }

  /** Deletes everything `where` matches; the server caps one call, so it loops until nothing matches. */
  async deleteWhere(collection: WeaviateCollection, where: FilterValue, what: string): Promise<number> {
    let deleted = 0;
    for (let round = 0; round < 10_000; round++) {
      const r = await this.guarded(what, () => collection.data.deleteMany(where));
      deleted += r.successful;
      if (r.failed > 0) throw batchError(what, r.matches, [{ message: `${r.failed} deletes failed` }]) as Error;
      if (r.matches === 0 || r.successful === 0) return deleted;
    }
    return deleted;
  }
}
