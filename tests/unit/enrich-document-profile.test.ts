import { describe, expect, it } from 'vitest';
import { buildDocumentProfile, calendarQuarterOf, findForm, findOrganisations, fiscalFits, statedFiscalPeriod } from '../../shared/enrich/document-profile.ts';
import { buildDocumentRecord } from '../../shared/enrich/document.ts';
import { enrichStage } from '../../workers/enrich/enrich.stage.ts';

/** A 10-Q cover page as pdf.js lines come out of a real filing (names invented). */
function coverPage(o: { registrant: string; exactLine: boolean; ended: string; ticker: string }): string {
  return [
    'UNITED STATES',
    'SECURITIES AND EXCHANGE COMMISSION',
    'Washington, D.C. 20549',
    'FORM 10-Q',
    '(Mark One)',
    '☒ QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934',
    `For the quarterly period ended ${o.ended}`,
    'or',
    '☐ TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934',
    'Commission File Number: 001-12345',
    o.registrant,
    ...(o.exactLine ? ['(Exact name of Registrant as specified in its charter)'] : []),
    'Delaware 94-1234567',
    '(State or other jurisdiction of incorporation or organization) (I.R.S. Employer Identification No.)',
    'Securities registered pursuant to Section 12(b) of the Act:',
    'Title of each class Trading symbol(s) Name of each exchange on which registered',
    `Common Stock, $0.001 par value per share ${o.ticker} The Nasdaq Stock Market LLC`,
    '1.375% Notes due 2029 — The Nasdaq Stock Market LLC',
    'Indicate by check mark whether the Registrant (1) has filed all reports required to be filed',
  ].join('\n');
}

describe('document profile: 10-Q cover pages', () => {
  it('reads registrant, ticker, form and the period ended from a cover with the exact-name line', () => {
    const p = buildDocumentProfile(coverPage({ registrant: 'Orchard Devices Inc.', exactLine: true, ended: 'June 24, 2023', ticker: 'ORCD' }), 'Total net sales for the third quarter of fiscal 2023 and the third quarter of fiscal 2023 rose.');
    expect(p.organisations).toEqual([{ name: 'Orchard Devices Inc.', aliases: ['orchard devices inc.', 'orchard devices', 'orchard', 'orcd'] }]);
    expect(p.form).toBe('10-Q');
    expect(p.period).toMatchObject({ end: '2023-06-24', fiscalYear: 2023, fiscalQuarter: 3, calendarYear: 2023, calendarQuarter: 2 });
    expect(p.label).toBe('Orchard Devices Inc. (ORCD) · 10-Q · fiscal 2023 Q3 · calendar 2023 Q2 · period ended 2023-06-24');
  });

  it('finds an all-caps registrant without the exact-name line, and ".com" names get a short alias', () => {
    const p = buildDocumentProfile(coverPage({ registrant: 'RIVERMART.COM, INC.', exactLine: false, ended: 'September 30, 2022', ticker: 'RVMT' }), '');
    expect(p.organisations[0]?.name).toBe('Rivermart.com, Inc.');
    expect(p.organisations[0]?.aliases).toEqual(expect.arrayContaining(['rivermart.com', 'rivermart', 'rvmt']));
    expect(p.period).toMatchObject({ end: '2022-09-30', fiscalYear: null, calendarYear: 2022, calendarQuarter: 3 });
  });

  it('a generic first word is never an alias on its own', () => {
    expect(buildDocumentProfile(coverPage({ registrant: 'General Widgets Corporation', exactLine: true, ended: 'June 30, 2023', ticker: 'GWC' }), '').organisations[0]?.aliases).toEqual([
      'general widgets corporation', 'general widgets', 'gwc',
    ]);
  });

  it('a 52/53-week quarter ended on the 1st counts in the month before', () => {
    expect(calendarQuarterOf('2023-07-01')).toEqual({ year: 2023, quarter: 2 });
    expect(calendarQuarterOf('2022-10-30')).toEqual({ year: 2022, quarter: 4 });
  });

  it("a prior period named more often than the filing's own is ruled out by the period end", () => {
    // Intel-like: "Q1 2022" (the comparison) outnumbers "Q1 2023"; Microsoft-like: fiscal 2022's first quarter is named more than fiscal 2023's second.
    expect(statedFiscalPeriod('Q1 2022 Q1 2022 Q1 2022 Q1 2023 Q1 2023', '2023-04-01')).toEqual({ year: 2023, quarter: 1 });
    expect(statedFiscalPeriod('first quarter of fiscal year 2022 ×3: first quarter of fiscal year 2022, first quarter of fiscal year 2022; second quarter of fiscal year 2023', '2022-12-31')).toEqual({ year: 2023, quarter: 2 });
    expect(fiscalFits('2023-04-30', 2024, 1)).toBe(true);
    expect(fiscalFits('2023-07-01', 2023, 3)).toBe(true);
    expect(fiscalFits('2023-07-01', 2024, 3)).toBe(false);
    // Without a period end, only phrases that say "fiscal" count.
    expect(statedFiscalPeriod('Q1 2023 Q1 2023')).toBeNull();
  });

  it('the fiscal period the text names most wins over prior-period comparisons', () => {
    const text = 'second quarter of fiscal year 2024 … second quarter of fiscal year 2024 compared with the second quarter of fiscal year 2023; Q2 FY24';
    expect(statedFiscalPeriod(text)).toEqual({ year: 2024, quarter: 2 });
    expect(statedFiscalPeriod('no fiscal words here')).toBeNull();
  });
});

