import { describe, expect, it } from 'vitest';
import { PermanentError } from '../../shared/errors.ts';
import { FILTER_FIELDS } from '../../shared/store/filter.ts';
import { AGGREGATE_FIELDS, FACET_NAMES } from '../../shared/store/vector-store.ts';
import { toCreateConfig } from '../../shared/store/weaviate/weaviate-schema-sync.ts';
import {
  INVERTED_INDEX, KEYWORD_PROPERTY, addableProperties, chunkDescription, collectionNames, collectionSpecs, dimensionOfDescription, embedderOfDescription, schemaDifferences,
  type CollectionSpec, type ExistingCollection,
} from '../../shared/store/weaviate/weaviate-schema.ts';

const specs = collectionSpecs({ prefix: 'Quarry', dimension: 512, body: 'kagome_kr' });
const spec = (kind: CollectionSpec['kind']) => specs.find((s) => s.kind === kind) as CollectionSpec;
const prop = (kind: CollectionSpec['kind'], name: string) => spec(kind).properties.find((p) => p.name === name);
const TYPE_OF_KIND = { string: 'text', 'string[]': 'text[]', int: 'int', date: 'date', datetime: 'date' } as const;

/** What the server would report back for a collection created from `s`. */
function asCreated(s: CollectionSpec): ExistingCollection {
  return {
    description: s.description,
    properties: s.properties.map((p) => ({ name: p.name, dataType: p.dataType, tokenization: p.tokenization, indexFilterable: p.indexFilterable, indexSearchable: p.indexSearchable })),
    invertedIndex: { indexNullState: true, indexTimestamps: true },
  };
}

