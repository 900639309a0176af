import { describe, expect, it } from 'vitest';
import { formatFacetValues, formatRebuildResult, formatWeights, parseFacetName, parseFacetTarget } from '../../apps/cli/commands/facets.ts';
import { FacetRebuildPayload, facetRebuildDedupId, facetRebuildQueue, facetsOf } from '../../queues/facets.queues.ts';
import { toFacetValueRows } from '../../shared/facets/facet-vectors.ts';
import { facetRebuildStage } from '../../workers/facet-rebuild/facet-rebuild.stage.ts';

const bodies = [
  'An employee is eligible for paid parental leave when all conditions are met. The employee has completed ninety days of service. The employee works at least twenty hours per week.',
  'Employees on a fixed-term contract are eligible when the contract runs past the end of the leave. Interns are not eligible.',
  'Both parents are separately eligible for the full entitlement.',
];

describe('facetRebuildStage', () => {
  const samples = [
    { facet: 'section' as const, value: 'eligibility', chunkCount: 12, bodies },
    { facet: 'lang' as const, value: 'en', chunkCount: 40, bodies: bodies.slice(2) },
  ];

  it('turns each value and its sampled bodies into one text, in order, carrying the chunk count', () => {
    const texts = facetRebuildStage(samples);
    expect(texts.map((t) => [t.facet, t.value, t.sampleCount])).toEqual([
      ['section', 'eligibility', 12],
      ['lang', 'en', 40],
    ]);
    const [eligibility] = texts;
    expect(eligibility!.text.startsWith('section: eligibility\nThis is a section label meaning eligibility criteria')).toBe(true);
    expect(eligibility!.sentences.length).toBeGreaterThanOrEqual(3);
    expect(eligibility!.sentences.length).toBeLessThanOrEqual(10);
    for (const s of eligibility!.sentences) expect(eligibility!.text).toContain(s);
    // Only one sentence exists for `en`: it is all there is to quote.
    expect(texts[1]!.sentences).toEqual(['Both parents are separately eligible for the full entitlement.']);
  });

  it('is deterministic', () => {
    expect(facetRebuildStage(samples)).toEqual(facetRebuildStage(structuredClone(samples)));
  });

  it('rows pair texts with vectors and refuse a mismatch', () => {
    const texts = facetRebuildStage(samples);
    const rows = toFacetValueRows(texts, [new Float32Array([1, 0]), new Float32Array([0, 1])], '2025-01-01T00:00:00.000Z');
    expect(rows[0]).toMatchObject({ facet: 'section', value: 'eligibility', sample_count: 12, aliases: ['Eligibility'], updated_at: '2025-01-01T00:00:00.000Z' });
    expect(rows[0]!.description).toBe(texts[0]!.description);
    expect(() => toFacetValueRows(texts, [new Float32Array([1, 0])], '2025-01-01T00:00:00.000Z')).toThrow(/2 facet texts but 1 vectors/);
  });
});

describe('facet-rebuild queue', () => {
  it('validates payloads and names jobs without ":"', () => {
    expect(FacetRebuildPayload.parse({ facet: 'all', requestedAt: 1 })).toEqual({ facet: 'all', requestedAt: 1 });
    expect(FacetRebuildPayload.safeParse({ facet: 'color', requestedAt: 1 }).success).toBe(false);
    expect(FacetRebuildPayload.safeParse({ facet: 'section', requestedAt: -1 }).success).toBe(false);
    expect(facetRebuildQueue.jobId({ facet: 'section', requestedAt: 1700000000000 })).toBe('facet-rebuild-section-1700000000000');
    expect(facetRebuildDedupId('all')).toBe('facet-rebuild-all');
    expect(facetsOf('all')).toEqual(['doc_type', 'section', 'jurisdiction', 'lang']);
    expect(facetsOf('lang')).toEqual(['lang']);
  });
});

describe('quarry facets output', () => {
  it('parses --facet', () => {
    expect(parseFacetTarget('all')).toBe('all');
    expect(parseFacetTarget('section')).toBe('section');
    expect(() => parseFacetTarget('colour')).toThrow('unknown facet colour; known: doc_type, section, jurisdiction, lang, all');
    expect(parseFacetName(undefined)).toBeUndefined();
    expect(parseFacetName('all')).toBeUndefined();
    expect(parseFacetName('lang')).toBe('lang');
    expect(() => parseFacetName('x')).toThrow(/unknown facet x/);
  });

  it('prints per-facet value counts after a rebuild', () => {
    const out = formatRebuildResult({
      facets: [
        { facet: 'doc_type', values: 5, removed: 0 },
        { facet: 'section', values: 58, removed: 2 },
        { facet: 'lang', values: 1, removed: 0 },
      ],
      embedded: 60,
      cached: 4,
      index: { vectorIndex: 'built', reason: '25000 chunks ≥ 20000: index the vectors', seconds: 12.5 },
    });
    expect(out).toBe(
      [
        'doc_type      5 values',
        'section      58 values  (2 stale removed)',
        'lang          1 value',
        '60 text(s) embedded, 4 from cache',
        'vector index: built (25000 chunks ≥ 20000: index the vectors; 12.5 s)',
      ].join('\n'),
    );
  });

  it('lists stored values and weights', () => {
    const row = { facet: 'section' as const, value: '지원 대상', aliases: ['지원대상'], description: 'd', sample_count: 7, updated_at: '2025-01-02T03:04:05.000Z', vector: [1] };
    const out = formatFacetValues([row, { ...row, facet: 'lang', value: 'ko', aliases: [] }]).split('\n');
    expect(out[0]).toMatch(/^facet\s+value\s+chunks\s+updated\s+aliases$/);
    expect(out[1]).toMatch(/^section\s+지원 대상\s+7\s+2025-01-02T03:04:05\s+지원대상$/);
    expect(out.at(-1)).toBe('1 section, 1 lang');
    expect(formatFacetValues([])).toMatch(/^no facet values/);
    expect(formatWeights({ doc_type: {}, section: { scope: 0.2, eligibility: 0.7 }, jurisdiction: {}, lang: { ko: 1 } })).toBe(
      'doc_type: —\nsection: eligibility=0.700, scope=0.200\njurisdiction: —\nlang: ko=1.000',
    );
  });
});
