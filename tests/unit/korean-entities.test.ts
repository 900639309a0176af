import { describe, expect, it } from 'vitest';
import { extractEntities } from '../../shared/enrich/entities.ts';
import { canonicalTerm, koreanNounPhrases, spacingVariants, stripParticle } from '../../shared/enrich/korean.ts';
import { findReferences } from '../../shared/enrich/references.ts';

describe('spacingVariants', () => {
  it('joins spaced Korean phrases and splits known compounds, both ways', () => {
    expect(spacingVariants('출산 장려금')).toEqual(['출산 장려금', '출산장려금']);
    expect(spacingVariants('출산장려금')).toEqual(['출산장려금', '출산 장려금']);
    expect(spacingVariants('육아휴직급여')).toEqual(['육아휴직급여', '육아휴직 급여']);
    expect(spacingVariants('연장근로수당')).toEqual(['연장근로수당', '연장근로 수당']);
  });

  it('shares the joined form between spellings (the query-side match key)', () => {
    const a = spacingVariants('출산  장려금 ');
    const b = spacingVariants('출산장려금');
    expect(a.filter((v) => b.includes(v)).sort()).toEqual(['출산 장려금', '출산장려금']);
  });

  it('does not invent splits for compounds without a known head noun', () => {
    expect(spacingVariants('근로기준법')).toEqual(['근로기준법']);
    expect(spacingVariants('근로자')).toEqual(['근로자']);
  });

  it('spaces and joins Korean references', () => {
    expect(spacingVariants('제2조제1항')).toEqual(['제2조제1항', '제2조 제1항']);
    expect(spacingVariants('제2조 제1항')).toEqual(['제2조 제1항', '제2조제1항']);
  });

  it('handles Latin references and hyphens', () => {
    expect(spacingVariants('RFC 8446')).toEqual(['rfc 8446', 'rfc8446']);
    expect(spacingVariants('§3')).toEqual(['§3', '§ 3']);
    expect(spacingVariants('e-mail')).toEqual(['e-mail', 'email', 'e mail']);
    expect(spacingVariants('Article 5')).toEqual(['article 5']);
    expect(spacingVariants('  ')).toEqual([]);
  });
});

describe('canonicalTerm', () => {
  it('folds width, case, spacing and surrounding punctuation', () => {
    expect(canonicalTerm('ＴＬＳ')).toBe('tls');
    expect(canonicalTerm('  "Transport   Layer Security" ')).toBe('transport layer security');
    expect(canonicalTerm('「근로자」')).toBe('근로자');
    expect(canonicalTerm('Article 5(1)')).toBe('article 5(1)');
    expect(canonicalTerm('(Company)')).toBe('company');
    expect(canonicalTerm('일ㆍ가정')).toBe('일·가정');
  });
});

describe('stripParticle', () => {
  it.each([
    ['출산장려금을', '출산장려금'],
    ['근로자는', '근로자'],
    ['근로자가', '근로자'],
    ['사용자의', '사용자'],
    ['사업장에서', '사업장'],
    ['사업장에서는', '사업장'],
    ['근로자에게', '근로자'],
    ['고용노동부장관으로부터', '고용노동부장관'],
    ['임금과', '임금'],
    ['휴가까지', '휴가'],
    ['근로자인', '근로자'],
    ['뜻은', '뜻'],
  ])('%s → %s', (word, stem) => {
    expect(stripParticle(word).stem).toBe(stem);
  });

  it.each(['국가', '정의', '평가', '재평가', '출산휴가', '근로', '대리인', '제도', '결과', '사이'])('keeps the noun %s whole', (word) => {
    expect(stripParticle(word).stem).toBe(word);
  });
});

describe('koreanNounPhrases', () => {
  it('strips particles and builds compounds of adjacent nouns', () => {
    const phrases = koreanNounPhrases('사용자는 근로자에게 출산 장려금을 지급하여야 한다.');
    expect(phrases).toEqual(['사용자', '근로자', '출산', '장려금', '출산 장려금']);
  });

  it('builds two- and three-noun compounds but stops at particles and punctuation', () => {
    const phrases = koreanNounPhrases('육아 휴직 급여 신청서는 "근로자"가 제출한다.');
    expect(phrases).toContain('육아 휴직');
    expect(phrases).toContain('휴직 급여');
    expect(phrases).toContain('육아 휴직 급여');
    expect(phrases).toContain('휴직 급여 신청서');
    expect(phrases).not.toContain('육아 휴직 급여 신청서');
    expect(phrases).toContain('근로자');
    expect(phrases.some((p) => p.includes('제출'))).toBe(false);
  });

  it('drops predicates, adverbs and stop words', () => {
    const phrases = koreanNounPhrases('다만, 필요한 경우에는 신속하게 처리되는 것으로 본다.');
    expect(phrases).toEqual([]);
  });
});

describe('extractEntities — Korean', () => {
  it('carries both spellings of "출산 장려금" whichever one the chunk uses', () => {
    for (const body of ['회사는 출산 장려금을 지급한다.', '회사는 출산장려금을 지급한다.']) {
      const entities = extractEntities(body);
      expect(entities).toContain('출산 장려금');
      expect(entities).toContain('출산장려금');
    }
  });

  it('finds article references, with and without spacing', () => {
    const entities = extractEntities('제2조제1항에 따른 근로자는 제50조 및 제43조의2에 따라 보호된다.');
    expect(entities).toEqual(expect.arrayContaining(['제2조제1항', '제2조 제1항', '제2조', '제50조', '제43조의2']));
  });

  it('finds law names and law + article pairs', () => {
    const entities = extractEntities('근로기준법 제50조와 같은 법 시행령, 근로기준법 시행령 제3조 및 「남녀고용평등과 일ㆍ가정 양립 지원에 관한 법률」을 따른다. 해결 방법은 없다.');
    expect(entities).toEqual(expect.arrayContaining(['근로기준법', '근로기준법 제50조', '근로기준법 시행령', '남녀고용평등과 일·가정 양립 지원에 관한 법률']));
    const laws = findReferences('해결방법과 불법 행위, 대통령령으로 정하는 명령 및 민법과 헌법').filter((f) => f.kind === 'law').map((f) => f.term);
    expect(laws).toEqual(['민법', '헌법']);
  });

  it('finds defined terms', () => {
    const entities = extractEntities('"근로자"란 임금을 목적으로 근로를 제공하는 사람을 말한다. 사업주(이하 "사용자"라 한다)는 「취업규칙」을 작성한다. ‘통상임금’이란 …');
    expect(entities).toEqual(expect.arrayContaining(['근로자', '사용자', '취업규칙', '통상임금']));
  });

  it('ranks references and defined terms ahead of plain nouns, and caps', () => {
    const text = `제17조에 따른 ${Array.from({ length: 60 }, (_, i) => `항목${String.fromCharCode(0xac00 + i * 28)}명칭`).join(' 및 ')}을 둔다.`;
    const entities = extractEntities(text, { maxEntities: 10 });
    expect(entities[0]).toBe('제17조');
    expect(entities.length).toBeLessThanOrEqual(10);
    expect(extractEntities(text).length).toBeLessThanOrEqual(40);
  });
});
