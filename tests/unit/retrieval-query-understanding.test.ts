import { describe, expect, it } from 'vitest';
import { PermanentError } from '../../shared/errors.ts';
import { spelledOutAbbreviations } from '../../shared/retrieval/abbreviations.ts';
import { limitSearchWords } from '../../shared/retrieval/limit-words.ts';
import { keywordSearchText, resolvePeriod, understandQuery } from '../../shared/retrieval/query-understanding.ts';

const today = '2025-06-15';
const u = (q: string) => understandQuery(q, { today });

describe('understandQuery: English dates', () => {
  it.each([
    ['What was parental leave as of March 1, 2024?', '2024-03-01', 'What was parental leave?'],
    ['parental leave as of 2024-03-01', '2024-03-01', 'parental leave'],
    ['Leave rules on 1 March 2024', '2024-03-01', 'Leave rules'],
    ['leave on the 1st of March 2024', '2024-03-01', 'leave'],
    ['policy in effect on Jan 5 2024', '2024-01-05', 'policy'],
    ['policy in force as of 2024/01/05', '2024-01-05', 'policy'],
    ['Which policy was effective February 29, 2024?', '2024-02-29', 'Which policy was?'],
    ['(as of 2023-12-31) remote work rules', '2023-12-31', 'remote work rules'],
  ])('%s → %s', (q, date, stripped) => {
    const r = u(q);
    expect(r.asOf).toBe(date);
    expect(r.asOfPrecision).toBe('day');
    expect(r.stripped).toBe(stripped);
  });

  it('"as of today", "currently", "right now" mean today', () => {
    expect(u('as of today, who is eligible?')).toMatchObject({ asOf: today, stripped: 'who is eligible?' });
    expect(u('currently in effect leave policy')).toMatchObject({ asOf: today, stripped: 'leave policy' });
    expect(u('What applies right now?')).toMatchObject({ asOf: today, stripped: 'What applies?' });
  });

  it('months and years resolve to the period end, or today inside the current period', () => {
    expect(u('leave as of March 2024')).toMatchObject({ asOf: '2024-03-31', asOfPrecision: 'month', stripped: 'leave' });
    expect(u('parental leave in 2024')).toMatchObject({ asOf: '2024-12-31', asOfPrecision: 'year', stripped: 'parental leave' });
    expect(u('parental leave in 2025')).toMatchObject({ asOf: today, asOfPrecision: 'year' });
    expect(u('leave as of June 2025').asOf).toBe(today);
    expect(u('what changed last year').asOf).toBe('2024-12-31');
  });

  it('ignores impossible dates, reports them and keeps them in the text', () => {
    const r = u('as of February 30, 2024 leave');
    expect(r.asOf).toBeNull();
    expect(r.invalidDates).toEqual(['as of February 30, 2024']);
    expect(r.stripped).toBe('as of February 30, 2024 leave');
    expect(u('as of 2023-02-29 policy').asOf).toBeNull();
    expect(u('as of 2024-13-01 policy').asOf).toBeNull();
  });

  it('does not take numbers for dates', () => {
    for (const q of ['What is RFC 8446?', 'Section 2024 of the handbook', 'HR-214 policy', '16 weeks of leave']) {
      expect(u(q).asOf).toBeNull();
      expect(u(q).stripped).toBe(q);
    }
  });

  it('lists every date of a comparison, the first as asOf', () => {
    const r = u('Compare leave as of 2023-06-01 and as of 2025-02-01');
    expect(r.dates.map((d) => d.date)).toEqual(['2023-06-01', '2025-02-01']);
    expect(r.asOf).toBe('2023-06-01');
    expect(r.stripped).toBe('Compare leave and');
  });
});

describe('understandQuery: Korean dates', () => {
  it.each([
    ['2024년 3월 1일 기준 출산장려금은 얼마인가요?', '2024-03-01', '출산장려금은 얼마인가요?'],
    ['2024. 3. 1. 기준 출산 장려금', '2024-03-01', '출산 장려금'],
    ['2024.3.1 기준으로 출산 장려금', '2024-03-01', '출산 장려금'],
    ['2024-03-01 현재 재택근무 지침', '2024-03-01', '재택근무 지침'],
    ['2024년 3월 1일자 재택근무 지침', '2024-03-01', '재택근무 지침'],
    ['출산장려금 지급액 (2024년 3월 1일 기준)', '2024-03-01', '출산장려금 지급액'],
  ])('%s → %s', (q, date, stripped) => {
    const r = u(q);
    expect(r.asOf).toBe(date);
    expect(r.asOfPrecision).toBe('day');
    expect(r.stripped).toBe(stripped);
    expect(r.lang).toBe('ko');
  });

  it('"2024년 기준" is the end of 2024 (documented choice), the current year is today', () => {
    expect(u('2024년 기준 재택근무 지침')).toMatchObject({ asOf: '2024-12-31', asOfPrecision: 'year', stripped: '재택근무 지침' });
    expect(u('2024년도 기준 재택근무 지침').asOf).toBe('2024-12-31');
    expect(u('2025년 기준 출산장려금').asOf).toBe(today);
    expect(u('2024년 3월 기준 지원 대상')).toMatchObject({ asOf: '2024-03-31', asOfPrecision: 'month', stripped: '지원 대상' });
    expect(u('2024년에 출산장려금은 얼마였나요').asOf).toBe('2024-12-31');
  });

  it('relative words: 현재, 오늘, 올해, 작년', () => {
    expect(u('현재 출산장려금은 얼마?')).toMatchObject({ asOf: today, stripped: '출산장려금은 얼마?' });
    expect(u('오늘 기준 재택근무 지침').asOf).toBe(today);
    expect(u('올해 출산장려금').asOf).toBe(today);
    expect(u('작년 출산장려금').asOf).toBe('2024-12-31');
  });

  it('only real dates, and a bare date without 기준/현재 is not an as-of', () => {
    expect(u('2024년 2월 30일 기준 출산장려금').asOf).toBeNull();
    expect(u('2024년 2월 30일 기준 출산장려금').invalidDates).toHaveLength(1);
    expect(u('2024년 개정된 출산장려금').asOf).toBeNull();
  });
});

