/**
 * Document titles of filings and reports (issue 28): a PDF Title that is an identifier (an SEC
 * accession number) or a filing system's label gives way to one built from the document's
 * profile; a readable Title, a sidecar title and documents that report on nothing keep theirs.
 */
import { describe, expect, it } from 'vitest';
import type { DocumentProfile, SourceRecord } from '../../shared/domain/document.ts';
import { buildDocumentProfile } from '../../shared/enrich/document-profile.ts';
import { isIdentifierTitle, profileTitle, reportTitle } from '../../shared/enrich/document-title.ts';
import { buildDocumentRecord } from '../../shared/enrich/document.ts';

const COVER = [
  'UNITED STATES SECURITIES AND EXCHANGE COMMISSION',
  'FORM 10-Q',
  'QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934',
  'For the quarterly period ended March 31, 2023',
  'Commission File Number: 001-55555',
  'Orchard Systems Corporation',
  '(Exact name of registrant as specified in its charter)',
].join('\n');

const ANNUAL_COVER = COVER.replace('FORM 10-Q', 'FORM 10-K')
  .replace('QUARTERLY REPORT', 'ANNUAL REPORT')
  .replace('For the quarterly period ended March 31, 2023', 'For the fiscal year ended June 30, 2023');

function record(firstPagesText: string, pdfTitle: string | null, meta: SourceRecord['meta'] = {}) {
  const source: SourceRecord = {
    doc_id: 'orchard',
    version: 'b'.repeat(64),
    source_key: 'file:filings/orchard-q3.pdf',
    meta,
    provenance: { source_uri: 'file:///orchard-q3.pdf', sha256: 'b'.repeat(64), fetched_at: '2024-01-01T00:00:00.000Z', collector: 'test', bytes: 1 },
  };
  return buildDocumentRecord({ source, pageCount: 40, pdfTitle, firstPagesText, bodyText: '', entities: [] });
}

describe('isIdentifierTitle', () => {
  it('calls accession numbers, dated codes and generic words identifiers', () => {
    for (const t of ['0000320193-23-000077', '04.01.2023 10Q Document', 'scan_0012 final', 'FY23-Q3']) expect(isIdentifierTitle(t), t).toBe(true);
  });
  it('leaves titles with a naming word alone', () => {
    for (const t of ['Annual Report 2023', 'Form 10-Q for Orchard Corp filed 10/24/2022', 'Remote Work Policy', '근로기준법']) expect(isIdentifierTitle(t), t).toBe(false);
  });
});

describe('profileTitle', () => {
  it('names organisation, form and the quarter or fiscal year ended', () => {
    expect(profileTitle(buildDocumentProfile(COVER, ''))).toBe('Orchard Systems Corporation \u2014 Form 10-Q \u2014 quarter ended March 31, 2023');
    expect(profileTitle(buildDocumentProfile(ANNUAL_COVER, ''))).toBe('Orchard Systems Corporation \u2014 Form 10-K \u2014 fiscal year ended June 30, 2023');
  });
  it('is null for a document that reports on no period or names no organisation', () => {
    const policy: DocumentProfile = { organisations: [{ name: 'Orchard Systems Corporation', aliases: [] }], form: 'policy', period: { end: null, fiscalYear: null, fiscalQuarter: null, calendarYear: null, calendarQuarter: null, edition: null }, label: '' };
    expect(profileTitle(policy)).toBeNull();
    expect(profileTitle({ ...policy, organisations: [], form: '10-Q' })).toBeNull();
    expect(profileTitle(null)).toBeNull();
  });
});

describe('reportTitle', () => {
  const profile = buildDocumentProfile(COVER, '');
  it('replaces an identifier or a filing label that says no more than the profile', () => {
    const built = 'Orchard Systems Corporation \u2014 Form 10-Q \u2014 quarter ended March 31, 2023';
    expect(reportTitle('0000555555-23-000077', profile)).toBe(built);
    expect(reportTitle('Form 10-Q for Orchard Systems Corp filed 04/25/2023', profile)).toBe(built);
    expect(reportTitle('10-Q - 04/28/2023 - Orchard Systems Corporation', profile)).toBe(built);
    expect(reportTitle(null, profile)).toBe(built);
  });
  it('keeps a readable title; an identifier without a profile title gives nothing (the first heading line comes next)', () => {
    expect(reportTitle('Orchard Systems Quarterly Report, Spring Edition', profile)).toBe('Orchard Systems Quarterly Report, Spring Edition');
    expect(reportTitle('0000555555-23-000077', null)).toBeNull();
  });
});

describe('buildDocumentRecord titles', () => {
  it('titles a filing from its profile when the PDF Title is an accession number; the sidecar title wins', () => {
    expect(record(COVER, '0000555555-23-000077').title).toBe('Orchard Systems Corporation \u2014 Form 10-Q \u2014 quarter ended March 31, 2023');
    expect(record(COVER, '0000555555-23-000077', { title: 'Orchard Q3 filing' }).title).toBe('Orchard Q3 filing');
  });
  it('builds the title from the sidecar’s organisation and form too', () => {
    const text = 'For the quarterly period ended March 31, 2023\nSome text';
    expect(record(text, '0000555555-23-000077', { organisations: ['Orchard Systems Corporation'], form: '10-Q' }).title).toBe(
      'Orchard Systems Corporation \u2014 Form 10-Q \u2014 quarter ended March 31, 2023',
    );
  });
  it('gives a document that reports on nothing its first heading line rather than an identifier', () => {
    expect(record('Remote Work Policy\nThis policy applies to every employee.', 'DOC-2024-0113').title).toBe('Remote Work Policy');
  });
});
