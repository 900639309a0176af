/**
 * Issue 29: the agent keeps what its search found. Routing is a prior, not a gate — the broad
 * search's evidence from documents routing left out (but does not rule out) joins the ranking;
 * an answer leads with, and quotes first, the named documents; a RELAX widens the period, not the
 * company; the qualifier is the cited documents' own period. And the document and section layers
 * (seed 004) are scored before any chunk.
 */
import { describe, expect, it } from 'vitest';
import { requalify } from '../../shared/agent/decide-nodes.ts';
import { answerPassages, evidencePool, leadWithNamed } from '../../shared/agent/evidence.ts';
import { organisationBranch } from '../../shared/agent/search-nodes.ts';
import type { DocumentProfile } from '../../shared/domain/document.ts';
import { organisationAliases, profileLabel } from '../../shared/enrich/document-profile.ts';
import { layeredDocWeights, layerQuestion, scoreLayers } from '../../shared/retrieval/document-layer.ts';
import { routeQuery, type DirectoryEntry, type QueryScope } from '../../shared/retrieval/document-routing.ts';
import type { HybridHit } from '../../shared/store/vector-store.ts';

function hit(docId: string, n: number, score = 0.5): HybridHit {
  return {
    chunk: {
      chunk_id: `00000000-0000-5000-8000-${String(n).padStart(12, '0')}`, doc_id: docId, version: 'a'.repeat(64), section: 's', section_path: 's', body: 'b', embedding_text: 'b',
      page_start: 1, page_end: 1, chunk_index: n, total_chunks: 20, token_count: 1, entities: [], valid_from: null, valid_to: null, doc_type: '10-Q', jurisdiction: 'US', lang: 'en',
      created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z',
    },
    score, keywordScore: score, vectorScore: score, bm25: 1, cosine: 0.5,
  };
}

function entry(docId: string, name: string | null, end: string | null, form = '10-Q', headings: string[] = []): DirectoryEntry {
  const base = {
    organisations: name ? [{ name, aliases: organisationAliases(name) }] : [],
    form,
    period: { end, fiscalYear: end ? Number(end.slice(0, 4)) : null, fiscalQuarter: end && form === '10-Q' ? Math.ceil(Number(end.slice(5, 7)) / 3) : null, calendarYear: end ? Number(end.slice(0, 4)) : null, calendarQuarter: end && form === '10-Q' ? Math.ceil(Number(end.slice(5, 7)) / 3) : null, edition: null },
  };
  const profile: DocumentProfile = { ...base, label: profileLabel(base) };
  return { doc_id: docId, title: docId, doc_type: form, profile, headings };
}

const DIR = [
  entry('orch-q2', 'Orchard Devices Inc.', '2023-06-30', '10-Q', ['Legal Proceedings', 'Risk Factors', 'Condensed Consolidated Statements of Operations']),
  entry('orch-q3', 'Orchard Devices Inc.', '2023-09-30', '10-Q', ['Legal Proceedings', 'Risk Factors', 'Liquidity and Capital Resources']),
  entry('orch-8k', 'Orchard Devices Inc.', null, '8-K'),
  entry('anon-release', null, null, 'unknown'),
  entry('river-q3', 'Rivermart Inc.', '2023-09-30'),
];

