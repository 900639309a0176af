/**
 * `ensureSchema()` for Weaviate: creates missing collections from weaviate-schema.ts, checks
 * existing ones against it, and reports every difference at once.
 */
import { configure, type CollectionConfigCreate, type WeaviateClient } from 'weaviate-client';
import { PermanentError } from '../../errors.ts';
import { checkEmbedderRecord } from '../embedder-record.ts';
import {
  INVERTED_INDEX, addableProperties, chunkDescription, collectionSpecs, dimensionOfDescription, embedderOfDescription, schemaDifferences,
  type BodyTokenization, type CollectionSpec, type ExistingCollection, type PropertySpec,
} from './weaviate-schema.ts';

/** What the store needs to know of a ready schema. */
export interface SchemaState {
  dimension: number;
  /** The Chunk properties as they exist (body with its actual tokenization). */
  chunkProperties: PropertySpec[];
  /** The embedder model the Chunk collection records, or null (made before records, holding chunks). */
  embedder: string | null;
}

/** The request `client.collections.create` gets for `spec` (pinned by unit tests). */
export function toCreateConfig(spec: CollectionSpec): CollectionConfigCreate {
  return {
    name: spec.name,
    description: spec.description,
    invertedIndex: { ...INVERTED_INDEX },
    properties: spec.properties.map((p) => ({
      name: p.name,
      dataType: p.dataType,
      indexFilterable: p.indexFilterable,
      indexSearchable: p.indexSearchable,
      indexRangeFilters: p.indexRangeFilters,
      ...(p.tokenization ? { tokenization: p.tokenization } : {}),
    })),
    vectorizers: configure.vectorizer.selfProvided({ vectorIndexConfig: configure.vectorIndex.hnsw({ distanceMetric: 'cosine' }) }),
  };
}

async function read(client: WeaviateClient, name: string): Promise<ExistingCollection | null> {
  if (!(await client.collections.exists(name))) return null;
  const c = await client.collections.export(name);
  return {
    description: c.description,
    properties: c.properties.map((p) => ({ name: p.name, dataType: p.dataType, tokenization: p.tokenization, indexFilterable: p.indexFilterable, indexSearchable: p.indexSearchable })),
    invertedIndex: { indexNullState: c.invertedIndex.indexNullState, indexTimestamps: c.invertedIndex.indexTimestamps },
  };
}

const isKagomeRefusal = (err: unknown) => err instanceof Error && /kagome|tokeniz/i.test(err.message);
const isAlreadyExists = (err: unknown) => err instanceof Error && /already exists|already used|422/i.test(err.message);

/** Creates `spec`; a collection another process created meanwhile is read instead. */
async function create(client: WeaviateClient, spec: CollectionSpec): Promise<ExistingCollection> {
  try {
    await client.collections.create(toCreateConfig(spec));
  } catch (err) {
    if (!isAlreadyExists(err) || !(await client.collections.exists(spec.name))) throw err;
  }
  return (await read(client, spec.name)) as ExistingCollection;
}

function withBody(specs: CollectionSpec[], body: BodyTokenization): CollectionSpec[] {
  return specs.map((s) => ({ ...s, properties: s.properties.map((p) => (p.name === 'body' ? { ...p, tokenization: body } : p)) }));
}

/**
 * With `create: false`, reads the schema (null while the Chunk collection is missing). With
 * `create: true`, creates what is missing, `body` tokenized with `kagome_kr` when the server
 * enables it and `trigram` otherwise (`auto`), and checks everything.
 *
 * @throws PermanentError `DIMENSION_MISMATCH` when the collections exist with another dimension.
 * @throws PermanentError `EMBEDDER_MISMATCH` when the Chunk collection records another embedder.
 * @throws PermanentError `STORE_REJECTED` listing every way an existing collection differs from
 *   what Quarry needs (such a collection has to be migrated: see docs/vector-stores.md, `quarry reindex`).
 */
