import { describe, expect, it } from 'vitest';
import { detectIntent, mergeFacetWeights, planQuery } from '../../shared/retrieval/planner.ts';
import { understandQuery } from '../../shared/retrieval/query-understanding.ts';

const plan = (q: string) => planQuery(understandQuery(q, { today: '2025-06-15' }));

describe('planner: intent', () => {
  it.each([
    ['What does "qualifying event" mean?', 'definition'],
    ['출산장려금의 정의', 'definition'],
    ['양육지원서비스란 무엇인가요?', 'definition'],
    ['Who is eligible for parental leave?', 'eligibility'],
    ['출산장려금 지원 대상은 누구인가요?', 'eligibility'],
    ['How much parental leave do I get?', 'amount'],
    ['출산장려금은 얼마인가요?', 'amount'],
    ['How do I request remote work?', 'procedure'],
    ['재택근무 신청 방법', 'procedure'],
    ['What is the deadline to apply for remote work?', 'deadline'],
    ['출산장려금 신청 기한은 언제까지인가요?', 'deadline'],
    ['difference between the 2023 and 2025 parental leave policy', 'comparison'],
    ['개정 전후 출산장려금 차이', 'comparison'],
    ['근로기준법 제50조', 'lookup'],
    ['RFC 8446', 'lookup'],
    ['parental leave', 'lookup'],
    ['tell me something interesting about the company history and culture', 'general'],
  ])('%s → %s', (q, intent) => {
    expect(plan(q).intent).toBe(intent);
  });

  it('names the cues it used and prefers the more specific intent on a tie', () => {
    expect(detectIntent('How much parental leave do I get?')?.cues).toEqual(['how much']);
    // "apply" (procedure, weak) and "deadline" (strong) → deadline; comparison wins ties.
    expect(detectIntent('deadline to apply')?.intent).toBe('deadline');
    expect(detectIntent('compare the amount')?.intent).toBe('comparison');
    expect(detectIntent('nothing to see')).toBeNull();
  });

  it('matches English cues on word boundaries only', () => {
    expect(detectIntent('the format of the report')).toBeNull();
    expect(detectIntent('whenever possible')).toBeNull();
  });
});

describe('planner: alpha', () => {
  it.each([
    ['What does "qualifying event" mean?', 0.25, 'quoted'],
    ['근로기준법 제50조', 0.25, 'law-reference'],
    ['What does Article 5 say about retention?', 0.25, 'law-reference'],
    ['RFC 8446', 0.25, 'law-reference'],
    ['GDPR retention', 0.25, 'identifier'],
    ['HR-214 scope', 0.25, 'identifier'],
    ['출산 장려금', 0.25, 'short-exact'],
    ['출산장려금', 0.25, 'short-exact'],
    ['parental leave policy', 0.25, 'short-exact'],
    ['How much parental leave do I get after adopting a child?', 0.6, 'natural-language'],
    ['출산장려금은 얼마인가요?', 0.6, 'natural-language'],
    ['employees working remotely from another country need approval from security team', 0.6, 'natural-language'],
    ['remote work equipment stipend amount', 0.5, 'default'],
  ])('%s → %d (%s)', (q, alpha, reason) => {
    const p = plan(q);
    expect(p.alpha).toBe(alpha);
    expect(p.alphaReason).toBe(reason);
  });

  it('takes its levels from options', () => {
    const p = planQuery({ stripped: 'How do I apply?', lang: 'en', entities: [] }, { highAlpha: 0.7, lowAlpha: 0.2, defaultAlpha: 0.45 });
    expect(p.alpha).toBe(0.7);
    expect(planQuery({ stripped: 'leave', lang: 'en', entities: [] }, { lowAlpha: 0.2 }).alpha).toBe(0.2);
  });

  it('spaced and unspaced Korean compounds plan alike', () => {
    const a = plan('출산 장려금');
    const b = plan('출산장려금');
    expect(a.alpha).toBe(b.alpha);
    expect(a.intent).toBe(b.intent);
    expect(a.facetHypotheses).toEqual(b.facetHypotheses);
  });
});

describe('planner: facet hypotheses', () => {
  it('law for Korean article references and law names, standard for RFC', () => {
    expect(plan('근로기준법 제50조').facetHypotheses).toEqual({ doc_type: { law: 0.6 }, jurisdiction: { KR: 0.3 }, lang: { ko: 0.5 } });
    expect(plan('제2조 정의').facetHypotheses.doc_type).toEqual({ law: 0.6 });
    expect(plan('RFC 8446').facetHypotheses.doc_type).toEqual({ standard: 0.8 });
  });

  it('doc types and jurisdictions named in the question', () => {
    const p = plan('What does the EU data retention policy say?');
    expect(p.facetHypotheses.doc_type).toEqual({ policy: 0.8 });
    expect(p.facetHypotheses.jurisdiction).toEqual({ EU: 0.6 });
    expect(plan('재택근무 지침').facetHypotheses.doc_type).toEqual({ guideline: 0.8 });
    expect(plan('출산 지원 법률 FAQ').facetHypotheses.doc_type).toEqual({ law: 0.8, faq: 0.8 });
  });

  it('"us" the pronoun is not the US', () => {
    expect(plan('tell us about leave').facetHypotheses.jurisdiction).toBeUndefined();
    expect(plan('leave in the US').facetHypotheses.jurisdiction).toEqual({ US: 0.6 });
  });

  it('the question language', () => {
    expect(plan('parental leave').facetHypotheses.lang).toEqual({ en: 0.5 });
    expect(plan('2024').facetHypotheses.lang).toBeUndefined();
  });

  it('mergeFacetWeights keeps the larger weight', () => {
    expect(mergeFacetWeights({ doc_type: { law: 0.6 } }, { doc_type: { law: 0.82, faq: 0.1 }, section: { eligibility: 0.77 } })).toEqual({
      doc_type: { law: 0.82, faq: 0.1 },
      section: { eligibility: 0.77 },
    });
  });
});
