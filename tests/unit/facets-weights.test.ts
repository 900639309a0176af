import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../shared/embed/hash-embedder.ts';
import { PermanentError } from '../../shared/errors.ts';
import { cosineToWeight, facetWeights } from '../../shared/facets/facet-weights.ts';
import { cosine } from '../../shared/vector-math.ts';
import type { FacetName, FacetValueVector } from '../../shared/store/facet-values.ts';
import { facetRebuildStage } from '../../workers/facet-rebuild/facet-rebuild.stage.ts';

function row(facet: FacetName, value: string, vector: number[]): FacetValueVector {
  return { facet, value, aliases: [], description: '', sample_count: 1, updated_at: '2025-01-01T00:00:00.000Z', vector };
}

describe('cosineToWeight', () => {
  it('maps (minCos, 1] linearly onto (0, 1] and everything else to 0', () => {
    expect(cosineToWeight(0.5)).toBe(0.5);
    expect(cosineToWeight(1)).toBe(1);
    expect(cosineToWeight(0)).toBe(0);
    expect(cosineToWeight(-0.3)).toBe(0);
    expect(cosineToWeight(0.6, 0.2)).toBeCloseTo(0.5, 12);
    expect(cosineToWeight(0.2, 0.2)).toBe(0);
    expect(cosineToWeight(1.0000001)).toBe(1);
    expect(cosineToWeight(Number.NaN)).toBe(0);
  });
});

describe('facetWeights', () => {
  const q = [1, 0, 0];
  const rows = [
    row('section', 'eligibility', [0.9, Math.sqrt(1 - 0.81), 0]), // cos 0.9
    row('section', 'definitions', [0.5, Math.sqrt(0.75), 0]), // cos 0.5
    row('section', 'scope', [0.3, 0, Math.sqrt(0.91)]), // cos 0.3
    row('section', 'annex', [-1, 0, 0]), // cos -1
    row('doc_type', 'law', [2, 0, 0]), // cos 1 (not unit length: cosine, not dot)
    row('doc_type', 'faq', [0, 1, 0]), // cos 0
    row('lang', 'ko', [0.5, Math.sqrt(0.75), 0]),
    row('lang', 'en', [0.5, 0, Math.sqrt(0.75)]), // ties with ko
  ];

  it('keeps the top M per facet, every facet present, weights in [0, 1]', () => {
    const w = facetWeights(q, rows);
    expect(Object.keys(w).sort()).toEqual(['doc_type', 'jurisdiction', 'lang', 'section']);
    expect(w.section).toEqual({ eligibility: expect.closeTo(0.9, 9) as number, definitions: expect.closeTo(0.5, 9) as number });
    expect(w.doc_type).toEqual({ law: expect.closeTo(1, 9) as number });
    expect(w.jurisdiction).toEqual({});
    for (const facet of Object.values(w)) for (const weight of Object.values(facet)) expect(weight >= 0 && weight <= 1).toBe(true);
  });

  it('breaks ties by value, honours topPerFacet and minCos', () => {
    expect(Object.keys(facetWeights(q, rows, { topPerFacet: 1 }).lang)).toEqual(['en']);
    expect(Object.keys(facetWeights(q, rows, { topPerFacet: 3 }).section)).toEqual(['eligibility', 'definitions', 'scope']);
    const strict = facetWeights(q, rows, { topPerFacet: 5, minCos: 0.4 });
    expect(Object.keys(strict.section)).toEqual(['eligibility', 'definitions']);
    expect(strict.section.eligibility).toBeCloseTo((0.9 - 0.4) / 0.6, 9);
    expect(facetWeights(q, rows, { topPerFacet: 0 }).section).toEqual({});
    expect(facetWeights(q, [])).toEqual({ doc_type: {}, section: {}, jurisdiction: {}, lang: {} });
  });

  it('is pure and deterministic: same inputs, same output; row order does not matter', () => {
    expect(facetWeights(q, [...rows].reverse())).toEqual(facetWeights(q, rows));
  });

  it('refuses mismatched dimensions and bad options', () => {
    expect(() => facetWeights([1, 0], rows)).toThrow(PermanentError);
    expect(() => facetWeights(q, rows, { topPerFacet: -1 })).toThrow(/topPerFacet/);
    expect(() => facetWeights(q, rows, { minCos: 1 })).toThrow(/minCos/);
  });

  it('the cosine is 0 for a zero vector', () => {
    expect(cosine([0, 0], [1, 0])).toBe(0);
    expect(cosine([3, 4], [3, 4])).toBeCloseTo(1, 12);
  });
});

