import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  and, containsAny, eq, isIn, isNull, or, range, temporalClamp, type Filter,
} from '../../shared/store/filter.ts';
import type { ChunkField, ChunkIndex, HybridHit, ScannedChunk, StoredChunk } from '../../shared/store/chunk-index.ts';
import type { DocumentTable } from '../../shared/store/document-table.ts';
import type { StoreAdmin } from '../../shared/store/store-admin.ts';
import type { DocTable } from '../../shared/domain/table.ts';
import { DIM, MODEL, DOC_A, DOC_B, VERSION, corpus, cosine, documents, makeChunk, rejectsWith, seedStore } from './store-fixtures.ts';

type Corpus = ReturnType<typeof corpus>;

/**
 * What the chunk-index suite touches: the index itself, plus the schema to write into and the
 * document rows its deletes remove.
 */
export type ChunkIndexSubject = ChunkIndex & Pick<DocumentTable, 'upsertDocuments' | 'getDocument'> & Pick<StoreAdmin, 'ensureSchema' | 'close'>;

function ids(hits: HybridHit[]): string[] {
  return hits.map((h) => h.chunk.chunk_id);
}

function byIdOrder(c: Corpus): Map<string, keyof Corpus> {
  return new Map(Object.entries(c).map(([k, v]) => [v.chunk_id, k as keyof Corpus]));
}

async function collect<F extends ChunkField>(store: ChunkIndex, fields: F[], filter?: Filter): Promise<ScannedChunk<F>[]> {
  const out: ScannedChunk<F>[] = [];
  for await (const row of store.scanChunks({ fields, filter })) out.push(row);
  return out;
}

/**
 * The ChunkIndex contract (shared/store/chunk-index.ts): every adapter runs this suite against a
 * fresh, empty store per test. `makeStore` must return a new store with its own storage; the
 * suite closes it after each test.
 */