describe('understandQuery: normalisation, language, entities', () => {
  it('normalises width, control characters and spaces, keeping case', () => {
    const r = u('  ＴＬＳ\u200b  handshake\t\n');
    expect(r.normalised).toBe('TLS handshake');
    expect(r.lang).toBe('en');
  });

  it('gives Korean entities with spacing variants', () => {
    expect(u('출산 장려금 신청 대상').entities).toEqual(expect.arrayContaining(['출산 장려금', '출산장려금']));
    expect(u('출산장려금은 얼마인가요?').entities).toEqual(expect.arrayContaining(['출산장려금', '출산 장려금']));
    expect(u('근로기준법 제50조').entities).toEqual(expect.arrayContaining(['근로기준법', '제50조']));
  });

  it('takes entities from the text without its date', () => {
    expect(u('RFC 8446 as of 2024-01-01').entities).toEqual(['rfc 8446', 'rfc8446']);
  });

  it('is deterministic and refuses a bad today', () => {
    expect(u('2024년 3월 1일 기준 출산장려금')).toEqual(u('2024년 3월 1일 기준 출산장려금'));
    expect(() => understandQuery('x', { today: '2025-02-30' })).toThrow(PermanentError);
    expect(() => understandQuery('x', { today: '15/06/2025' })).toThrow(/YYYY-MM-DD/);
  });
});

describe('resolvePeriod', () => {
  it('end of a past or future period, today inside the current one', () => {
    expect(resolvePeriod(2024, 2, today)).toBe('2024-02-29');
    expect(resolvePeriod(2023, null, today)).toBe('2023-12-31');
    expect(resolvePeriod(2030, null, today)).toBe('2030-12-31');
    expect(resolvePeriod(2025, 6, today)).toBe(today);
    expect(resolvePeriod(2024, 13, today)).toBeNull();
  });
});

describe('keywordSearchText', () => {
  it('adds the other spelling of Korean compounds, nothing else', () => {
    expect(keywordSearchText(u('출산장려금은 얼마인가요?'))).toBe('출산장려금은 얼마인가요? 출산 장려금');
    expect(keywordSearchText(u('2024년 기준 출산 장려금'))).toBe('출산 장려금 출산장려금');
    expect(keywordSearchText(u('parental leave as of 2024-01-01'))).toBe('parental leave');
    expect(keywordSearchText(u('RFC 8446'))).toBe('RFC 8446');
  });

  it("adds what a question's abbreviations stand for, once, unless it says so already", () => {
    expect(keywordSearchText(u("What was Intel's R&D expenditure in Q1 2023?"))).toBe("What was Intel's R&D expenditure in Q1 2023? research and development");
    expect(keywordSearchText(u('Who is the CFO and what did the CFO say about capex?'))).toBe('Who is the CFO and what did the CFO say about capex? chief financial officer capital expenditures');
    expect(keywordSearchText(u('EPS (earnings per share) guidance'))).toBe('EPS (earnings per share) guidance');
    // Letters inside a word are no abbreviation: "said", "fair", "fix".
    expect(spelledOutAbbreviations('What did the chair say about the fix in fair value?')).toEqual([]);
  });

  it('adds the words a rule states an asked maximum with', () => {
    expect(keywordSearchText(u('What is the maximum size of a TLS record?'))).toBe('What is the maximum size of a TLS record? exceed exceeds greater');
    expect(keywordSearchText(u('연장근로 최대 시간은?'))).toContain('한도 초과');
    expect(keywordSearchText(u('What is the minimum password length?'))).toBe('What is the minimum password length?');
    expect(limitSearchWords('Can the fee exceed the maximum?')).toEqual(['exceeds', 'greater']);
  });
});