describe('facet weights with the real hash embedder', () => {
  // A small fixed set, built by the real stage from passages like the example corpus's.
  const samples: { facet: FacetName; value: string; bodies: string[] }[] = [
    { facet: 'section', value: 'eligibility', bodies: ['An employee is eligible for paid parental leave when all of the following conditions are met on the first day of leave. The employee has completed at least ninety days of continuous service with the company.'] },
    { facet: 'section', value: 'leave entitlement', bodies: ['Eligible employees receive sixteen weeks of paid parental leave per qualifying event, paid at 100% of base pay. Leave may be taken in up to three blocks.'] },
    { facet: 'section', value: 'definitions', bodies: ['In this policy, a qualifying event means the birth of a child or the placement of a child for adoption or foster care. Base pay means the regular salary.'] },
    { facet: 'section', value: 'how to request leave', bodies: ['Employees apply through the HR portal at least thirty days before leave begins. Upload a birth certificate within thirty days after the event.'] },
    { facet: 'section', value: 'retention schedule', bodies: ['Personnel files are kept for two years after employment ends. Payroll records are kept for seven years.'] },
    { facet: 'section', value: '지원 대상', bodies: ['출산 장려금은 다음 요건을 모두 갖춘 가정에 지급한다. 부 또는 모가 6개월 이상 계속하여 한빛시에 주민등록을 두고 실제로 거주하고 있을 것.'] },
    { facet: 'section', value: '신청 방법', bodies: ['출산장려금을 받으려는 사람은 출생일부터 1년 이내에 행정복지센터에 신청하여야 한다. 신청서와 통장 사본을 제출한다.'] },
    { facet: 'section', value: '용어의 정의', bodies: ['“출산장려금”이란 출산을 장려하기 위하여 출산한 가정에 지급하는 현금을 말한다. “양육자”란 영아를 실제로 기르는 사람을 말한다.'] },
    { facet: 'section', value: '지원 금액', bodies: ['첫째 자녀는 200만원, 둘째 자녀는 500만원을 지급한다. 셋째 이상은 1,000만원을 나누어 지급한다.'] },
    { facet: 'doc_type', value: 'policy', bodies: ['Eligible employees receive sixteen weeks of paid parental leave.'] },
    { facet: 'doc_type', value: 'law', bodies: ['지방자치단체의 장은 출산한 가정에 출산 장려금을 지급할 수 있다.'] },
    { facet: 'lang', value: 'en', bodies: ['Employees apply through the HR portal.'] },
    { facet: 'lang', value: 'ko', bodies: ['출산 장려금은 다음 요건을 모두 갖춘 가정에 지급한다.'] },
  ];

  async function build(): Promise<{ rows: FacetValueVector[]; embed: (q: string) => Promise<Float32Array> }> {
    const embedder = createHashEmbedder({ dimension: 512 });
    const texts = facetRebuildStage(samples.map((s) => ({ ...s, chunkCount: 1 })));
    const vectors = await embedder.embed(texts.map((t) => t.text));
    const rows = texts.map((t, i) => ({ ...row(t.facet, t.value, []), vector: vectors[i]! }));
    return { rows, embed: async (q) => (await embedder.embed([q]))[0]! };
  }

  const best = (weights: Record<string, number>) => Object.entries(weights).sort((a, b) => b[1] - a[1])[0]?.[0];

  it('an eligibility question weights section=eligibility highest (English)', async () => {
    const { rows, embed } = await build();
    const w = facetWeights(await embed('Who is eligible? What are the eligibility requirements?'), rows);
    expect(best(w.section)).toBe('eligibility');
    expect(Object.keys(w.section)).toHaveLength(2);
    expect(best(w.lang)).toBe('en');
  });

  it('an eligibility question weights section=지원 대상 highest (Korean, spacing-free)', async () => {
    const { rows, embed } = await build();
    for (const query of ['지원 대상은 누구인가요?', '출산장려금은 누가 받을 수 있나요?', '지원대상 요건']) {
      const w = facetWeights(await embed(query), rows);
      expect(best(w.section)).toBe('지원 대상');
    }
  });
});
