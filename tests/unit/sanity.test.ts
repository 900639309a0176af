import { describe, expect, it } from 'vitest';
import {
  addDays,
  commonEntity,
  evaluateProbe,
  formatSanityReport,
  isProbe,
  planSanity,
  sanityExitCode,
  type SanityFacts,
  type SanityOutcome,
  type SanityProbe,
  type SanityStep,
} from '../../shared/store/sanity.ts';
import { and, containsAny, eq, temporalClamp } from '../../shared/store/filter.ts';

const V = 'a'.repeat(64);
const doc = { version: V, title: 'Parental Leave Policy', doc_type: 'policy', valid_from: '2023-01-01', valid_to: '2025-01-01' };
const facts = (over: Partial<SanityFacts> = {}): SanityFacts => ({
  docId: 'dir-parental',
  status: { state: 'indexed', version: V, chunkCount: 6, errorCode: null },
  stored: doc,
  artifact: { document: doc, chunks: [{ entities: ['hr', 'people operations'] }, { entities: ['people operations'] }, { entities: [] }] },
  ...over,
});
const ids = (steps: SanityStep[]) => steps.map((s) => `${s.id}:${isProbe(s) ? 'probe' : s.verdict}`);
const probe = (steps: SanityStep[], id: string) => steps.find((s): s is SanityProbe => isProbe(s) && s.id === id);

describe('verify sanity: planning', () => {
  it('plans every probe for an indexed document with both validity bounds, in report order', () => {
    const steps = planSanity(facts());
    expect(ids(steps)).toEqual([
      'registered:PASS',
      'document-row:PASS',
      'count-by-doc-id:probe',
      'current-version:probe',
      'title-search:probe',
      'clamp-before:probe',
      'clamp-inside:probe',
      'clamp-at-valid-to:probe',
      'aggregate-doc-type:probe',
      'contains-entity:probe',
    ]);
    const mine = eq('doc_id', 'dir-parental');
    expect(probe(steps, 'count-by-doc-id')).toMatchObject({ query: { kind: 'count', filter: mine }, expect: { kind: 'count', op: 'eq', value: 6 } });
    expect(probe(steps, 'current-version')?.query).toEqual({ kind: 'count', filter: and(mine, eq('version', V)) });
    expect(probe(steps, 'title-search')).toMatchObject({ query: { kind: 'search', text: 'Parental Leave Policy', filter: mine, limit: 10 }, expect: { kind: 'onlyDoc', docId: 'dir-parental', min: 1 } });
    // The day before valid_from, valid_from itself, and valid_to (exclusive).
    expect(probe(steps, 'clamp-before')).toMatchObject({ query: { filter: and(mine, temporalClamp('2022-12-31')) }, expect: { op: 'eq', value: 0 } });
    expect(probe(steps, 'clamp-inside')).toMatchObject({ query: { filter: and(mine, temporalClamp('2023-01-01')) }, expect: { op: 'gte', value: 1 } });
    expect(probe(steps, 'clamp-at-valid-to')).toMatchObject({ query: { filter: and(mine, temporalClamp('2025-01-01')) }, expect: { op: 'eq', value: 0 } });
    expect(probe(steps, 'aggregate-doc-type')).toMatchObject({ query: { kind: 'aggregate', groupBy: 'doc_type', filter: mine }, expect: { kind: 'bucket', value: 'policy', count: 6 } });
    expect(probe(steps, 'contains-entity')).toMatchObject({
      query: { filter: and(mine, containsAny('entities', ['people operations'])) },
      expect: { op: 'eq', value: 2 },
    });
  });

  it('skips, saying why, the clamps an open bound makes meaningless', () => {
    const open = planSanity(facts({ stored: { ...doc, valid_from: '2025-01-01', valid_to: null } }));
    expect(ids(open)).toContain('clamp-at-valid-to:SKIP');
    expect(open.find((s) => s.id === 'clamp-at-valid-to')).toMatchObject({ reason: expect.stringMatching(/valid_to is open/) });
    const noFrom = planSanity(facts({ stored: { ...doc, valid_from: null, valid_to: '2025-01-01' } }));
    expect(ids(noFrom)).toContain('clamp-before:SKIP');
    expect(probe(noFrom, 'clamp-inside')?.query).toEqual({ kind: 'count', filter: and(eq('doc_id', 'dir-parental'), temporalClamp('2024-12-31')) });
    const none = planSanity(facts({ stored: { ...doc, valid_from: null, valid_to: null } }));
    expect(ids(none).filter((i) => i.startsWith('clamp') || i.startsWith('time'))).toEqual(['time-clamp:SKIP']);
  });

  it('fails at once for an unregistered or unindexed document', () => {
    expect(planSanity(facts({ status: null }))).toEqual([{ id: 'registered', verdict: 'FAIL', reason: 'dir-parental is not registered' }]);
    const failed = planSanity(facts({ status: { state: 'failed', version: V, chunkCount: null, errorCode: 'NO_TEXT_LAYER' } }));
    expect(failed).toEqual([{ id: 'registered', verdict: 'FAIL', reason: 'dir-parental is failed (NO_TEXT_LAYER), not indexed: nothing to verify' }]);
  });

  it('a missing or stale Document row fails, and the probes still run from the artifact', () => {
    const missing = planSanity(facts({ stored: null }));
    expect(missing.find((s) => s.id === 'document-row')).toMatchObject({ verdict: 'FAIL', reason: 'no Document row in the store' });
    expect(probe(missing, 'clamp-before')).toBeDefined();
    const stale = planSanity(facts({ stored: { ...doc, version: 'b'.repeat(64) } }));
    expect(stale.find((s) => s.id === 'document-row')).toMatchObject({ verdict: 'FAIL', reason: expect.stringMatching(/^Document row is version bbbbbbbbbbbb, the status record says aaaaaaaaaaaa$/) });
    const nothing = planSanity(facts({ stored: null, artifact: null }));
    expect(ids(nothing)).toEqual(['registered:PASS', 'document-row:FAIL', 'count-by-doc-id:probe', 'current-version:probe', 'document-facts:FAIL']);
    const noCount = planSanity(facts({ status: { state: 'indexed', version: V, chunkCount: null, errorCode: null } }));
    expect(ids(noCount)).toEqual(['registered:PASS', 'document-row:PASS', 'chunk-count:FAIL']);
  });

  it('without the artifact or any entity, the entity probe is skipped', () => {
    expect(ids(planSanity(facts({ artifact: null })))).toContain('contains-entity:SKIP');
    expect(ids(planSanity(facts({ artifact: { document: doc, chunks: [{ entities: [] }] } })))).toContain('contains-entity:SKIP');
  });

  it('picks the entity most chunks carry, ties alphabetically; moves dates across months and leap days', () => {
    expect(commonEntity([{ entities: ['b', 'a', 'a'] }, { entities: ['b'] }, { entities: ['a', 'c'] }])).toEqual({ entity: 'a', chunks: 2 });
    expect(commonEntity([])).toBeNull();
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });
});