export async function ensureCollections(
  client: WeaviateClient,
  opts: { prefix: string; create: false } | { prefix: string; create: true; dimension: number; model: string; body: BodyTokenization | 'auto' },
): Promise<SchemaState | null> {
  const dimension = opts.create ? opts.dimension : 1;
  const model = opts.create ? opts.model : undefined;
  let specs = collectionSpecs({ prefix: opts.prefix, dimension, model, body: opts.create && opts.body !== 'auto' ? opts.body : 'kagome_kr' });
  const existing = new Map<string, ExistingCollection>();
  for (const spec of specs) {
    const found = await read(client, spec.name);
    if (found) existing.set(spec.name, found);
  }
  const chunkSpec = specs.find((s) => s.kind === 'Chunk') as CollectionSpec;
  if (!opts.create) {
    const chunk = existing.get(chunkSpec.name);
    const dim = dimensionOfDescription(chunk?.description);
    return chunk && dim ? { dimension: dim, chunkProperties: actualProperties(chunkSpec, chunk), embedder: embedderOfDescription(chunk.description) } : null;
  }
  for (const spec of specs) {
    const found = existing.get(spec.name);
    const had = found ? dimensionOfDescription(found.description) : null;
    if (found && spec.kind !== 'Document' && had !== opts.dimension) {
      throw new PermanentError('DIMENSION_MISMATCH', `weaviate collection ${spec.name} has dimension ${had ?? 'unknown'}, asked for ${opts.dimension}`);
    }
  }
  // Before anything is created or added: a store of another embedder is left as it was.
  const where = `Weaviate collection ${chunkSpec.name}`;
  checkEmbedderRecord(embedderOfDescription(existing.get(chunkSpec.name)?.description), opts.model, where);
  for (const spec of specs) {
    if (existing.has(spec.name)) continue;
    try {
      existing.set(spec.name, await create(client, spec));
    } catch (err) {
      if (opts.body !== 'auto' || !isKagomeRefusal(err)) throw err;
      // The server was started without ENABLE_TOKENIZER_KAGOME_KR: trigram still matches Korean across spacing.
      specs = withBody(specs, 'trigram');
      const fallback = specs.find((s) => s.name === spec.name) as CollectionSpec;
      existing.set(spec.name, await create(client, fallback));
    }
  }
  for (const spec of specs) {
    const found = existing.get(spec.name) as ExistingCollection;
    const add = addableProperties(spec, found);
    if (add.length === 0) continue;
    const config = client.collections.get(spec.name).config;
    for (const p of add) await config.addProperty({ name: p.name, dataType: p.dataType as 'text', indexFilterable: false, indexSearchable: false, ...(p.tokenization ? { tokenization: p.tokenization } : {}) });
    existing.set(spec.name, (await read(client, spec.name)) as ExistingCollection);
  }
  const problems = specs.flatMap((s) => schemaDifferences(s, existing.get(s.name) as ExistingCollection));
  if (problems.length > 0) throw new PermanentError('STORE_REJECTED', `weaviate schema differs from what Quarry needs: ${problems.join('; ')}`);
  const chunk = existing.get(chunkSpec.name) as ExistingCollection;
  const embedder = await recordEmbedder(client, chunkSpec.name, chunk, opts.dimension, opts.model, where);
  return { dimension: opts.dimension, chunkProperties: actualProperties(chunkSpec, chunk), embedder };
}

/**
 * The Chunk collection's recorded embedder, checked against `model`. A collection made before
 * records existed gains one (its description rewritten) while it holds no object; one that holds
 * chunks stays unrecorded (null): which embedder wrote them cannot be told from the vectors.
 * @throws PermanentError `EMBEDDER_MISMATCH` when the record names another model.
 */
async function recordEmbedder(client: WeaviateClient, name: string, chunk: ExistingCollection, dimension: number, model: string, where: string): Promise<string | null> {
  const recorded = embedderOfDescription(chunk.description);
  if (recorded !== null) {
    checkEmbedderRecord(recorded, model, where);
    return recorded;
  }
  const collection = client.collections.use(name);
  if ((await collection.aggregate.overAll()).totalCount > 0) return null;
  await collection.config.update({ description: chunkDescription(dimension, model) });
  const now = embedderOfDescription((await read(client, name))?.description);
  checkEmbedderRecord(now, model, where);
  return now;
}

/** The spec's properties with the tokenization the server actually has for each. */
function actualProperties(spec: CollectionSpec, existing: ExistingCollection): PropertySpec[] {
  const have = new Map(existing.properties.map((p) => [p.name, p]));
  return spec.properties.map((p) => {
    const h = have.get(p.name);
    return h ? { ...p, indexFilterable: h.indexFilterable, indexSearchable: h.indexSearchable, ...(p.tokenization && h.tokenization ? { tokenization: h.tokenization as PropertySpec['tokenization'] } : {}) } : p;
  });
}