export function runChunkIndexContract(name: string, makeStore: () => Promise<ChunkIndexSubject>): void {
  describe(`ChunkIndex contract: ${name}`, () => {
    let store: ChunkIndexSubject;
    let c: Corpus;
    const names = (chunks: { chunk_id: string }[]) => {
      const order = byIdOrder(c);
      return chunks.map((x) => order.get(x.chunk_id) ?? x.chunk_id);
    };
    const count = (filter?: Filter) => store.countChunks(filter);

    beforeEach(async () => {
      store = await makeStore();
      c = corpus();
    });
    afterEach(async () => {
      await store.close();
    });

    const seed = (): Promise<void> => seedStore(store, c);

    describe('writes', () => {
      it('rejects vectors of the wrong length, on write and on query', async () => {
        await seed();
        await rejectsWith(store.upsertChunks([{ ...c.a1, vector: [1, 0, 0] }]), 'DIMENSION_MISMATCH');
        await rejectsWith(store.hybrid({ text: 'x', vector: [1, 0], alpha: 0.5, limit: 3 }), 'DIMENSION_MISMATCH');
      });

      it('upserts are idempotent on chunk_id', async () => {
        await seed();
        await seed();
        expect(await count()).toBe(6);
        expect(await count(eq('doc_id', DOC_A))).toBe(3);
      });

      it('an upsert replaces the row, and the new text is keyword-searchable at once', async () => {
        await seed();
        const edited: StoredChunk = { ...c.b3, body: 'zyzzyva lexicon entry', embedding_text: 'security\nzyzzyva lexicon entry' };
        await store.upsertChunks([edited]);
        expect(await count()).toBe(6);
        const fresh = await store.hybrid({ text: 'zyzzyva', vector: [0, 0, 0, 1], alpha: 0, limit: 5 });
        expect(names(fresh.map((h) => h.chunk))).toEqual(['b3']);
        const stale = await store.hybrid({ text: 'encrypt ambient authority', vector: [0, 0, 0, 1], alpha: 0, limit: 5 });
        expect(ids(stale)).not.toContain(c.b3.chunk_id);
        const [back] = await store.fetchByIds([c.b3.chunk_id]);
        expect(back?.body).toBe('zyzzyva lexicon entry');
      });

      it('deleteByDoc with exceptVersion removes stale versions only; without it, everything', async () => {
        await seed();
        // v2 keeps a1's passage (same content-addressed id) and adds a4; a2, a3 are gone.
        const a1v2 = { ...c.a1, version: VERSION.a2 };
        const a4 = makeChunk({ doc: DOC_A, version: VERSION.a2, section: '부칙', body: '이 조례는 공포한 날부터 시행한다.', vector: [0.5, 0.5, 0, 0] });
        await store.upsertDocuments([{ ...documents().a, version: VERSION.a2 }]);
        await store.upsertChunks([a1v2, a4]);
        expect(await store.deleteByDoc(DOC_A, { exceptVersion: VERSION.a2 })).toEqual({ deletedChunks: 2 });
        const left = await store.listChunkIds(DOC_A);
        expect(left).toEqual(
          [{ chunk_id: c.a1.chunk_id, version: VERSION.a2 }, { chunk_id: a4.chunk_id, version: VERSION.a2 }].sort((x, y) =>
            x.chunk_id < y.chunk_id ? -1 : 1,
          ),
        );
        expect((await store.getDocument(DOC_A))?.version).toBe(VERSION.a2);
        expect(await store.deleteByDoc(DOC_A)).toEqual({ deletedChunks: 2 });
        expect(await store.getDocument(DOC_A)).toBeNull();
        expect(await store.listChunkIds(DOC_A)).toEqual([]);
        expect(await count()).toBe(3);
        expect(await store.deleteByDoc('no-such-doc')).toEqual({ deletedChunks: 0 });
      });

      it('concurrent upserts from one process all land', async () => {
        await store.ensureSchema({ dimension: DIM, model: MODEL });
        const batches = Array.from({ length: 6 }, (_, b) =>
          Array.from({ length: 20 }, (_, i) =>
            makeChunk({ doc: DOC_B, version: VERSION.b1, section: `s${b}`, body: `batch ${b} chunk ${i}`, vector: [1, b, i, 1] }),
          ),
        );
        await Promise.all(batches.map((batch) => store.upsertChunks(batch)));
        await Promise.all(batches.map((batch) => store.upsertChunks(batch.slice(0, 5))));
        expect(await count()).toBe(120);
      });
    });

    describe('reads', () => {
      beforeEach(seed);

      it('fetchByIds keeps the asked order, skips missing ids and returns vectors', async () => {
        const got = await store.fetchByIds([c.b2.chunk_id, '00000000-0000-5000-8000-000000000000', c.a1.chunk_id, c.b2.chunk_id]);
        expect(names(got)).toEqual(['b2', 'a1']);
        const [b2, a1] = got as [StoredChunk, StoredChunk];
        const { vector: _v, ...b2Rest } = c.b2;
        expect({ ...b2, vector: undefined }).toEqual({ ...b2Rest, vector: undefined });
        expect(Array.from(b2.vector)).toEqual(Array.from(c.b2.vector, (x) => Math.fround(x)));
        expect(a1.entities).toEqual(['출산장려금', '출산 장려금']);
        expect(a1.valid_from).toBe('2020-01-01');
        expect(a1.valid_to).toBe('2023-01-01');
      });

      it("a chunk's line pages (where its body turns a page) round-trip through every read; a chunk without reads without", async () => {
        const spanning = { ...makeChunk({ doc: DOC_B, version: VERSION.b1, section: 'spanning', index: 7, body: 'First page text. Second page text.', vector: [0, 1, 0, 1] }), page_end: 2, line_pages: [[0, 1], [17, 2]] as [number, number][] };
        await store.upsertChunks([spanning]);
        const [fetched] = await store.fetchByIds([spanning.chunk_id, c.a1.chunk_id]);
        expect(fetched?.line_pages).toEqual([[0, 1], [17, 2]]);
        const plain = (await store.fetchByIds([c.a1.chunk_id]))[0];
        expect(plain && 'line_pages' in plain).toBe(false);
        const hits = await store.hybrid({ text: 'second page text', vector: [0, 1, 0, 1], alpha: 0.5, limit: 3 });
        expect(hits.find((h) => h.chunk.chunk_id === spanning.chunk_id)?.chunk.line_pages).toEqual([[0, 1], [17, 2]]);
        const scanned: { chunk_id: string; line_pages?: unknown }[] = [];
        for await (const row of store.scanChunks({ fields: ['chunk_id', 'line_pages'], filter: { op: 'eq', field: 'doc_id', value: DOC_B } })) scanned.push(row);
        expect(scanned.find((r) => r.chunk_id === spanning.chunk_id)?.line_pages).toEqual([[0, 1], [17, 2]]);
      });

      it('a chunk holding a table keeps it as data through every read', async () => {
        const table: DocTable = {
          title: 'STATEMENTS OF OPERATIONS',
          columns: ['Three Months Ended July 1, 2023', 'Three Months Ended June 25, 2022'],
          rows: [
            { label: 'Net sales:', level: 0, parents: [], cells: [null, null], line: 10, page: 4 },
            { label: 'Total net sales', level: 1, parents: ['Net sales:'], cells: [{ text: '$ 81,797', value: 81797, page: 4, box: [300, 600, 40, 9] }, { text: '(1,234)', value: -1234, page: 4 }], line: 13, page: 4 },
          ],
          unit: '$',
          scale: 'millions',
          pageStart: 4,
          pageEnd: 4,
        };
        const held = { ...makeChunk({ doc: DOC_B, version: VERSION.b1, section: 'statements', index: 8, body: '| | Three Months Ended July 1, 2023 |\n|---|---|\n| Total net sales | $ 81,797 |', vector: [1, 0, 1, 0] }), table };
        await store.upsertChunks([held]);
        expect((await store.fetchByIds([held.chunk_id]))[0]?.table).toEqual(table);
        const hits = await store.hybrid({ text: 'total net sales', vector: [1, 0, 1, 0], alpha: 0.5, limit: 3 });
        expect(hits.find((h) => h.chunk.chunk_id === held.chunk_id)?.chunk.table).toEqual(table);
        const scanned: { chunk_id: string; table?: unknown }[] = [];
        for await (const row of store.scanChunks({ fields: ['chunk_id', 'table'], filter: { op: 'eq', field: 'doc_id', value: DOC_B } })) scanned.push(row);
        expect(scanned.find((r) => r.chunk_id === held.chunk_id)?.table).toEqual(table);
        expect(scanned.find((r) => r.chunk_id === c.b1.chunk_id)?.table).toBeUndefined();
      });

      it('listChunkIds lists a document, sorted by id', async () => {
        const list = await store.listChunkIds(DOC_B);
        expect(list.map((x) => x.chunk_id)).toEqual([c.b1.chunk_id, c.b2.chunk_id, c.b3.chunk_id].sort());
        expect(new Set(list.map((x) => x.version))).toEqual(new Set([VERSION.b1]));
      });

      it('aggregates chunk counts by facet, largest first, under a filter', async () => {
        expect(await store.aggregate({ groupBy: 'doc_type' })).toEqual([{ value: 'law', count: 3 }, { value: 'rfc', count: 3 }]);
        expect(await store.aggregate({ groupBy: 'lang', filter: isIn('section', ['신청', '자격', 'security']) })).toEqual([
          { value: 'ko', count: 2 },
          { value: 'en', count: 1 },
        ]);
        expect(await store.aggregate({ groupBy: 'doc_id', filter: eq('jurisdiction', 'US') })).toEqual([{ value: DOC_B, count: 3 }]);
        expect(await store.aggregate({ groupBy: 'section', filter: eq('doc_id', 'none') })).toEqual([]);
      });
    });

    describe('filters', () => {
      beforeEach(seed);

      it('eq and in (strings, ints, dates; quotes and backslashes are data)', async () => {
        expect(await count(eq('doc_type', 'law'))).toBe(3);
        expect(await count(eq('doc_type', "law' OR '1'='1"))).toBe(0);
        expect(await count(eq('page_start', 2))).toBe(2);
        expect(await count(eq('valid_from', '2011-04-01'))).toBe(2);
        expect(await count(isIn('lang', ['en', 'xx']))).toBe(3);
        expect(await count(isIn('chunk_index', [0, 2]))).toBe(4);
        expect(await count(isIn('lang', []))).toBe(0);
      });

      it("counts as searched: this process's own writes at once, the same filters, the same errors", async () => {
        const asSearched = (f?: Filter) => store.countChunks(f, { asSearched: true });
        expect(await asSearched(eq('doc_type', 'law'))).toBe(3);
        expect(await asSearched(isIn('chunk_index', [0, 2]))).toBe(4);
        expect(await asSearched()).toBe(6);
        await store.deleteByDoc(DOC_A);
        expect(await asSearched()).toBe(await count());
        await rejectsWith(asSearched({ op: 'eq', field: 'body', value: 'x' } as unknown as Filter), 'INVALID_PAYLOAD');
      });

      it('containsAny matches array items exactly, including spacing variants', async () => {
        const hits = async (f: Filter) =>
          names((await store.hybrid({ text: '', vector: [1, 1, 1, 1], alpha: 1, limit: 10, filter: f })).map((h) => h.chunk)).sort();
        expect(await hits(containsAny('entities', ['출산 장려금']))).toEqual(['a1', 'a2']);
        expect(await hits(containsAny('entities', ['신청', 'Set-Cookie']))).toEqual(['a2', 'b2']);
        expect(await hits(containsAny('entities', ["O'Brien \\ quoted"]))).toEqual(['b1']);
        expect(await count(containsAny('entities', []))).toBe(0);
        expect(await count(containsAny('entities', ['출산']))).toBe(0);
      });

      it('range on ints, dates and datetimes; null never satisfies a range', async () => {
        expect(await count(range('page_start', { gte: 2, lt: 5 }))).toBe(3);
        expect(await count(range('page_start', { gt: 2 }))).toBe(2);
        expect(await count(range('valid_from', { gte: '2020-01-01' }))).toBe(2);
        expect(await count(range('valid_to', { lte: '2025-01-01' }))).toBe(1);
        expect(await count(range('created_at', { gte: '2025-01-02T03:04:05.678Z' }))).toBe(6);
        expect(await count(range('created_at', { gt: '2025-01-02T03:04:05.678Z' }))).toBe(0);
        expect(await count(range('updated_at', { lt: '2025-01-03' }))).toBe(6);
      });

      it('isNull, and, or, and the empty and/or identities', async () => {
        expect(await count(isNull('valid_to'))).toBe(4);
        expect(await count(isNull('valid_to', false))).toBe(2);
        expect(await count(and(eq('doc_type', 'law'), isNull('valid_from')))).toBe(1);
        expect(await count(or(eq('section', '자격'), and(eq('lang', 'en'), range('page_start', { gte: 5 }))))).toBe(2);
        expect(await count(and())).toBe(6);
        expect(await count(or())).toBe(0);
      });

      it('temporalClamp keeps chunks valid on the date (valid_to exclusive, nulls open-ended)', async () => {
        const valid = (d: string) => count(temporalClamp(d));
        expect(await valid('2021-06-01')).toBe(5); // a1 in window, a2 not yet, a3 open, b1 open, b2 and b3 in window
        expect(await valid('2023-01-01')).toBe(5); // a1 ended (exclusive), a2 started
        expect(await valid('2030-01-01')).toBe(4); // b3 ended too
        expect(await valid('2010-01-01')).toBe(2); // only the open-ended a3 and b1
        const hits = await store.hybrid({ text: '출산 장려금', vector: [1, 0, 0, 0], alpha: 0.5, limit: 10, filter: temporalClamp('2021-06-01') });
        expect(ids(hits)).toContain(c.a1.chunk_id);
        expect(ids(hits)).not.toContain(c.a2.chunk_id);
      });

      it('rejects malformed filters before touching the store', async () => {
        await rejectsWith(store.countChunks({ op: 'eq', field: 'body', value: 'x' } as unknown as Filter), 'INVALID_PAYLOAD');
        await rejectsWith(store.countChunks(range('valid_from', { gte: '2021-13-01' })), 'INVALID_PAYLOAD');
        await rejectsWith(store.countChunks(eq('entities', 'x')), 'INVALID_PAYLOAD');
        await rejectsWith(store.countChunks(range('doc_type', { gte: 'a' })), 'INVALID_PAYLOAD');
      });
    });

    describe('hybrid', () => {
      beforeEach(seed);
      const text = 'cookie header';
      const vector = [0, 0, 0.6, 0.8];

      it('alpha 1 is pure vector order (hand-computed cosines)', async () => {
        const hits = await store.hybrid({ text, vector, alpha: 1, limit: 4 });
        const expected = Object.values(c)
          .map((x) => ({ id: x.chunk_id, s: cosine(x.vector, vector) }))
          .sort((x, y) => y.s - x.s || (x.id < y.id ? -1 : 1))
          .slice(0, 4)
          .map((x) => x.id);
        expect(ids(hits)).toEqual(expected);
        expect(names(hits.map((h) => h.chunk)).slice(0, 3)).toEqual(['b3', 'b2', 'b1']);
        for (const h of hits) {
          expect(h.keywordScore).toBe(0);
          expect(h.bm25).toBeNull();
          expect(h.cosine).toBeCloseTo(cosine(Object.values(c).find((x) => x.chunk_id === h.chunk.chunk_id)!.vector, vector), 5);
          expect(h.score).toBeCloseTo(h.vectorScore, 9);
        }
        expect(hits[0]?.score).toBeCloseTo(1, 9);
      });

      it('alpha 0 is pure keyword order: only chunks with a query term, best BM25 first', async () => {
        const hits = await store.hybrid({ text, vector, alpha: 0, limit: 10 });
        expect(names(hits.map((h) => h.chunk))[0]).toBe('b1');
        expect(new Set(names(hits.map((h) => h.chunk)))).toEqual(new Set(['b1', 'b2']));
        const bm25 = hits.map((h) => h.bm25 as number);
        expect([...bm25].sort((x, y) => y - x)).toEqual(bm25);
        for (const h of hits) {
          expect(h.cosine).toBeNull();
          expect(h.score).toBeCloseTo(h.keywordScore, 9);
        }
      });

      it('alpha 0.5 fuses min-max normalised sides (relativeScoreFusion)', async () => {
        const hits = await store.hybrid({ text, vector, alpha: 0.5, limit: 10 });
        const cos = Object.values(c).map((x) => cosine(x.vector, vector));
        const [lo, hi] = [Math.min(...cos), Math.max(...cos)];
        const kw = hits.filter((h) => h.bm25 !== null).map((h) => h.bm25 as number);
        const [klo, khi] = [Math.min(...kw), Math.max(...kw)];
        for (const h of hits) {
          const own = Object.values(c).find((x) => x.chunk_id === h.chunk.chunk_id)!;
          expect(h.vectorScore).toBeCloseTo((cosine(own.vector, vector) - lo) / (hi - lo), 5);
          const k = h.bm25 === null ? 0 : khi === klo ? 1 : (h.bm25 - klo) / (khi - klo);
          expect(h.keywordScore).toBeCloseTo(k, 5);
          expect(h.score).toBeCloseTo(0.5 * h.vectorScore + 0.5 * h.keywordScore, 9);
        }
        const scores = hits.map((h) => h.score);
        expect([...scores].sort((x, y) => y - x)).toEqual(scores);
        // b1 is the keyword winner and close on vectors; a-chunks score 0 on both sides.
        expect(names(hits.map((h) => h.chunk))[0]).toBe('b1');
        expect(hits.length).toBe(6);
        const pureVector = ids(await store.hybrid({ text, vector, alpha: 1, limit: 1 }));
        const pureKeyword = ids(await store.hybrid({ text, vector, alpha: 0, limit: 1 }));
        expect(pureVector).not.toEqual(pureKeyword);
      });

      it('filters apply before ranking on both sides', async () => {
        const noB1 = and(eq('doc_id', DOC_B), isIn('section', ['set-cookie', 'security']));
        const kw = await store.hybrid({ text, vector, alpha: 0, limit: 1, filter: noB1 });
        expect(names(kw.map((h) => h.chunk))).toEqual(['b2']);
        const vec = await store.hybrid({ text, vector: [0, 0, 1, 0], alpha: 1, limit: 1, filter: noB1 });
        expect(names(vec.map((h) => h.chunk))).toEqual(['b2']);
        expect(await store.hybrid({ text, vector, alpha: 0.5, limit: 5, filter: eq('doc_id', 'nothing') })).toEqual([]);
      });

      it('respects limit and is deterministic', async () => {
        const q = { text: '출산 장려금 cookie', vector: [0.5, 0.5, 0.5, 0.5], alpha: 0.5, limit: 3 };
        const first = await store.hybrid(q);
        expect(first).toHaveLength(3);
        expect(ids(await store.hybrid(q))).toEqual(ids(first));
      });

      it('Korean keyword matching ignores spacing: "출산 장려금" ≡ "출산장려금"', async () => {
        const spaced = await store.hybrid({ text: '출산 장려금', vector: [0, 0, 0, 1], alpha: 0, limit: 10 });
        const joined = await store.hybrid({ text: '출산장려금', vector: [0, 0, 0, 1], alpha: 0, limit: 10 });
        expect(new Set(names(spaced.map((h) => h.chunk)))).toEqual(new Set(['a1', 'a2']));
        expect(ids(joined)).toEqual(ids(spaced));
        // Particles attached ("출산장려금은") still match the bare term.
        const particle = await store.hybrid({ text: '장려금은', vector: [0, 0, 0, 1], alpha: 0, limit: 10 });
        expect(new Set(names(particle.map((h) => h.chunk)))).toEqual(new Set(['a1', 'a2']));
      });

      it('keyword side: a word in the section heading weighs more than in the body; "GATA-3" ≡ "GATA3"', async () => {
        // Without the heading's weight the body chunk (each word twice, as short) would win.
        const inHeading = makeChunk({ doc: DOC_B, version: VERSION.b1, section: 'GATA-3 expression', index: 3, body: 'Stem cells divide rarely and renew the blood for a whole life.', vector: [0, 0, 1, 1] });
        const inBody = makeChunk({ doc: DOC_B, version: VERSION.b1, section: 'results', index: 4, body: 'GATA3 expression in stem cells; GATA3 expression falls with age.', vector: [0, 1, 1, 0] });
        await store.upsertChunks([inHeading, inBody]);
        for (const q of ['GATA3 expression', 'gata-3 expression']) {
          const hits = await store.hybrid({ text: q, vector: [0, 0, 0, 1], alpha: 0, limit: 10 });
          expect(ids(hits).slice(0, 2), q).toEqual([inHeading.chunk_id, inBody.chunk_id]);
        }
      });

      it('keyword side: British and American spellings find each other ("tumour" ≡ "tumor", "randomised" ≡ "randomized")', async () => {
        const american = makeChunk({ doc: DOC_B, version: VERSION.b1, section: 'Tumor growth', index: 5, body: 'A randomized trial of tumor suppression.', vector: [0, 0, 1, 1] });
        const british = makeChunk({ doc: DOC_B, version: VERSION.b1, section: 'Haemoglobin', index: 6, body: 'Haemoglobin fell in the randomised group.', vector: [0, 1, 1, 0] });
        await store.upsertChunks([american, british]);
        const find = async (q: string) => ids(await store.hybrid({ text: q, vector: [0, 0, 0, 1], alpha: 0, limit: 10 }));
        expect(await find('tumour suppression')).toContain(american.chunk_id);
        expect(await find('hemoglobin')).toContain(british.chunk_id);
        expect(new Set(await find('randomised'))).toEqual(new Set(await find('randomized')));
        expect(await find('randomized')).toEqual(expect.arrayContaining([american.chunk_id, british.chunk_id]));
      });

      it('withVectors returns the stored vector of every hit (keyword-only hits too); without it, none', async () => {
        for (const alpha of [0, 0.5, 1]) {
          const hits = await store.hybrid({ text, vector, alpha, limit: 10, withVectors: true });
          expect(hits.length, `alpha ${alpha}`).toBeGreaterThan(0);
          for (const h of hits) {
            const stored = Object.values(c).find((x) => x.chunk_id === h.chunk.chunk_id)!;
            expect(h.vector, h.chunk.chunk_id).toBeInstanceOf(Float32Array);
            expect(Array.from(h.vector ?? [])).toEqual(Array.from(Float32Array.from(stored.vector)));
          }
          const plain = await store.hybrid({ text, vector, alpha, limit: 10 });
          expect(plain.every((h) => h.vector === undefined)).toBe(true);
          expect(ids(plain)).toEqual(ids(hits));
        }
      });

      it('validates alpha and limit', async () => {
        await rejectsWith(store.hybrid({ text, vector, alpha: 1.5, limit: 3 }), 'INVALID_PAYLOAD');
        await rejectsWith(store.hybrid({ text, vector, alpha: 0.5, limit: 0 }), 'INVALID_PAYLOAD');
      });
    });

    describe('scanChunks', () => {
      let store: ChunkIndexSubject;
      const c = corpus();
      beforeEach(async () => {
        store = await makeStore();
      });
      afterEach(async () => {
        await store.close();
      });

      it('yields nothing before ensureSchema', async () => {
        expect(await collect(store, ['chunk_id'])).toEqual([]);
      });

      it('streams every matching chunk with exactly the asked fields', async () => {
        await store.ensureSchema({ dimension: DIM, model: MODEL });
        await store.upsertDocuments(Object.values(documents()));
        await store.upsertChunks(Object.values(c));
        const all = await collect(store, ['chunk_id', 'doc_id', 'section', 'doc_type', 'lang', 'jurisdiction']);
        expect(all).toHaveLength(6);
        const a1 = all.find((r) => r.chunk_id === c.a1.chunk_id);
        expect(a1).toEqual({ chunk_id: c.a1.chunk_id, doc_id: DOC_A, section: '지원대상', doc_type: 'law', lang: 'ko', jurisdiction: 'KR' });
        const typed = await collect(store, ['chunk_id', 'entities', 'valid_from', 'valid_to', 'page_start', 'created_at'], eq('chunk_id', c.a1.chunk_id));
        expect(typed).toEqual([
          { chunk_id: c.a1.chunk_id, entities: ['출산장려금', '출산 장려금'], valid_from: '2020-01-01', valid_to: '2023-01-01', page_start: 1, created_at: c.a1.created_at },
        ]);
        const bodies = await collect(store, ['body'], and(eq('doc_id', DOC_B), isIn('section', ['security', 'set-cookie'])));
        expect(bodies.map((r) => r.body).sort()).toEqual([c.b2.body, c.b3.body].sort());
        expect(await collect(store, ['chunk_id'], eq('doc_id', 'nothing'))).toEqual([]);
      });

      it('can be left early, and rejects unknown fields and malformed filters', async () => {
        await store.ensureSchema({ dimension: DIM, model: MODEL });
        await store.upsertChunks(Object.values(c));
        let seen = 0;
        for await (const _row of store.scanChunks({ fields: ['chunk_id'] })) {
          seen += 1;
          if (seen === 2) break;
        }
        expect(seen).toBe(2);
        expect(await store.countChunks()).toBe(6);
        await rejectsWith(collect(store, ['vector' as ChunkField]), 'INVALID_PAYLOAD');
        await rejectsWith(collect(store, []), 'INVALID_PAYLOAD');
        await rejectsWith(collect(store, ['chunk_id'], { op: 'eq', field: 'body', value: 'x' } as unknown as Filter), 'INVALID_PAYLOAD');
      });
    });
  });
}
