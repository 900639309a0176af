import { describe, expect, it } from 'vitest';
import {
  createFacetSampleCollector,
  facetSeed,
  pickSentences,
  roundRobin,
  seededHash,
  type FacetChunkRef,
  type FacetSamplingOptions,
} from '../../shared/facets/facet-sampling.ts';
import { FACET_NAMES } from '../../shared/store/facet-values.ts';

function chunk(doc: string, i: number, section: string, extra: Partial<FacetChunkRef> = {}): FacetChunkRef {
  return { chunk_id: `${doc}-c${i}`, doc_id: doc, section, doc_type: 'policy', jurisdiction: 'US', lang: 'en', ...extra };
}

/** A deterministic shuffle (the test must not depend on Math.random either). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  return [...items].sort((a, b) => seededHash(String(seed), JSON.stringify(a)) - seededHash(String(seed), JSON.stringify(b)));
}

function picksOf(chunks: readonly FacetChunkRef[], options: FacetSamplingOptions = {}) {
  const collector = createFacetSampleCollector(FACET_NAMES, options);
  for (const c of chunks) collector.add(c);
  return collector.picks();
}

const docOf = (id: string) => id.slice(0, id.lastIndexOf('-c'));

describe('seededHash', () => {
  it('is deterministic, depends on seed and text, and stays a safe integer', () => {
    expect(seededHash('a', 'x')).toBe(seededHash('a', 'x'));
    expect(seededHash('a', 'x')).not.toBe(seededHash('b', 'x'));
    expect(seededHash('a', 'x')).not.toBe(seededHash('a', 'y'));
    expect(Number.isSafeInteger(seededHash('지원 대상', '출산장려금'))).toBe(true);
    expect(facetSeed('section', 'x')).not.toBe(facetSeed('doc_type', 'x'));
  });
});

describe('roundRobin', () => {
  it('takes one from each list in turn until the limit', () => {
    expect(roundRobin([[1, 2, 3], [4], [5, 6]], 10)).toEqual([1, 4, 5, 2, 6, 3]);
    expect(roundRobin([[1, 2, 3], [4], [5, 6]], 4)).toEqual([1, 4, 5, 2]);
    expect(roundRobin([], 3)).toEqual([]);
  });
});

describe('createFacetSampleCollector', () => {
  const corpus = [
    ...Array.from({ length: 12 }, (_, i) => chunk('doc-a', i, i < 6 ? 'eligibility' : 'scope')),
    ...Array.from({ length: 5 }, (_, i) => chunk('doc-b', i, 'eligibility', { lang: 'ko', jurisdiction: 'KR' })),
    ...Array.from({ length: 4 }, (_, i) => chunk('doc-c', i, 'eligibility', { doc_type: 'unknown' })),
  ];

  it('finds every value of every facet with its chunk count, skipping uninformative values', () => {
    const picks = picksOf(corpus);
    expect(picks.map((p) => `${p.facet}=${p.value}:${p.chunkCount}`)).toEqual([
      'doc_type=policy:17',
      'section=eligibility:15',
      'section=scope:6',
      'jurisdiction=KR:5',
      'jurisdiction=US:16',
      'lang=en:16',
      'lang=ko:5',
    ]);
  });

  it('spreads picks evenly over documents: every document before any twice', () => {
    const eligibility = picksOf(corpus, { maxChunks: 6 }).find((p) => p.value === 'eligibility')!;
    expect(eligibility.chunkIds).toHaveLength(6);
    const perDoc = eligibility.chunkIds.map(docOf);
    expect(new Set(perDoc.slice(0, 3))).toEqual(new Set(['doc-a', 'doc-b', 'doc-c']));
    expect(perDoc.filter((d) => d === 'doc-a')).toHaveLength(2);
    // Many documents: one chunk from each of maxChunks documents.
    const wide = Array.from({ length: 40 }, (_, d) => Array.from({ length: 3 }, (_, i) => chunk(`doc-${d}`, i, 'purpose'))).flat();
    const purpose = picksOf(wide).find((p) => p.value === 'purpose')!;
    expect(purpose.chunkCount).toBe(120);
    expect(new Set(purpose.chunkIds.map(docOf)).size).toBe(10);
  });

  it('is deterministic and independent of scan order', () => {
    const base = picksOf(corpus, { maxChunks: 4 });
    for (const seed of [1, 2, 3]) expect(picksOf(shuffled(corpus, seed), { maxChunks: 4 })).toEqual(base);
    const wide = Array.from({ length: 30 }, (_, d) => Array.from({ length: 5 }, (_, i) => chunk(`doc-${d}`, i, 'purpose'))).flat();
    expect(picksOf(shuffled(wide, 7))).toEqual(picksOf(wide));
  });

  it('is seeded by facet and value: two values over the same chunks pick differently', () => {
    const same = Array.from({ length: 30 }, (_, d) => chunk(`doc-${d}`, 0, 'x', { lang: 'y' }));
    const picks = picksOf(same, { maxChunks: 5 });
    const x = picks.find((p) => p.facet === 'section')!.chunkIds;
    const y = picks.find((p) => p.facet === 'lang')!.chunkIds;
    expect(x).toHaveLength(5);
    expect(new Set(x)).not.toEqual(new Set(y));
  });
});

describe('pickSentences', () => {
  const bodies = [
    'Employees are eligible after ninety days of service. Part-time staff qualify pro rata. See section 4.',
    'An employee is eligible when the conditions are met on the first day. Both parents are separately eligible.',
    'Contractors are not eligible for paid leave under this policy.',
  ];

  it('takes sentences round-robin over bodies, at most maxSentences, repeats dropped', () => {
    const picked = pickSentences('seed', bodies, { maxSentences: 3 });
    expect(picked).toHaveLength(3);
    // One from each body before a second from any.
    expect(picked.some((s) => s.startsWith('Contractors'))).toBe(true);
    expect(pickSentences('seed', [...bodies, bodies[2]!], { maxSentences: 10 })).toHaveLength(5);
  });

  it('is deterministic and seeded', () => {
    const many = Array.from({ length: 6 }, (_, i) => `First sentence of body ${i} has words. Second sentence of body ${i} has words. Third one ${i} here too.`);
    expect(pickSentences('a', many)).toEqual(pickSentences('a', many));
    expect(pickSentences('a', many)).toHaveLength(10);
    expect(pickSentences('a', many)).not.toEqual(pickSentences('b', many));
  });

  it('prefers informative sentences, using short ones only to reach the minimum of 3', () => {
    const picked = pickSentences('s', ['Scope. Applies to all staff in every office. Yes.']);
    expect(picked[0]).toBe('Applies to all staff in every office.');
    expect(new Set(picked)).toEqual(new Set(['Scope.', 'Applies to all staff in every office.', 'Yes.']));
    const enough = pickSentences('s', ['Scope. Applies to all staff in every office. It covers contractors as well. Interns are included too.']);
    expect(enough).toHaveLength(3);
    expect(enough).not.toContain('Scope.');
    expect(pickSentences('s', ['Scope.'])).toEqual(['Scope.']);
    expect(pickSentences('s', [])).toEqual([]);
  });

  it('cuts long sentences at a word boundary and splits Korean sentences', () => {
    const long = `${'word '.repeat(100)}end.`;
    const [cut] = pickSentences('s', [long], { maxSentenceChars: 50 });
    expect(cut!.length).toBeLessThanOrEqual(51);
    expect(cut!.endsWith('…')).toBe(true);
    const ko = pickSentences('s', ['출산 장려금은 다음 요건을 모두 갖춘 가정에 지급한다. 신청은 출생일부터 1년 이내에 하여야 한다.']);
    expect(new Set(ko)).toEqual(new Set(['출산 장려금은 다음 요건을 모두 갖춘 가정에 지급한다.', '신청은 출생일부터 1년 이내에 하여야 한다.']));
  });
});
