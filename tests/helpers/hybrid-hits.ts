/**
 * Search hits for ranking and answering tests: a stored chunk with every field a store returns,
 * the fields a test cares about given, the rest plain defaults (one page, a policy in English,
 * created 2025-01-01), and the hit's scores all one figure unless given.
 */
import type { HybridHit, StoredChunkWithoutVector } from '../../shared/store/index.ts';

/** A stored chunk: `chunk_id` and `body` given, `embedding_text` the body, the rest defaults or `fields`. */
export function storedChunk(fields: Partial<StoredChunkWithoutVector> & Pick<StoredChunkWithoutVector, 'chunk_id' | 'body'>): StoredChunkWithoutVector {
  const sectionPath = fields.section_path ?? 'Doc > Section';
  return {
    doc_id: 'doc',
    version: 'a'.repeat(64),
    section: sectionPath.split(' > ').at(-1) ?? '',
    section_path: sectionPath,
    embedding_text: fields.body,
    page_start: 1,
    page_end: 1,
    chunk_index: 0,
    total_chunks: 1,
    token_count: 20,
    entities: [],
    valid_from: null,
    valid_to: null,
    doc_type: 'policy',
    jurisdiction: 'US',
    lang: 'en',
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    ...fields,
  };
}

/** A hit of `chunk` whose fused, keyword and vector scores are `score`; BM25 and cosine as given (default `score`). */
export function hybridHit(chunk: StoredChunkWithoutVector, score: number, extra: Partial<Pick<HybridHit, 'bm25' | 'cosine' | 'vector'>> = {}): HybridHit {
  return { chunk, score, keywordScore: score, vectorScore: score, bm25: score, cosine: score, ...extra };
}