describe('verify sanity: evaluation and report', () => {
  const steps = planSanity(facts());
  const count = probe(steps, 'count-by-doc-id')!;
  const inside = probe(steps, 'clamp-inside')!;

  it('compares counts exactly or as a lower bound', () => {
    expect(evaluateProbe(count, { kind: 'count', count: 6 })).toEqual({ id: 'count-by-doc-id', verdict: 'PASS', reason: "eq(doc_id) counts the status record's 6 chunks: 6" });
    expect(evaluateProbe(count, { kind: 'count', count: 0 })).toMatchObject({ verdict: 'FAIL', reason: expect.stringMatching(/: 0 \(expected 6\)$/) });
    expect(evaluateProbe(inside, { kind: 'count', count: 6 }).verdict).toBe('PASS');
    expect(evaluateProbe(inside, { kind: 'count', count: 0 })).toMatchObject({ verdict: 'FAIL', reason: expect.stringMatching(/\(expected at least 1\)$/) });
  });

  it('a title search passes only with hits that are all the document’s own', () => {
    const search = probe(steps, 'title-search')!;
    expect(evaluateProbe(search, { kind: 'search', docIds: ['dir-parental', 'dir-parental'] })).toMatchObject({ verdict: 'PASS', reason: expect.stringMatching(/2 hits, all its own$/) });
    expect(evaluateProbe(search, { kind: 'search', docIds: [] })).toMatchObject({ verdict: 'FAIL', reason: expect.stringMatching(/0 hits \(expected at least 1\)$/) });
    expect(evaluateProbe(search, { kind: 'search', docIds: ['dir-parental', 'other', 'other'] })).toMatchObject({ verdict: 'FAIL', reason: expect.stringMatching(/2 of 3 hits belong to other documents \(other\)$/) });
  });

  it('an aggregate passes only as the one expected bucket; query errors and mismatched results fail', () => {
    const agg = probe(steps, 'aggregate-doc-type')!;
    expect(evaluateProbe(agg, { kind: 'aggregate', buckets: [{ value: 'policy', count: 6 }] }).verdict).toBe('PASS');
    expect(evaluateProbe(agg, { kind: 'aggregate', buckets: [{ value: 'policy', count: 5 }, { value: 'faq', count: 1 }] })).toMatchObject({ verdict: 'FAIL', reason: expect.stringMatching(/got \{policy: 5, faq: 1\}$/) });
    expect(evaluateProbe(agg, { kind: 'error', message: 'STORE_UNAVAILABLE' })).toMatchObject({ verdict: 'FAIL', reason: expect.stringMatching(/the query failed: STORE_UNAVAILABLE$/) });
    expect(evaluateProbe(agg, { kind: 'count', count: 6 }).verdict).toBe('FAIL');
  });

  it('prints one line per probe and a summary; any FAIL makes the exit code 1', () => {
    const outcomes: SanityOutcome[] = [
      { id: 'registered', verdict: 'PASS', reason: 'indexed' },
      { id: 'clamp-at-valid-to', verdict: 'SKIP', reason: 'valid_to is open' },
      { id: 'count-by-doc-id', verdict: 'FAIL', reason: '0 (expected 6)' },
    ];
    expect(formatSanityReport('d', outcomes).split('\n')).toEqual([
      'verify sanity d',
      'PASS  registered         indexed',
      'SKIP  clamp-at-valid-to  valid_to is open',
      'FAIL  count-by-doc-id    0 (expected 6)',
      '1 passed, 1 failed, 1 skipped',
    ]);
    expect(sanityExitCode(outcomes)).toBe(1);
    expect(sanityExitCode(outcomes.filter((o) => o.verdict !== 'FAIL'))).toBe(0);
  });
});
