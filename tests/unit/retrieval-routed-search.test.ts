import { describe, expect, it } from 'vitest';
import type { DocumentProfile } from '../../shared/domain/document.ts';
import { organisationAliases } from '../../shared/enrich/document-profile.ts';
import type { DirectoryEntry } from '../../shared/retrieval/document-routing.ts';
import { routedHybrid } from '../../shared/retrieval/routed-search.ts';
import { matchesFilter } from '../../shared/store/filter-eval.ts';
import type { HybridHit, HybridQuery } from '../../shared/store/vector-store.ts';

function entry(docId: string, name: string, end: string): DirectoryEntry {
  const profile: DocumentProfile = {
    organisations: [{ name, aliases: organisationAliases(name) }],
    form: '10-Q',
    period: { end, fiscalYear: null, fiscalQuarter: null, calendarYear: Number(end.slice(0, 4)), calendarQuarter: Math.ceil(Number(end.slice(5, 7)) / 3), edition: null },
    label: name,
  };
  return { doc_id: docId, title: name, doc_type: '10-Q', profile };
}

const DIRECTORY = [entry('orch-q2', 'Orchard Devices Inc.', '2023-06-30'), entry('orch-q3', 'Orchard Devices Inc.', '2023-09-30'), entry('river-q3', 'Rivermart Inc.', '2023-09-30')];

function hit(docId: string, n: number, score: number): HybridHit {
  return {
    chunk: {
      chunk_id: `00000000-0000-5000-8000-${String(n).padStart(12, '0')}`, doc_id: docId, version: 'a'.repeat(64), section: 's', section_path: 's', body: 'b', embedding_text: 'b',
      page_start: 1, page_end: 1, chunk_index: n, total_chunks: 20, token_count: 1, entities: [], valid_from: null, valid_to: null, doc_type: '10-Q', jurisdiction: 'US', lang: 'en',
      created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z',
    },
    score, keywordScore: score, vectorScore: score, bm25: 1, cosine: 0.5,
  };
}

/** Rivermart's passages read best; Orchard's Q2 ones better than its Q3 ones. */
const HITS = [
  ...Array.from({ length: 12 }, (_, i) => hit('river-q3', i, 0.9 - i / 100)),
  ...Array.from({ length: 12 }, (_, i) => hit('orch-q2', 100 + i, 0.7 - i / 100)),
  ...Array.from({ length: 3 }, (_, i) => hit('orch-q3', 200 + i, 0.4 - i / 100)),
];

const store = {
  calls: [] as HybridQuery[],
  async hybrid(q: HybridQuery): Promise<HybridHit[]> {
    this.calls.push(q);
    return HITS.filter((h) => !q.filter || matchesFilter(q.filter, h.chunk)).slice(0, q.limit);
  },
};

const q = (limit = 10): HybridQuery => ({ text: 't', vector: [1], alpha: 0.5, limit });

describe('routedHybrid', () => {
  it("a question naming a company puts its documents' hits first, each document in the top 10, the rest after", async () => {
    const { hits, scope } = await routedHybrid({ store, documents: async () => DIRECTORY }, "How have Orchard's sales changed?", q(30));
    expect(scope?.docIds.sort()).toEqual(['orch-q2', 'orch-q3']);
    const docs = hits.map((h) => h.chunk.doc_id);
    expect(new Set(docs.slice(0, 10))).toEqual(new Set(['orch-q2', 'orch-q3']));
    expect(docs.slice(15)).toContain('river-q3');
    expect(hits).toHaveLength(27);
  });

  it('a question naming nothing a document matches is one plain hybrid search', async () => {
    store.calls.length = 0;
    const { hits, scope } = await routedHybrid({ store, documents: async () => DIRECTORY }, 'What are the risk factors?', q());
    expect(scope).toBeNull();
    expect(store.calls).toHaveLength(1);
    expect(hits.map((h) => h.chunk.doc_id)).toEqual(Array(10).fill('river-q3'));
  });
});
