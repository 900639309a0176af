import { describe, expect, it } from 'vitest';
import { PermanentError, RetryableError } from '../../shared/errors.ts';
import { matchesFilter } from '../../shared/store/filter-eval.ts';
import { and, containsAny, eq, isIn, isNull, or, range, temporalClamp } from '../../shared/store/filter.ts';
import { connectOptions } from '../../shared/store/weaviate/weaviate-connection.ts';
import { batchError, classifyWeaviateError } from '../../shared/store/weaviate/weaviate-errors.ts';
import { componentsFromExplain, toHybridHits } from '../../shared/store/weaviate/weaviate-hybrid.ts';
import {
  chunkToProperties, documentToProperties, documentUuid, facetValueUuid, propertiesToChunk, propertiesToDocument,
} from '../../shared/store/weaviate/weaviate-objects.ts';
import { DOC_A, VERSION, corpus, documents } from '../contract/store-fixtures.ts';

/** A client error as weaviate-client builds them: the class name is the error's name. */
function clientError(name: string, message: string, code?: number): Error {
  const err = new Error(message);
  err.name = name;
  if (code !== undefined) Object.assign(err, { code });
  return err;
}

describe('weaviate object mapping', () => {
  it('round-trips chunks and documents (dates as RFC 3339 instants, nulls left out)', () => {
    const c = corpus();
    for (const chunk of Object.values(c)) {
      const { vector: _v, ...rest } = chunk;
      const props = chunkToProperties(rest);
      if (rest.valid_to === null) expect(props).not.toHaveProperty('valid_to');
      if (rest.valid_from) expect(props.valid_from).toBe(`${rest.valid_from}T00:00:00Z`);
      expect(props.keyword_text).toBeTypeOf('string');
      // The server hands dates back as Date objects or strings; both read back the same.
      const asDates = { ...props, ...(rest.valid_from ? { valid_from: new Date(`${rest.valid_from}T00:00:00Z`) } : {}) };
      expect(propertiesToChunk(asDates)).toEqual(rest);
    }
    const { a } = documents();
    expect(propertiesToDocument(documentToProperties(a))).toEqual(a);
  });

  it('derives object ids from delimited keys: distinct parts never collide', () => {
    expect(documentUuid(DOC_A)).toBe(documentUuid(DOC_A));
    expect(documentUuid(DOC_A)).not.toBe(documentUuid(`${DOC_A}x`));
    // generateUuid5('section', 'x|y') and ('section|x', 'y') would concatenate to the same key.
    expect(facetValueUuid('section', 'x|y')).not.toBe(facetValueUuid('section|x', 'y'));
    expect(facetValueUuid('lang', 'ko')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('weaviate hybrid results', () => {
  const both = [
    'Hybrid (Result Set keyword,bm25) Document 1b7c…: original score 2.5, normalized score: 0.35',
    'Hybrid (Result Set vector,hybridVector) Document 1b7c…: original score 0.8, normalized score: 0.15',
  ].join(' - ');

  it("recovers each side's normalised score and raw score from the explanation", () => {
    expect(componentsFromExplain(both, 0.3)).toEqual({ keywordScore: 0.5, vectorScore: 0.5, bm25: 2.5, cosine: 0.8 });
    expect(componentsFromExplain('\nHybrid (Result Set vector,nearVector) Document x: original score 0.91, normalized score: 1', 1)).toEqual({
      keywordScore: 0, vectorScore: 1, bm25: null, cosine: 0.91,
    });
    expect(componentsFromExplain("(Result Set 'keyword,bm25') Document x: original score 1.2, normalized score: 0.5", 0.5)).toMatchObject({ keywordScore: 1, bm25: 1.2 });
    expect(componentsFromExplain(undefined, 0.5)).toEqual({ keywordScore: 0, vectorScore: 0, bm25: null, cosine: null });
  });

  it('orders by fused score, ties by chunk id, as relativeScoreFusion does', () => {
    const c = corpus();
    const [x, y, z] = Object.values(c).map(({ vector: _v, ...rest }) => rest);
    const hits = toHybridHits(
      [
        { chunk: z!, score: 0.4, explainScore: undefined },
        { chunk: y!, score: 0.5, explainScore: both },
        { chunk: x!, score: 0.5, explainScore: both },
      ],
      0.3,
    );
    expect(hits.map((h) => h.score)).toEqual([0.5, 0.5, 0.4]);
    expect(hits[0]!.chunk.chunk_id < hits[1]!.chunk.chunk_id).toBe(true);
    expect(hits[0]).toMatchObject({ keywordScore: 0.5, vectorScore: 0.5, bm25: 2.5, cosine: 0.8 });
  });
});

describe('weaviate error classification', () => {
  it.each([
    ['timeout', clientError('WeaviateRequestTimeoutError', 'timed out'), RetryableError, 'STORE_UNAVAILABLE'],
    ['gRPC unavailable', clientError('WeaviateGRPCUnavailableError', 'localhost:50051'), RetryableError, 'STORE_UNAVAILABLE'],
    ['HTTP 503', clientError('WeaviateUnexpectedStatusCodeError', 'unavailable', 503), RetryableError, 'STORE_UNAVAILABLE'],
    ['HTTP 429', clientError('WeaviateUnexpectedStatusCodeError', 'slow down', 429), RetryableError, 'STORE_UNAVAILABLE'],
    ['HTTP 408', clientError('WeaviateUnexpectedStatusCodeError', 'request timeout', 408), RetryableError, 'STORE_UNAVAILABLE'],
    ['HTTP 422', clientError('WeaviateUnexpectedStatusCodeError', 'class already exists', 422), PermanentError, 'STORE_REJECTED'],
    ['HTTP 401', clientError('WeaviateUnexpectedStatusCodeError', 'unauthorized', 401), PermanentError, 'STORE_REJECTED'],
    ['gRPC INVALID_ARGUMENT', clientError('WeaviateQueryError', 'Query call with protocol gRPC failed with message: /weaviate.v1.Weaviate/Search INVALID_ARGUMENT: no such prop'), PermanentError, 'STORE_REJECTED'],
    ['gRPC UNAVAILABLE', clientError('WeaviateQueryError', 'Query call with protocol gRPC failed with message: /weaviate.v1.Weaviate/Search UNAVAILABLE: connection refused'), RetryableError, 'STORE_UNAVAILABLE'],
    ['invalid input', clientError('WeaviateInvalidInputError', 'Invalid input provided: bad'), PermanentError, 'STORE_REJECTED'],
    ['socket failure', new TypeError('fetch failed'), RetryableError, 'STORE_UNAVAILABLE'],
  ])('%s', (_name, err, kind, code) => {
    const mapped = classifyWeaviateError(err, 'hybrid');
    expect(mapped).toBeInstanceOf(kind);
    expect(mapped.code).toBe(code);
    expect(mapped.message).toMatch(/^weaviate hybrid: /);
  });

  it('passes Quarry errors through', () => {
    const e = new PermanentError('DIMENSION_MISMATCH', 'x');
    expect(classifyWeaviateError(e, 'y')).toBe(e);
  });

  it('turns per-object batch failures into one error: retryable if any may pass, else permanent', () => {
    expect(batchError('upsertChunks', 3, [])).toBeNull();
    const transient = batchError('upsertChunks', 3, [{ message: 'invalid property' }, { message: 'context deadline exceeded' }]);
    expect(transient).toBeInstanceOf(RetryableError);
    expect(transient?.message).toBe('weaviate upsertChunks: 2 of 3 objects failed: invalid property | context deadline exceeded');
    expect(batchError('upsertChunks', 3, [{ message: 'new node has a vector with length 3. Existing nodes have vectors with length 4' }])?.code).toBe('DIMENSION_MISMATCH');
    expect(batchError('upsertChunks', 3, [{ message: "invalid text property 'lang'" }])).toBeInstanceOf(PermanentError);
    expect(batchError('upsertChunks', 3, [{ message: 'x', code: 503 }])).toBeInstanceOf(RetryableError);
  });
});

describe('weaviate connection options', () => {
  it('derives HTTP and gRPC endpoints from the URL', () => {
    expect(connectOptions({ url: 'http://127.0.0.1:8080' })).toMatchObject({ httpHost: '127.0.0.1', httpPort: 8080, httpSecure: false, grpcHost: '127.0.0.1', grpcPort: 50051, grpcSecure: false });
    expect(connectOptions({ url: 'https://abc.weaviate.cloud', apiKey: 'k' })).toMatchObject({ httpPort: 443, httpSecure: true, grpcHost: 'abc.weaviate.cloud', grpcPort: 443, grpcSecure: true });
    expect(connectOptions({ url: 'http://weaviate:8080', grpcUrl: 'weaviate-grpc:50052' })).toMatchObject({ grpcHost: 'weaviate-grpc', grpcPort: 50052 });
    expect(connectOptions({ url: 'http://proxy.local/weaviate/' })).toMatchObject({ httpPath: '/weaviate', httpPort: 80 });
    expect(connectOptions({ url: 'https://x', apiKey: 'secret' }).authCredentials).toBeDefined();
  });

  it('refuses malformed endpoints with the variable named', () => {
    expect(() => connectOptions({ url: 'not a url' })).toThrow(/WEAVIATE_URL is not a URL/);
    expect(() => connectOptions({ url: 'ftp://x' })).toThrow(/WEAVIATE_URL must be http/);
    expect(() => connectOptions({ url: 'http://x', grpcUrl: 'x' })).toThrow(/WEAVIATE_GRPC_URL must be host:port/);
  });
});

describe('in-process filter evaluation (Weaviate cursor scans)', () => {
  const row = { doc_id: 'a', lang: 'ko', page_start: 3, entities: ['출산장려금'], valid_from: '2024-01-01', valid_to: null, updated_at: '2026-01-01T10:00:00.000Z' };
  it.each([
    [eq('lang', 'ko'), true],
    [eq('page_start', 4), false],
    [isIn('doc_id', ['b', 'a']), true],
    [containsAny('entities', ['출산 장려금']), false],
    [containsAny('entities', ['출산장려금', 'x']), true],
    [range('page_start', { gte: 3, lt: 4 }), true],
    [range('valid_to', { gt: '2020-01-01' }), false],
    [range('updated_at', { gt: '2026-01-01' }), true],
    [isNull('valid_to'), true],
    [isNull('valid_from'), false],
    [temporalClamp('2024-06-01'), true],
    [temporalClamp('2023-12-31'), false],
    [and(), true],
    [or(), false],
    [or(eq('lang', 'en'), eq('doc_id', 'a')), true],
  ] as const)('%j → %s', (filter, expected) => {
    expect(matchesFilter(filter, row)).toBe(expected);
  });
  it('reads versions too', () => {
    expect(matchesFilter(eq('version', VERSION.a1), { version: VERSION.a1 })).toBe(true);
  });
});
