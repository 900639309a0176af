import { describe, expect, it } from 'vitest';
import { findValidityDates, isoDate, parseDate } from '../../shared/enrich/dates.ts';

describe('parseDate', () => {
  it.each([
    ['2025. 2. 23.', '2025-02-23'],
    ['2025.02.23', '2025-02-23'],
    ['2025년 2월 23일', '2025-02-23'],
    ['2025-02-23', '2025-02-23'],
    ['2025/2/3', '2025-02-03'],
    ['February 23, 2025', '2025-02-23'],
    ['Feb. 23 2025', '2025-02-23'],
    ['Sept 1st, 2024', '2024-09-01'],
    ['1 March 2024', '2024-03-01'],
    ['23rd February, 2025', '2025-02-23'],
  ])('%s → %s', (text, iso) => {
    expect(parseDate(text)).toBe(iso);
  });

  it.each(['2025. 2. 30.', '2023-02-29', '2025-13-01', '2025년 4월 31일', 'February 30, 2025', '1850-01-01', '02/03/2025', 'soon'])('rejects %s', (text) => {
    expect(parseDate(text)).toBeNull();
  });

  it('knows leap years', () => {
    expect(isoDate(2024, 2, 29)).toBe('2024-02-29');
    expect(isoDate(2100, 2, 29)).toBeNull();
    expect(isoDate(2000, 2, 29)).toBe('2000-02-29');
  });
});

describe('findValidityDates — Korean', () => {
  it('takes the 시행 date of a statute header, not the promulgation date', () => {
    const text = '근로기준법\n[시행 2025. 2. 23.] [법률 제20520호, 2024. 10. 22., 일부개정]\n고용노동부 (근로기준정책과) 044-202-7534';
    expect(findValidityDates(text)).toEqual({ validFrom: '2025-02-23', validTo: null });
  });

  it('lets the header win over 부칙 lines later in the text', () => {
    const text = '[시행 2025. 2. 23.] [법률 제20520호, 2024. 10. 22., 일부개정]\n…본문…\n부칙 <제18176호, 2021. 5. 18.>\n이 법은 2021년 11월 19일부터 시행한다.';
    expect(findValidityDates(text).validFrom).toBe('2025-02-23');
  });

  it('reads 시행일 lines', () => {
    expect(findValidityDates('시행일: 2025년 2월 23일').validFrom).toBe('2025-02-23');
    expect(findValidityDates('시행일자 : 2024. 7. 1.').validFrom).toBe('2024-07-01');
  });

  it('reads 부칙 "…부터 시행한다", taking the latest amendment', () => {
    const text = '부칙 <제1호>\n이 법은 2019. 1. 15.부터 시행한다.\n부칙 <제2호>\n이 법은 2023년 5월 1일부터 시행한다.\n부칙 <제3호>\n이 규정은 2021. 3. 2.부터 시행한다.';
    expect(findValidityDates(text).validFrom).toBe('2023-05-01');
  });

  it('does not take a date from "공포한 날부터 시행"', () => {
    expect(findValidityDates('이 법은 공포한 날부터 시행한다. [법률 제20520호, 2024. 10. 22., 일부개정]')).toEqual({ validFrom: null, validTo: null });
  });

  it('reads validity periods and end dates', () => {
    expect(findValidityDates('유효기간: 2024. 1. 1. ~ 2024. 12. 31.')).toEqual({ validFrom: '2024-01-01', validTo: '2024-12-31' });
    expect(findValidityDates('이 고시는 2026년 12월 31일까지 효력을 가진다.').validTo).toBe('2026-12-31');
    expect(findValidityDates('이 지침은 2027. 6. 30.까지 유효하다.').validTo).toBe('2027-06-30');
  });

  it('ignores impossible dates', () => {
    expect(findValidityDates('[시행 2025. 2. 30.]').validFrom).toBeNull();
    expect(findValidityDates('[시행 2025. 2. 30.]\n이 법은 2025. 3. 1.부터 시행한다.').validFrom).toBe('2025-03-01');
  });
});

describe('findValidityDates — English', () => {
  it.each([
    ['Effective date: February 23, 2025', '2025-02-23'],
    ['This policy is effective as of 2025-02-23.', '2025-02-23'],
    ['Effective: 1 March 2024', '2024-03-01'],
    ['effective from 1 April 2024', '2024-04-01'],
    ['This Act shall take effect on January 1, 2026.', '2026-01-01'],
    ['The Regulation enters into force on 25 May 2018.', '2018-05-25'],
    ['valid from 2024-01-01 until 2024-06-30', '2024-01-01'],
    ['Handbook chapter 4, revision 3. Applies from July 1, 2024 to all offices.', '2024-07-01'],
    ['This standard is applicable as of 2024-10-01.', '2024-10-01'],
  ])('%s', (text, from) => {
    expect(findValidityDates(text).validFrom).toBe(from);
  });

  it.each([
    ['Valid until December 31, 2025.', '2025-12-31'],
    ['This offer expires on 2025-06-30.', '2025-06-30'],
    ['Expiration date: 30 June 2026', '2026-06-30'],
    ['in force until 31 Dec 2030', '2030-12-31'],
  ])('valid_to from %s', (text, to) => {
    expect(findValidityDates(text).validTo).toBe(to);
  });

  it('reads a version window, but not a lone "on or after"', () => {
    const text = 'This version applies to leave that begins on or after January 1, 2023 and before\nJanuary 1, 2025. Leave that begins on or after January 1, 2025 is governed by the 2025 version.';
    expect(findValidityDates(text)).toEqual({ validFrom: '2023-01-01', validTo: '2025-01-01' });
    expect(findValidityDates('Leave that begins on or after January 1, 2025 is governed by the new version.')).toEqual({ validFrom: null, validTo: null });
  });

  it('prefers an explicit effective date over "takes effect"', () => {
    expect(findValidityDates('Section 9 takes effect on March 1, 2025.\nEffective date: January 1, 2025').validFrom).toBe('2025-01-01');
  });

  it('drops a valid_to that is not after valid_from', () => {
    expect(findValidityDates('Effective date: 2025-01-01. Valid until 2024-12-31.')).toEqual({ validFrom: '2025-01-01', validTo: null });
  });

  it('does not treat plain dates as validity', () => {
    expect(findValidityDates('Published on February 23, 2025. Revised 2024-10-22.')).toEqual({ validFrom: null, validTo: null });
  });
});