describe('document profile: policies and laws', () => {
  it('a company policy: organisation, kind and edition/effective date', () => {
    const lines = ['Harbor Logistics Ltd.', 'Remote Work Policy', 'Version 2.1', 'Effective date: March 1, 2024', '1. Purpose'];
    const p = buildDocumentProfile(lines.join('\n'), '');
    expect(p.organisations[0]?.name).toBe('Harbor Logistics Ltd.');
    expect(p.form).toBe('policy');
    expect(p.period).toMatchObject({ edition: '2.1', end: '2024-03-01', fiscalYear: null });
  });

  it('a Korean law: kind law, its promulgation number as edition, 시행 date', () => {
    const lines = ['저출산 지원에 관한 법률', '[시행 2024. 7. 1.] [법률 제19876호, 2024. 1. 9., 일부개정]', '보건복지부 (인구정책과) 044-202-3381', '제1장 총칙', '제1조(목적) 이 법은 …'];
    const p = buildDocumentProfile(lines.join('\n'), '');
    expect(p.form).toBe('law');
    expect(p.period).toMatchObject({ edition: '법률 제19876호', end: '2024-07-01' });
    expect(findOrganisations(['저출산 지원에 관한 법률', '보건복지부'])).toEqual([{ name: '보건복지부', aliases: ['보건복지부'] }]);
  });

  it('standards and annual reports are told apart by their title lines', () => {
    expect(findForm(['RFC 9999', 'Records Exchange Protocol'])).toBe('standard');
    expect(findForm(['FORM 10-K', 'ANNUAL REPORT PURSUANT TO SECTION 13'])).toBe('10-K');
  });

  it('the sidecar wins field by field', () => {
    const p = buildDocumentProfile(coverPage({ registrant: 'Orchard Devices Inc.', exactLine: true, ended: 'June 24, 2023', ticker: 'ORCD' }), '', {
      organisations: ['Orchard Holdings plc'],
      fiscal_year: 2022,
      fiscal_quarter: 4,
    });
    expect(p.organisations).toEqual([{ name: 'Orchard Holdings plc', aliases: ['orchard holdings plc', 'orchard'] }]);
    expect(p.period).toMatchObject({ fiscalYear: 2022, fiscalQuarter: 4, end: '2023-06-24' });
  });
});

describe('document record and chunks carry the profile', () => {
  const source = {
    doc_id: 'orchard-10q',
    version: 'a'.repeat(64),
    source_key: 'orchard-10q.pdf',
    meta: {},
    provenance: { source_uri: 'file://orchard-10q.pdf', sha256: 'a'.repeat(64), fetched_at: '2024-01-01T00:00:00.000Z', collector: 'test', bytes: 1 },
  };
  const head = coverPage({ registrant: 'Orchard Devices Inc.', exactLine: true, ended: 'June 24, 2023', ticker: 'ORCD' });

  it('the record has the profile, its names lead the entities and its form fills doc_type', () => {
    const doc = buildDocumentRecord({ source, pageCount: 3, pdfTitle: null, firstPagesText: head, bodyText: '', entities: ['Net sales'] });
    expect(doc.profile?.organisations[0]?.name).toBe('Orchard Devices Inc.');
    expect(doc.entities.slice(0, 5)).toEqual(['Orchard Devices Inc.', 'orchard devices inc.', 'orchard devices', 'orchard', 'orcd']);
    expect(doc.entities).toContain('Net sales');
    expect(doc.doc_type).toBe('10-Q');
  });

  it("every chunk's embedding text starts with the profile line and still ends with its body", () => {
    const chunk = {
      chunk_id: '00000000-0000-4000-8000-000000000000', doc_id: 'orchard-10q', version: 'a'.repeat(64), section: 'Net sales', section_path: 'Item 2 > Net sales',
      body: 'Net sales were $81,797 million.', embedding_text: 'Item 2 > Net sales\n\nNet sales were $81,797 million.',
      page_start: 2, page_end: 2, chunk_index: 0, total_chunks: 1, token_count: 8,
    };
    const out = enrichStage({ source, extracted: { pageCount: 3, info: { title: null, creationDate: null }, firstPagesText: head }, chunks: [chunk] });
    const text = out.chunks[0]?.embedding_text ?? '';
    expect(text.startsWith('Orchard Devices Inc. (ORCD) · 10-Q')).toBe(true);
    expect(text.endsWith(chunk.body)).toBe(true);
    const off = enrichStage({ source, extracted: { pageCount: 3, info: { title: null, creationDate: null }, firstPagesText: head }, chunks: [chunk], profileBreadcrumb: false });
    expect(off.chunks[0]?.embedding_text).toBe(chunk.embedding_text);
  });
});
