import { describe, expect, it } from 'vitest';
import { createRng, syntheticCorpus, syntheticQueries, zipfSampler } from '../../bench/synthetic-corpus.ts';
import { DocumentRecord } from '../../shared/domain/document.ts';
import { StoredChunkWithoutVector } from '../../shared/store/vector-store.ts';

const collect = (chunks: number, seed: number) => [...syntheticCorpus({ chunks, seed })];

describe('syntheticCorpus', () => {
  it('is deterministic: the same options give the same documents, chunks and ids', () => {
    expect(JSON.stringify(collect(600, 7))).toBe(JSON.stringify(collect(600, 7)));
  });

  it('differs with the seed', () => {
    const a = collect(200, 1).flatMap((d) => d.chunks.map((c) => c.chunk_id));
    const b = collect(200, 2).flatMap((d) => d.chunks.map((c) => c.chunk_id));
    expect(a.filter((id) => b.includes(id))).toEqual([]);
  });

  it('yields exactly the asked number of chunks, with unique ids, every row valid for the store', () => {
    const docs = collect(1234, 3);
    const chunks = docs.flatMap((d) => d.chunks);
    expect(chunks).toHaveLength(1234);
    expect(new Set(chunks.map((c) => c.chunk_id)).size).toBe(1234);
    for (const d of docs) {
      expect(DocumentRecord.safeParse(d.document).success).toBe(true);
      for (const c of d.chunks) {
        expect(StoredChunkWithoutVector.safeParse(c).success).toBe(true);
        expect(c.doc_id).toBe(d.document.doc_id);
        expect(c.embedding_text.startsWith(c.section_path)).toBe(true);
      }
    }
  });

  it('spreads metadata: both languages, several doc types and jurisdictions, open and closed validity', () => {
    const chunks = collect(3000, 11).flatMap((d) => d.chunks);
    const share = (pred: (c: (typeof chunks)[number]) => boolean) => chunks.filter(pred).length / chunks.length;
    expect(share((c) => c.lang === 'ko')).toBeGreaterThan(0.15);
    expect(share((c) => c.lang === 'en')).toBeGreaterThan(0.4);
    expect(new Set(chunks.map((c) => c.doc_type)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(chunks.map((c) => c.jurisdiction)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(chunks.map((c) => c.section)).size).toBeGreaterThanOrEqual(20);
    expect(share((c) => c.valid_to === null)).toBeGreaterThan(0.5);
    expect(share((c) => c.valid_to !== null)).toBeGreaterThan(0.05);
    expect(share((c) => c.entities.length > 0)).toBeGreaterThan(0.5);
    expect(chunks.some((c) => /[\uAC00-\uD7A3]/.test(c.body))).toBe(true);
  });
});

describe('syntheticQueries', () => {
  it('is deterministic, mixes English and Korean, and has the asked length', () => {
    const q = syntheticQueries(30, 5);
    expect(q).toEqual(syntheticQueries(30, 5));
    expect(q).toHaveLength(30);
    const korean = q.filter((s) => /[\uAC00-\uD7A3]/.test(s)).length;
    expect(korean).toBe(10);
    expect(new Set(q).size).toBeGreaterThan(20);
  });
});

describe('zipfSampler', () => {
  it('draws earlier words more often, deterministically', () => {
    const draw = zipfSampler(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    const run = () => {
      const rng = createRng(9);
      return Array.from({ length: 4000 }, () => draw(rng));
    };
    const xs = run();
    expect(xs).toEqual(run());
    const count = (w: string) => xs.filter((x) => x === w).length;
    expect(count('a')).toBeGreaterThan(count('d'));
    expect(count('d')).toBeGreaterThan(count('h'));
    expect(count('h')).toBeGreaterThan(0);
  });
});
