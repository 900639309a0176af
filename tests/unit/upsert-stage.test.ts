import { describe, expect, it } from 'vitest';
import type { EmbeddingsMeta, EnrichedArtifact } from '../../shared/domain/index.ts';
import { chunkIdFor } from '../../shared/domain/ids.ts';
import { packVectors, unpackVectors } from '../../shared/embed/vector-file.ts';
import { upsertStage } from '../../workers/upsert/upsert.stage.ts';

const V = 'e'.repeat(64);

function enriched(bodies: string[]): EnrichedArtifact {
  return {
    document: {
      doc_id: 'doc-1',
      version: V,
      title: 'T',
      doc_type: 'policy',
      jurisdiction: 'US',
      lang: 'en',
      valid_from: '2025-01-01',
      valid_to: null,
      entities: [],
      page_count: 1,
      provenance: { source_uri: 'file:///x.pdf', sha256: V, fetched_at: '2025-01-01T00:00:00.000Z', collector: 'test', bytes: 10 },
    },
    chunks: bodies.map((body, i) => ({
      chunk_id: chunkIdFor('doc-1', 'A', body),
      doc_id: 'doc-1',
      version: V,
      section: 'a',
      section_path: 'A',
      body,
      embedding_text: `A\n\n${body}`,
      page_start: 1,
      page_end: 1,
      chunk_index: i,
      total_chunks: bodies.length,
      token_count: 3,
      entities: [],
      valid_from: '2025-01-01',
      valid_to: null,
    })),
  };
}

describe('upsert stage', () => {
  it('pairs chunks with their vectors and facets, keeping the age of chunks the store has', () => {
    const e = enriched(['one', 'two']);
    const vectors = [Float32Array.of(1, 0), Float32Array.of(0, 1)];
    const meta: EmbeddingsMeta = { model: 'm', dimension: 2, count: 2, chunkIds: e.chunks.map((c) => c.chunk_id) };
    const rows = upsertStage(e, { meta, vectors }, new Map([[e.chunks[0]!.chunk_id, '2024-01-01T00:00:00.000Z']]), '2025-06-01T00:00:00.000Z');
    expect(rows.map((r) => [r.body, Array.from(r.vector), r.doc_type, r.lang, r.created_at, r.updated_at])).toEqual([
      ['one', [1, 0], 'policy', 'en', '2024-01-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z'],
      ['two', [0, 1], 'policy', 'en', '2025-06-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z'],
    ]);
  });

  it('refuses vectors that do not line up with the chunks', () => {
    const e = enriched(['one', 'two']);
    const meta: EmbeddingsMeta = { model: 'm', dimension: 2, count: 2, chunkIds: [e.chunks[1]!.chunk_id, e.chunks[0]!.chunk_id] };
    expect(() => upsertStage(e, { meta, vectors: [Float32Array.of(1, 0), Float32Array.of(0, 1)] }, new Map(), 'now')).toThrow(/belongs to chunk/);
    expect(() => upsertStage(e, { meta: { ...meta, count: 1 }, vectors: [Float32Array.of(1, 0)] }, new Map(), 'now')).toThrow(/2 chunks but 1 vectors/);
  });

  it('vector files round-trip and reject a wrong size', () => {
    const packed = packVectors([Float32Array.of(1, 2, 3), Float32Array.of(4, 5, 6)], 3);
    expect(unpackVectors(packed, 3, 2).map((v) => Array.from(v))).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(() => unpackVectors(packed, 3, 3)).toThrow(/DIMENSION|expected 3×3/);
    expect(() => packVectors([Float32Array.of(1, 2)], 3)).toThrow(/2 dimensions, expected 3/);
  });
});