describe('evidence the routed branch would lose', () => {
  const scope = routeQuery('What were Orchard’s net sales in Q3 2023?', DIR);

  it('routing rules out other companies and the named company’s other quarters, not documents without an organisation or a period', () => {
    expect(scope.docIds).toEqual(['orch-q3', 'orch-8k']);
    expect(scope.excluded?.sort()).toEqual(['orch-q2', 'river-q3']);
  });

  it('the broad search’s best hits from documents not ruled out join the ranking; ruled-out ones do not', () => {
    const narrowed = [hit('orch-q3', 1), hit('orch-q3', 2)];
    const broad = [hit('anon-release', 10), hit('river-q3', 11), hit('orch-q2', 12), hit('orch-q3', 1)];
    const pool = evidencePool(scope, narrowed, broad, true);
    expect(pool.broadDocs).toEqual(['anon-release']);
    expect(pool.hits.map((h) => h.chunk.doc_id)).toEqual(['orch-q3', 'orch-q3', 'anon-release']);
    // Without a routed branch the broad hits stand; a facet branch keeps its own hits.
    expect(evidencePool(scope, null, broad, false).hits).toHaveLength(4);
    expect(evidencePool(scope, narrowed, broad, false).hits).toHaveLength(2);
  });

  it('the answer leads with a named document near the top, quotes named documents first and leaves ruled-out ones out', () => {
    const ranked = ['river-q3', 'anon-release', 'orch-q3', 'orch-q2', 'orch-q3'];
    expect(leadWithNamed(ranked, scope.docIds, (d) => d)).toEqual({ items: ['orch-q3', 'river-q3', 'anon-release', 'orch-q2', 'orch-q3'], led: 3 });
    expect(leadWithNamed(ranked, scope.docIds, (d) => d, 2).led).toBeNull();
    expect(answerPassages(ranked, scope, (d) => d)).toEqual(['orch-q3', 'orch-q3', 'anon-release']);
    // A period read two ways: each reading's best two passages, in turn.
    expect(answerPassages(['a', 'a', 'b', 'a', 'b', 'c'], { docIds: ['a', 'b'], excluded: [], ambiguousPeriod: true }, (d) => d)).toEqual(['a', 'b', 'a', 'b']);
    // Only one reading's document ranked: its passages as usual.
    expect(answerPassages(['a', 'c', 'a'], { docIds: ['a', 'b'], excluded: [], ambiguousPeriod: true }, (d) => d)).toEqual(['a', 'a', 'c']);
  });

  it('a RELAX widens to every document of the named company, not to the index', () => {
    expect(organisationBranch(scope)?.label).toBe('documents=Orchard Devices Inc. relaxed (3)');
    const all = routeQuery('What were Rivermart’s net sales?', DIR);
    expect(organisationBranch(all)).toBeNull();
  });
});

describe('the qualifier is the cited documents’ own period', () => {
  it('the lead of an extractive answer changes to the cited document’s period', () => {
    const used = 'for the period ended 2023-06-30 (Rivermart Inc. · 10-Q)';
    const cited = 'for the period ended 2023-09-30 (Orchard Devices Inc. · 10-Q)';
    expect(requalify(`For the period ended 2023-06-30 (Rivermart Inc. · 10-Q): Net sales were $5 million [1].`, used, cited, 'as of 2026-01-01')).toEqual({
      text: 'For the period ended 2023-09-30 (Orchard Devices Inc. · 10-Q): Net sales were $5 million [1].',
      qualifier: cited,
    });
    // Cited documents without a period: the date qualifier, never another document's period.
    expect(requalify(`For the period ended 2023-06-30 (Rivermart Inc. · 10-Q): x [1].`, used, null, 'as of 2026-01-01').text).toBe('As of 2026-01-01: x [1].');
    expect(requalify('model text [1]', used, cited, 'as of 2026-01-01')).toEqual({ text: 'model text [1]', qualifier: cited });
  });
});

describe('document and section layers (seed 004)', () => {
  it('the section layer favours the headings the question names in the documents to read, without the names routing used', () => {
    const scope: QueryScope = routeQuery('What legal proceedings did Orchard disclose in Q3 2023?', DIR);
    expect(layerQuestion('What legal proceedings did Orchard disclose in Q3 2023 10-Q?', scope)).toBe('What legal proceedings did disclose in?');
    const layers = scoreLayers('What legal proceedings did Orchard disclose in Q3 2023?', DIR, scope);
    expect(layers.read).toEqual(scope.docIds);
    expect(Object.keys(layers.sections)).toEqual(['Legal Proceedings']);
    expect(layers.documents[0]?.docId).toMatch(/^orch-/);
  });

  it('the document layer orders the routed documents: among equal weights, the one whose headings fit reads first', () => {
    const scope = routeQuery('Orchard liquidity and capital resources', DIR);
    const layers = scoreLayers('Orchard liquidity and capital resources', DIR, scope);
    const w = layeredDocWeights(scope.docWeights, layers);
    expect(w['orch-q3']).toBeGreaterThan(w['orch-q2'] ?? 0);
  });

  it('a corpus without profiles or headings makes no layers (a plain corpus is searched as before)', () => {
    const plain: DirectoryEntry[] = [{ doc_id: 'd1', title: 'Cells and proteins', doc_type: 'unknown', profile: null }];
    expect(scoreLayers('What do proteins do?', plain, null)).toEqual({ documents: [], sections: {}, read: [] });
  });
});
