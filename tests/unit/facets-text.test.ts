import { describe, expect, it } from 'vitest';
import { composeFacetText, describeFacetValue, facetAliases, facetValueText, sectionConcept } from '../../shared/facets/facet-text.ts';

describe('sectionConcept', () => {
  it('recognises kinds of sections by English or Korean heading words, spacing-free in Korean', () => {
    const meaning = (v: string) => sectionConcept(v)?.en.split(':')[0] ?? null;
    expect(meaning('eligibility')).toBe('eligibility criteria');
    expect(meaning('Eligibility for remote work')).toBe('eligibility criteria');
    expect(meaning('Pay and benefits during leave')).toBe('benefit amounts and entitlements');
    expect(meaning('Remote and hybrid work')).toBe('working arrangements');
    expect(meaning('지원 대상')).toBe('eligibility criteria');
    expect(meaning('지원대상')).toBe('eligibility criteria');
    expect(meaning('지급 대상')).toBe('eligibility criteria');
    // Head-final headings: "재택근무 대상" is about who may work remotely.
    expect(meaning('재택근무 대상')).toBe('eligibility criteria');
    expect(meaning('용어의 정의')).toBe('definitions of terms');
    expect(meaning('definitions')).toBe('definitions of terms');
    expect(meaning('신청 방법')).toBe('how to apply');
    expect(meaning('지원 금액')).toBe('benefit amounts and entitlements');
    expect(meaning('지원의 제한 및 환수')).toBe('restrictions and exceptions');
    expect(meaning('부칙')).toBe('effective date and transitional provisions');
    expect(meaning('envelope')).toBeNull();
    expect(meaning('출산장려금')).toBeNull();
  });
});

describe('describeFacetValue', () => {
  it('types a section label with its meaning (seed 000 §5.2), in both languages', () => {
    const en = describeFacetValue('section', 'eligibility');
    expect(en).toMatch(/^This is a section label meaning eligibility criteria: who is eligible/);
    expect(en).toContain('지원 대상');
    const ko = describeFacetValue('section', '지원 대상');
    expect(ko).toMatch(/^이것은 "지원 대상"\(이\)라는 절\(섹션\) 제목입니다\. 뜻: 지원 대상과 자격 요건/);
    expect(ko).toContain('This is a section label meaning eligibility criteria');
  });

  it('describes unknown values by their own words, Korean ones in Korean too', () => {
    expect(describeFacetValue('section', 'Envelope')).toBe('This is a section label meaning "Envelope": passages under a heading titled "Envelope".');
    expect(describeFacetValue('section', '출산장려금')).toBe(
      '이것은 "출산장려금"(이)라는 절(섹션) 제목입니다. 뜻: "출산장려금"에 관한 조항과 설명. This is a section label meaning "출산장려금".',
    );
    expect(describeFacetValue('doc_type', 'memo')).toBe('This is a document type label meaning "memo" documents.');
  });

  it('knows document types, jurisdictions and languages', () => {
    expect(describeFacetValue('doc_type', 'law')).toMatch(/^This is a document type label meaning laws, acts and statutes.*법률/);
    expect(describeFacetValue('doc_type', 'FAQ')).toContain('frequently asked questions');
    expect(describeFacetValue('jurisdiction', 'KR')).toMatch(/Republic of Korea, South Korea.*대한민국/);
    expect(describeFacetValue('jurisdiction', 'eu')).toContain('European Union');
    expect(describeFacetValue('lang', 'ko')).toBe('This is a language label meaning documents written in Korean (한국어). (언어: 한국어)');
    expect(describeFacetValue('lang', 'en')).toContain('English');
  });

  it('is deterministic', () => {
    expect(describeFacetValue('section', '신청 방법')).toBe(describeFacetValue('section', '신청 방법'));
  });
});

describe('facetAliases', () => {
  it('adds spacing variants of Korean values and case variants of Latin ones, never the value itself', () => {
    expect(facetAliases('section', '지원 대상')).toEqual(['지원대상']);
    expect(facetAliases('section', '출산장려금')).toEqual(['출산 장려금']);
    expect(facetAliases('section', 'eligibility')).toEqual(['Eligibility']);
    expect(facetAliases('section', 'Leave Entitlement')).toEqual(['leave entitlement']);
    expect(facetAliases('section', 'e-mail')).toEqual(['email', 'e mail', 'E-Mail']);
    expect(facetAliases('section', 'eligibility for remote work')).toEqual(['Eligibility for Remote Work']);
    expect(facetAliases('jurisdiction', 'eu')).toContain('EU');
  });

  it('adds names of known document types, jurisdictions and languages', () => {
    expect(facetAliases('doc_type', 'law')).toEqual(['Law', 'LAW', 'act', 'statute', 'legislation', '법률', '법령', '법']);
    expect(facetAliases('jurisdiction', 'KR')).toEqual(['kr', 'Kr', 'Republic of Korea', 'South Korea', 'Korea', '대한민국', '한국']);
    expect(facetAliases('lang', 'ko')).toEqual(['Ko', 'KO', 'Korean', '한국어']);
  });

  it('keeps at most 16', () => {
    expect(facetAliases('section', 'a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r').length).toBeLessThanOrEqual(16);
  });
});

describe('facet text', () => {
  it('puts label, description, aliases and sentences on their own lines', () => {
    expect(composeFacetText({ facet: 'section', value: 'scope', description: 'D.', aliases: ['Scope'], sentences: ['One.', 'Two.'] })).toBe(
      'section: scope\nD.\nAlso written: Scope\nExamples:\nOne.\nTwo.',
    );
    expect(composeFacetText({ facet: 'lang', value: 'xx', description: 'D.', aliases: [], sentences: [] })).toBe('lang: xx\nD.');
  });

  it('facetValueText assembles every part', () => {
    const t = facetValueText('section', '지원 대상', ['출산 장려금은 다음 요건을 모두 갖춘 가정에 지급한다.']);
    expect(t.aliases).toEqual(['지원대상']);
    expect(t.text.split('\n')).toEqual([
      'section: 지원 대상',
      t.description,
      'Also written: 지원대상',
      'Examples:',
      '출산 장려금은 다음 요건을 모두 갖춘 가정에 지급한다.',
    ]);
  });
});
