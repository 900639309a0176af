import { describe, expect, it } from 'vitest';
import type { DocumentProfile } from '../../shared/domain/document.ts';
import { organisationAliases, profileLabel } from '../../shared/enrich/document-profile.ts';
import { findQueryForm, findQueryPeriod, periodQualifier, routeQuery, type DirectoryEntry } from '../../shared/retrieval/document-routing.ts';
import { reckonedQuarters, sourcePeriod } from '../../shared/retrieval/period-match.ts';

function filing(docId: string, name: string, ticker: string, end: string, fiscal: [number, number] | null, cal: [number, number], form = '10-Q'): DirectoryEntry {
  const base = {
    organisations: [{ name, aliases: organisationAliases(name, [ticker]) }],
    form,
    period: { end, fiscalYear: fiscal?.[0] ?? null, fiscalQuarter: form === '10-Q' ? (fiscal?.[1] ?? null) : null, calendarYear: cal[0], calendarQuarter: form === '10-Q' ? cal[1] : null, edition: null },
  };
  const profile: DocumentProfile = { ...base, label: profileLabel(base) };
  return { doc_id: docId, title: `${name} ${form}`, doc_type: form, profile };
}

/** Two companies, two periods each, plus an annual report and a company with a digit in its name. */
const DIRECTORY: DirectoryEntry[] = [
  filing('orch-2023q2', 'Orchard Devices Inc.', 'ORCD', '2023-04-01', [2023, 2], [2023, 1]),
  filing('orch-2023q3', 'Orchard Devices Inc.', 'ORCD', '2023-07-01', [2023, 3], [2023, 2]),
  filing('river-2023q2', 'Rivermart.com, Inc.', 'RVMT', '2023-06-30', null, [2023, 2]),
  filing('river-2023q3', 'Rivermart.com, Inc.', 'RVMT', '2023-09-30', null, [2023, 3]),
  filing('river-2018k', 'Rivermart.com, Inc.', 'RVMT', '2018-12-31', [2018, 0], [2018, 4], '10-K'),
  filing('three-2023q3', '3M Company', 'MMM', '2023-09-30', null, [2023, 3]),
];

describe('query periods and forms', () => {
  it.each([
    ['What was revenue in Q3 2023?', { year: 2023, quarter: 3, fiscal: false }],
    ['revenue 2023 Q3', { year: 2023, quarter: 3, fiscal: false }],
    ['net income in the third quarter of 2023', { year: 2023, quarter: 3, fiscal: false }],
    ['the second quarter of fiscal 2023', { year: 2023, quarter: 2, fiscal: true }],
    ['capital expenditure in FY2018', { year: 2018, quarter: null, fiscal: true }],
    ['capital expenditure in fiscal 2018', { year: 2018, quarter: null, fiscal: true }],
    // "the 2018 annual report" may be fiscal 2018's or the one filed in 2018: not said to be fiscal.
    ['according to the 2018 annual report', { year: 2018, quarter: null, fiscal: false }],
    ['2023년 3분기 매출은?', { year: 2023, quarter: 3, fiscal: false }],
    ["Q3 FY'23 margin", { year: 2023, quarter: 3, fiscal: true }],
    ['3Q23 earnings release', { year: 2023, quarter: 3, fiscal: false }],
    ['gross margin in 1Q 2024', { year: 2024, quarter: 1, fiscal: false }],
    ['3QFY24 data center revenue', { year: 2024, quarter: 3, fiscal: true }],
  ])('%s', (q, want) => {
    expect(findQueryPeriod(q)).toMatchObject(want);
  });

  it('no period in a plain question, and forms by number or by name', () => {
    expect(findQueryPeriod('What are the risk factors?')).toBeNull();
    // A model number is no quarter.
    expect(findQueryPeriod('the Model 3Q2 sensor')).toBeNull();
    expect(findQueryForm("In Apple's 10-Q")).toBe('10-Q');
    expect(findQueryForm('the annual report')).toBe('10-K');
    expect(findQueryForm('the risk factors')).toBeNull();
  });
});