describe('weaviate schema (seed 000 §3)', () => {
  it('names Document, Chunk and FacetValueVector under the prefix, and refuses prefixes Weaviate would not', () => {
    expect(collectionNames('Quarry')).toEqual({ Document: 'QuarryDocument', Chunk: 'QuarryChunk', FacetValueVector: 'QuarryFacetValueVector' });
    expect(collectionNames('')).toEqual({ Document: 'Document', Chunk: 'Chunk', FacetValueVector: 'FacetValueVector' });
    for (const bad of ['quarry', 'Q-1', 'Q x', '9Q']) expect(() => collectionNames(bad), bad).toThrow(PermanentError);
  });

  it('makes every filter field a filterable Chunk property of the matching type', () => {
    for (const [field, kind] of Object.entries(FILTER_FIELDS)) {
      const p = prop('Chunk', field);
      expect(p, field).toBeDefined();
      expect(p?.dataType, field).toBe(TYPE_OF_KIND[kind]);
      expect(p?.indexFilterable, field).toBe(true);
      if (kind === 'string' || kind === 'string[]') expect(p?.tokenization, field).toBe('field');
      if (kind === 'date' || kind === 'datetime' || kind === 'int') expect(p?.indexRangeFilters, field).toBe(true);
    }
    for (const f of [...AGGREGATE_FIELDS, ...FACET_NAMES]) expect(prop('Chunk', f)?.indexFilterable, f).toBe(true);
  });

  it('searches body with the Korean-aware tokenizer and the derived keyword text by whitespace', () => {
    expect(prop('Chunk', 'body')).toMatchObject({ dataType: 'text', tokenization: 'kagome_kr', indexSearchable: true });
    expect(prop('Chunk', KEYWORD_PROPERTY)).toMatchObject({ dataType: 'text', tokenization: 'whitespace', indexSearchable: true, indexFilterable: false });
    expect(collectionSpecs({ prefix: '', dimension: 8, body: 'trigram' }).find((s) => s.kind === 'Chunk')?.properties.find((p) => p.name === 'body')?.tokenization).toBe('trigram');
  });

  it('has the Document and FacetValueVector properties of seed 000 §3', () => {
    expect(spec('Document').properties.map((p) => p.name)).toEqual(['doc_id', 'version', 'title', 'doc_type', 'jurisdiction', 'lang', 'valid_from', 'valid_to', 'entities', 'page_count', 'provenance', 'profile']);
    expect(prop('Document', 'profile')).toMatchObject({ dataType: 'text', indexFilterable: false, indexSearchable: false });
    expect(prop('Document', 'valid_to')).toMatchObject({ dataType: 'date', indexFilterable: true });
    expect(prop('Document', 'entities')).toMatchObject({ dataType: 'text[]', tokenization: 'field', indexFilterable: true });
    expect(spec('FacetValueVector').properties.map((p) => p.name)).toEqual(['facet', 'value', 'aliases', 'description', 'sample_count', 'updated_at']);
  });

  it('sends indexNullState, indexTimestamps and vectorizer none with an HNSW cosine index', () => {
    for (const s of specs) {
      const config = toCreateConfig(s);
      expect(config.name).toBe(s.name);
      expect(config.invertedIndex).toEqual(INVERTED_INDEX);
      expect(INVERTED_INDEX).toMatchObject({ indexNullState: true, indexTimestamps: true });
      expect(JSON.stringify(config.vectorizers)).toMatch(/"none"/);
      expect(JSON.stringify(config.vectorizers)).toMatch(/"distance(Metric)?":"cosine"/);
      for (const p of config.properties ?? []) {
        if (p.dataType === 'int' || p.dataType === 'date') expect(p, p.name).not.toHaveProperty('tokenization');
      }
    }
    expect(toCreateConfig(spec('Chunk')).properties?.find((p) => p.name === 'chunk_id')).toEqual({
      name: 'chunk_id', dataType: 'text', indexFilterable: true, indexSearchable: false, indexRangeFilters: false, tokenization: 'field',
    });
  });

  it('records the vector dimension in the Chunk description', () => {
    expect(dimensionOfDescription(spec('Chunk').description)).toBe(512);
    expect(dimensionOfDescription(chunkDescription(1536))).toBe(1536);
    expect(dimensionOfDescription('someone else’s collection')).toBeNull();
  });

  it('records the embedder model in the Chunk description when given, and reads it back', () => {
    const model = 'quarry-hash-v2/d384/g3-5/h2/bi/w1/stop';
    expect(embedderOfDescription(chunkDescription(384, model))).toBe(model);
    expect(dimensionOfDescription(chunkDescription(384, model))).toBe(384);
    expect(embedderOfDescription(chunkDescription(8, 'a "quoted"; model'))).toBe('a "quoted"; model');
    expect(embedderOfDescription(chunkDescription(384))).toBeNull();
    expect(embedderOfDescription(spec('Chunk').description)).toBeNull();
    expect(embedderOfDescription(collectionSpecs({ prefix: '', dimension: 4, body: 'trigram', model: 'm' }).find((s) => s.kind === 'Chunk')?.description)).toBe('m');
  });

  it('a Document collection made before profiles can gain the stored-only profile property; indexed ones are never added', () => {
    const doc = spec('Document');
    const old = asCreated(doc);
    old.properties = old.properties.filter((p) => p.name !== 'profile' && p.name !== 'doc_type');
    expect(addableProperties(doc, old).map((p) => p.name)).toEqual(['profile']);
    expect(addableProperties(doc, asCreated(doc))).toEqual([]);
  });

  it('accepts a collection as created (either Korean tokenizer on body) and names every difference otherwise', () => {
    for (const s of specs) expect(schemaDifferences(s, asCreated(s))).toEqual([]);
    const chunk = spec('Chunk');
    const trigram = asCreated(chunk);
    trigram.properties = trigram.properties.map((p) => (p.name === 'body' ? { ...p, tokenization: 'trigram' } : p));
    expect(schemaDifferences(chunk, trigram)).toEqual([]);

    const broken = asCreated(chunk);
    broken.invertedIndex.indexNullState = false;
    broken.properties = broken.properties
      .filter((p) => p.name !== 'valid_to')
      .map((p) => (p.name === 'doc_id' ? { ...p, tokenization: 'word' } : p.name === 'page_start' ? { ...p, dataType: 'text' } : p.name === 'lang' ? { ...p, indexFilterable: false } : p));
    const problems = schemaDifferences(chunk, broken);
    expect(problems).toEqual(expect.arrayContaining([
      expect.stringContaining('indexNullState is off'),
      'QuarryChunk.valid_to: missing',
      'QuarryChunk.doc_id: tokenization word, Quarry needs field',
      'QuarryChunk.page_start: dataType text, Quarry needs int',
      'QuarryChunk.lang: not filterable',
    ]));
    expect(problems).toHaveLength(5);
  });
});