describe('routeQuery over the document directory', () => {
  it('an organisation by its short name, possessive: all its documents, no others', () => {
    const s = routeQuery("How has Orchard's revenue changed over time?", DIRECTORY);
    expect(s.organisations.map((o) => o.name)).toEqual(['Orchard Devices Inc.']);
    expect(s.docIds.sort()).toEqual(['orch-2023q2', 'orch-2023q3']);
    expect(Object.keys(s.docWeights).sort()).toEqual(['orch-2023q2', 'orch-2023q3']);
  });

  it('an organisation and a period: the one filing, the others of the organisation kept at a lower weight', () => {
    const s = routeQuery('What was Rivermart’s net income in Q3 2023?', DIRECTORY);
    expect(s.docIds).toEqual(['river-2023q3']);
    // Rivermart's 10-Qs state no fiscal period; its 10-K shows its year ends in December, so the
    // quarter ended September 30 is its fiscal third quarter.
    expect(s.docWeights).toEqual({ 'river-2023q2': 0.4, 'river-2023q3': 1, 'river-2018k': 0.4 });
    expect(s.unmatched).toEqual([]);
  });

  it('a period no filing of the organisation matches is reported, the organisation still routes', () => {
    const s = routeQuery('What was Rivermart’s net income in Q1 2020?', DIRECTORY);
    expect(s.unmatched).toEqual(['period Q1 2020']);
    expect(s.docIds.sort()).toEqual(['river-2018k', 'river-2023q2', 'river-2023q3']);
  });

  it('the fiscal reckoning outweighs the fiscal quarter in its calendar year, which outweighs the calendar quarter', () => {
    const s = routeQuery('Orchard revenue in Q2 2023', DIRECTORY);
    expect(s.docWeights).toEqual({ 'orch-2023q2': 1, 'orch-2023q3': 0.7 });
    // Fiscal Q2 and calendar Q2 are different filings: an answer cannot be confirmed.
    expect(s.ambiguousPeriod).toBe(true);
    expect(routeQuery('Rivermart revenue in Q3 2023', DIRECTORY).ambiguousPeriod).toBe(false);
    // The branch holds the fiscal match only; the calendar one keeps its prior.
    expect(s.docIds).toEqual(['orch-2023q2']);
  });

  it('a fiscal quarter number in the calendar year it ended matches as well as the fiscal year ("Q3 2023": fiscal 2023 Q3 and fiscal 2024 Q3, ended October 2023)', () => {
    const nv23 = filing('nv-fy23q3', 'Verdant Chips Corporation', 'VRDC', '2022-10-30', [2023, 3], [2022, 4]);
    const nv24 = filing('nv-fy24q3', 'Verdant Chips Corporation', 'VRDC', '2023-10-29', [2024, 3], [2023, 4]);
    expect(routeQuery('Verdant Q3 2023 revenue', [...DIRECTORY, nv23, nv24]).docIds).toEqual(['nv-fy23q3', 'nv-fy24q3']);
    expect(routeQuery('Verdant Q3 2023 revenue', [...DIRECTORY, nv23, nv24]).ambiguousPeriod).toBe(true);
    // "fiscal" settles it.
    const fiscal = routeQuery('Verdant revenue in the third quarter of fiscal 2023', [...DIRECTORY, nv23, nv24]);
    expect(fiscal.docIds).toEqual(['nv-fy23q3']);
    expect(fiscal.ambiguousPeriod).toBe(false);
  });

  it("a file named for the quarter asked settles which reckoning the person meant", () => {
    // Files named by the quarterly reports filed in a calendar year, as a person keeps them:
    // "2023 Q3" is the quarter ended September 2023, which Verdant counts as fiscal 2024 Q3 …
    const nv23 = { ...filing('nv-fy23q3', 'Verdant Chips Corporation', 'VRDC', '2022-10-30', [2023, 3], [2022, 4]), source: 'filings/2022 Q3 VRDC.pdf' };
    const nv24 = { ...filing('nv-fy24q3', 'Verdant Chips Corporation', 'VRDC', '2023-10-29', [2024, 3], [2023, 4]), source: 'file:///data/filings/2023%20Q3%20VRDC.pdf' };
    const s = routeQuery('Verdant Q3 2023 revenue', [...DIRECTORY, nv23, nv24]);
    expect(s.docIds).toEqual(['nv-fy24q3']);
    expect(s.docWeights['nv-fy24q3']).toBe(1);
    expect(s.docWeights['nv-fy23q3']).toBeCloseTo(0.9);
    expect(s.ambiguousPeriod).toBe(false);
    // … and asked for by its fiscal name, the fiscal reckoning still answers.
    expect(routeQuery('Verdant revenue in the third quarter of fiscal 2023', [...DIRECTORY, nv23, nv24]).docIds).toEqual(['nv-fy23q3']);
    // A file name naming a year alone, or nothing, changes nothing.
    const plain = [{ ...nv23, source: 'filings/verdant-10q.pdf' }, { ...nv24, source: 'filings/VRDC 2023.pdf' }];
    expect(routeQuery('Verdant Q3 2023 revenue', [...DIRECTORY, ...plain]).docIds).toEqual(['nv-fy23q3', 'nv-fy24q3']);
    expect(sourcePeriod('x/AAPL_FY2023_Q1_10Q.pdf')).toMatchObject({ year: 2023, quarter: 1, fiscal: true });
    expect(sourcePeriod('2023-q3-nvda.pdf')).toMatchObject({ year: 2023, quarter: 3 });
    expect(sourcePeriod('s3://ir/ACME_3Q23_Earnings_Release.pdf')).toMatchObject({ year: 2023, quarter: 3 });
    expect(sourcePeriod('Q3 2022 vs Q3 2023.pdf')).toBeNull();
  });

  it("a document's period is every quarter some reckoning makes it: fiscal, calendar, filed, named", () => {
    const nv24 = filing('nv-fy24q3', 'Verdant Corp.', 'VRDC', '2023-10-29', [2024, 3], [2023, 4]).profile as DocumentProfile;
    expect(reckonedQuarters(nv24)).toEqual(expect.arrayContaining([{ year: 2024, quarter: 3 }, { year: 2023, quarter: 4 }, { year: 2023, quarter: 3 }]));
    expect(reckonedQuarters(nv24, 'filings/2023 Q3 VRDC.pdf')).toContainEqual({ year: 2023, quarter: 3 });
    const annual = filing('river-2018k', 'Rivermart.com, Inc.', 'RVMT', '2018-12-31', [2018, 0], [2018, 4], '10-K').profile as DocumentProfile;
    expect(reckonedQuarters(annual)).toEqual([]);
  });

  it('a fiscal quarter matches the fiscal reckoning; a calendar quarter either', () => {
    expect(routeQuery('Orchard revenue in the third quarter of fiscal 2023', DIRECTORY).docIds).toEqual(['orch-2023q3']);
    // Calendar 2023 Q1 is Orchard's fiscal Q2 (quarter ended April 1): the question did not say fiscal.
    expect(routeQuery('Orchard revenue in Q1 2023', DIRECTORY).docIds).toEqual(['orch-2023q2']);
  });

  it('tickers match in any case; "latest" prefers the newest period of the organisation, keeps the others', () => {
    const s = routeQuery('RVMT latest 10-Q operating income compared with the previous quarter', DIRECTORY);
    expect(s.docIds).toEqual(['river-2023q3', 'river-2023q2']);
    expect(s.docWeights).toEqual({ 'river-2023q3': 1, 'river-2023q2': 0.6, 'river-2018k': 0.4 });
    // Without a comparison, the latest filing alone.
    expect(routeQuery('Comparing the most recent quarter to previous ones, how has RVMT spending changed?', DIRECTORY).docIds).toEqual(['river-2023q3', 'river-2018k', 'river-2023q2']);
    // "compare" alone compares two measures, not periods: the latest filing alone.
    expect(routeQuery("How does RVMT's revenue in the latest 10-Q compare with its costs?", DIRECTORY).docIds).toEqual(['river-2023q3']);
    const only = routeQuery("What was RVMT's operating income in the latest 10-Q?", DIRECTORY);
    expect(only.docIds).toEqual(['river-2023q3']);
    expect(only.docWeights).toEqual({ 'river-2023q3': 1, 'river-2023q2': 0.4, 'river-2018k': 0.4 });
    // A ticker that spells no English word matches in lower case too.
    expect(routeQuery('the rvmt thing', DIRECTORY).docIds.sort()).toEqual(['river-2018k', 'river-2023q2', 'river-2023q3']);
  });

  it('FY and annual-report phrasings route to the 10-K', () => {
    expect(routeQuery("Rivermart's capital expenditure in FY2018", DIRECTORY).docIds).toEqual(['river-2018k']);
    expect(routeQuery('capital expenditure in the 2018 annual report of Rivermart.com', DIRECTORY).docIds).toEqual(['river-2018k']);
  });

  it('"3M" and "3M Company" are one organisation', () => {
    const s = routeQuery('What did 3M Company report as sales in Q3 2023, and how did 3M explain it?', DIRECTORY);
    expect(s.organisations.map((o) => o.name)).toEqual(['3M Company']);
    expect(s.docIds).toEqual(['three-2023q3']);
  });

  it('Korean: an organisation named with a particle and a Korean quarter', () => {
    const ko = [
      filing('hanbit-2023q3', '한빛전자 주식회사', 'HNBT', '2023-09-30', null, [2023, 3]),
      filing('hanbit-2023q2', '한빛전자 주식회사', 'HNBT', '2023-06-30', null, [2023, 2]),
    ];
    const s = routeQuery('한빛전자의 2023년 3분기 영업이익은 얼마인가요?', [...DIRECTORY, ...ko]);
    expect(s.organisations.map((o) => o.name)).toEqual(['한빛전자 주식회사']);
    expect(s.docIds).toEqual(['hanbit-2023q3']);
  });

  it('a period alone narrows to the documents of that period; naming nothing routes nowhere', () => {
    expect(routeQuery('Which companies grew revenue in Q3 2023?', DIRECTORY).docIds.sort()).toEqual(['orch-2023q3', 'river-2023q3', 'three-2023q3']);
    const none = routeQuery('What are the main risk factors?', DIRECTORY);
    expect(none.docIds).toEqual([]);
    expect(none.docWeights).toEqual({});
  });
});

describe('period qualifier', () => {
  it('names the period the document reports on, in English and Korean', () => {
    const p = DIRECTORY[1]?.profile ?? null;
    expect(periodQualifier(p, 'en')).toBe('for the period ended 2023-07-01 (Orchard Devices Inc. (ORCD) · 10-Q · fiscal 2023 Q3)');
    expect(periodQualifier(p, 'ko')).toMatch(/^2023년 7월 1일 종료 기간 기준/);
    expect(periodQualifier(null, 'en')).toBeNull();
  });

  it('a guideline, a handbook or an FAQ dated by its effective date is an edition in effect, never a period that ended', () => {
    const period = { end: '2024-03-01', fiscalYear: null, fiscalQuarter: null, calendarYear: 2024, calendarQuarter: null, edition: null };
    for (const form of ['guideline', 'handbook', 'faq', null]) {
      const base = { organisations: [], form, period };
      const profile = { ...base, label: profileLabel(base) };
      expect(profile.label).toBe([form, 'effective 2024-03-01'].filter(Boolean).join(' · '));
      expect(periodQualifier(profile, 'ko')).toMatch(/^2024년 3월 1일 시행본 기준/);
      expect(periodQualifier(profile, 'en')).toMatch(/^as of the edition effective 2024-03-01/);
    }
  });
});
