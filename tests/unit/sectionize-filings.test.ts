/**
 * Filings and reports by their own structure (issue 28): a 10-Q's and a 10-K's parts and items,
 * the financial statements (one section across a statement's repeated title) and numbered notes
 * inside them, the items of the table of contents kept as Contents, running heads and exhibit
 * indexes no headings; an earnings release without items keeps its headed blocks and gets its
 * statements, alone or as an 8-K's exhibit. Coverage stays whole and chunk pages are those of their lines; one 10-Q also goes
 * through a generated PDF, whose footer follows the text, and through enrichment, whose title is
 * built from the profile when the PDF's Title is an accession number.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_POLICIES } from '../../shared/chunk/policy.ts';
import { createCl100kCounter } from '../../shared/chunk/tokenizer.ts';
import type { ExtractedDocument } from '../../shared/domain/extracted.ts';
import { Section } from '../../shared/domain/section.ts';
import { filingHeadings } from '../../shared/sectionize/filing-headings.ts';
import { flattenLines, lineInventory, lineStats } from '../../shared/sectionize/flat-lines.ts';
import { isNotesTitle, isStatementTitle } from '../../shared/sectionize/statement-headings.ts';
import { chunkStageWithCoverage } from '../../workers/chunk/chunk.stage.ts';
import { enrichStage } from '../../workers/enrich/enrich.stage.ts';
import { extractStage } from '../../workers/extract/extract.stage.ts';
import { sectionizeStage } from '../../workers/sectionize/sectionize.stage.ts';
import { EIGHT_K, filingDoc, filingPdfPages, prose, RELEASE, TEN_K, TEN_Q, TEN_Q_STATEMENT_PAGES } from '../fixtures/filing-documents.ts';
import { buildPdf } from '../fixtures/pdf-builders.ts';
import { sharedPath } from '../helpers/shared-data.ts';

const counter = createCl100kCounter();
const PART_I = 'PART I \u2014 FINANCIAL INFORMATION';
const ITEM_1 = 'Item 1. Financial Statements';
const NOTES = 'Notes to Condensed Consolidated Financial Statements (Unaudited)';
// What a chunk of a statement or a note is filed under: one of those titles, never just its item or part.
const FINANCIAL_TITLE = /statements?\b|balance sheets?|^notes? |^\d{1,2}\. |report of independent/iu;
const underFinancialTitle = (sectionPath: string): boolean => sectionPath.split(' > ').some((t) => !/^(?:part|item)\b/iu.test(t) && FINANCIAL_TITLE.test(t));

/** Sections, checked well formed, and chunks with their coverage and the pages of their lines. */
function ingest(doc: ExtractedDocument) {
  const sections = sectionizeStage(doc);
  sections.forEach((s, i) => {
    expect(Section.parse(s)).toEqual(s);
    expect(s.path).toHaveLength(s.level);
    expect(s.path[s.level - 1]).toBe(s.title);
    expect(sections[i + 1]?.level ?? 1).toBeLessThanOrEqual(s.level + 1);
  });
  const out = chunkStageWithCoverage({ docId: 'd', version: 'v', docType: 'unknown', sections, inventory: lineInventory(doc) }, DEFAULT_CHUNK_POLICIES, counter);
  const flat = flattenLines(doc);
  const chunkLines = out.spans.map((spans) => spans.map((s) => s[3]));
  return { sections, ...out, flat, chunkLines };
}

/** Page truth: a chunk's pages are those of its first and last printed lines. */
function expectPageTruth({ chunks, chunkLines, flat }: ReturnType<typeof ingest>): void {
  chunks.forEach((c, k) => {
    const pages = (chunkLines[k] ?? []).map((i) => flat[i]?.page ?? 0);
    expect(pages.length, `chunk ${k}`).toBeGreaterThan(0);
    expect([c.page_start, c.page_end], `chunk ${k}`).toEqual([Math.min(...pages), Math.max(...pages)]);
  });
}

const pathOf = (sections: Section[], title: string): string[] | undefined => sections.find((s) => s.title === title)?.path;

describe('a 10-Q', () => {
  const run = ingest(filingDoc(TEN_Q));
  const { sections, chunks, coverage } = run;

  it('has its parts, items, statements and notes as sections', () => {
    expect(pathOf(sections, ITEM_1)).toEqual([PART_I, ITEM_1]);
    expect(pathOf(sections, 'CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)')).toEqual([PART_I, ITEM_1, 'CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)']);
    expect(pathOf(sections, 'CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS (Unaudited)')).toEqual([PART_I, ITEM_1, 'CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS (Unaudited)']);
    expect(pathOf(sections, NOTES)).toEqual([PART_I, ITEM_1, NOTES]);
    expect(pathOf(sections, 'Note 1 \u2013 Summary of Significant Accounting Policies')).toEqual([PART_I, ITEM_1, NOTES, 'Note 1 \u2013 Summary of Significant Accounting Policies']);
    expect(pathOf(sections, 'Note 4 \u2013 Segment Information and Geographic Data')?.slice(0, 3)).toEqual([PART_I, ITEM_1, NOTES]);
    const mdna = 'Item 2. Management\u2019s Discussion and Analysis of Financial Condition and Results of Operations';
    expect(pathOf(sections, mdna)).toEqual([PART_I, mdna]);
    expect(pathOf(sections, 'Item 1A. Risk Factors')).toEqual(['PART II \u2014 OTHER INFORMATION', 'Item 1A. Risk Factors']);
    expect(pathOf(sections, 'SIGNATURES')).toEqual(['SIGNATURES']);
  });

  it('keeps a statement printed over two pages, its title repeated, as one section', () => {
    const sheets = sections.filter((s) => s.title.startsWith('CONDENSED CONSOLIDATED BALANCE SHEETS'));
    expect(sheets).toHaveLength(1);
    expect(sheets[0]).toMatchObject({ pageStart: 4, pageEnd: 5 });
    // Its captions are rows of the table, and the entity line opens its title block.
    expect(sheets[0]?.text).toContain('LIABILITIES AND SHAREHOLDERS\u2019 EQUITY:');
    expect(sheets[0]?.text.startsWith('Orchard Systems, Inc.')).toBe(true);
  });

  it('keeps the items of the table of contents as Contents, and running heads, references and exhibit entries as text', () => {
    const toc = sections.find((s) => s.source === 'toc');
    expect(toc).toMatchObject({ title: 'TABLE OF CONTENTS', pageStart: 2 });
    expect(toc?.text).toContain('Item 1A. Risk Factors 9');
    expect(sections.filter((s) => s.title === ITEM_1)).toHaveLength(1);
    expect(sections.filter((s) => s.title.startsWith('Note 1 '))).toHaveLength(1);
    expect(sections.find((s) => s.title === 'Item 1A. Risk Factors')?.text).toContain('Item 1A');
    expect(sections.some((s) => /^3\d\.\d/u.test(s.title))).toBe(false);
  });

  it('leaves only the cover under Preamble, and files every chunk of the statements under its statement or note', () => {
    for (const c of chunks.filter((c) => c.section_path.startsWith('Preamble'))) expect(c.page_end).toBeLessThanOrEqual(2);
    const financial = chunks.filter((c) => TEN_Q_STATEMENT_PAGES.includes(c.page_start));
    expect(financial.length).toBeGreaterThanOrEqual(7);
    for (const c of financial) expect(underFinancialTitle(c.section_path), c.section_path).toBe(true);
  });

  it('keeps coverage whole and chunk pages true', () => {
    expect(coverage?.ratio).toBe(1);
    expectPageTruth(run);
  });
});

describe('a 10-K', () => {
  const run = ingest(filingDoc(TEN_K));
  const { sections, chunks, coverage } = run;
  const item8 = 'Item 8. Financial Statements and Supplementary Data';

  it('nests items under their parts, and the auditor’s report, statements and notes under Item 8', () => {
    expect(pathOf(sections, 'Item 1A. Risk Factors')).toEqual(['PART I', 'Item 1A. Risk Factors']);
    expect(pathOf(sections, 'Item 1B. Unresolved Staff Comments')).toEqual(['PART I', 'Item 1B. Unresolved Staff Comments']);
    expect(pathOf(sections, 'Item 7A. Quantitative and Qualitative Disclosures About Market Risk')?.[0]).toBe('PART II');
    expect(pathOf(sections, 'Report of Independent Registered Public Accounting Firm')).toEqual(['PART II', item8, 'Report of Independent Registered Public Accounting Firm']);
    expect(pathOf(sections, 'CONSOLIDATED BALANCE SHEETS')).toEqual(['PART II', item8, 'CONSOLIDATED BALANCE SHEETS']);
    expect(pathOf(sections, '2. Revenue Recognition')).toEqual(['PART II', item8, 'Notes to Consolidated Financial Statements', '2. Revenue Recognition']);
    expect(pathOf(sections, 'Item 9A. Controls and Procedures')).toEqual(['PART II', 'Item 9A. Controls and Procedures']);
    expect(pathOf(sections, 'Item 10. Directors, Executive Officers and Corporate Governance')?.[0]).toBe('PART III');
    expect(pathOf(sections, 'Item 15. Exhibits and Financial Statement Schedules')?.[0]).toBe('PART IV');
    // "Part III" named in a sentence of the cover is no part.
    expect(sections.filter((s) => s.title === 'PART III')).toHaveLength(1);
  });

  it('files the chunks of Item 8 under its report, statements and notes; coverage whole, pages true', () => {
    const financial = chunks.filter((c) => c.page_start >= 6 && c.page_end <= 9);
    expect(financial.length).toBeGreaterThanOrEqual(5);
    for (const c of financial) expect(underFinancialTitle(c.section_path), c.section_path).toBe(true);
    for (const c of chunks.filter((c) => c.section_path.startsWith('Preamble'))) expect(c.page_start).toBe(1);
    expect(coverage?.ratio).toBe(1);
    expectPageTruth(run);
  });
});

describe('an earnings release', () => {
  const run = ingest(filingDoc(RELEASE));
  const { sections, chunks, coverage } = run;
  const headline = 'Orchard Systems Reports First Quarter Results';

  it('keeps its headed blocks and makes each statement a section beside them, its captions rows', () => {
    expect(pathOf(sections, 'Business Outlook')).toEqual([headline, 'Business Outlook']);
    expect(pathOf(sections, 'CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS')).toEqual([headline, 'CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS']);
    expect(pathOf(sections, 'CONDENSED CONSOLIDATED BALANCE SHEETS')).toEqual([headline, 'CONDENSED CONSOLIDATED BALANCE SHEETS']);
    expect(sections.some((s) => s.title === 'ASSETS' || s.title.startsWith('LIABILITIES'))).toBe(false);
    expect(sections.some((s) => s.title.startsWith('ORCHARD SYSTEMS'))).toBe(false);
  });

  it('files the chunks of the statement pages under their statements; coverage whole, pages true', () => {
    const financial = chunks.filter((c) => c.page_start >= 2);
    expect(financial).toHaveLength(3);
    for (const c of financial) expect(underFinancialTitle(c.section_path), c.section_path).toBe(true);
    expect(coverage?.ratio).toBe(1);
    expectPageTruth(run);
  });
});

describe('an 8-K carrying a press release', () => {
  const run = ingest(filingDoc(EIGHT_K));
  const { sections, chunks, coverage } = run;
  const headline = 'Orchard Systems Reports First Quarter Results';

  it('has its items and signatures, and the release after them keeps its own blocks and statements', () => {
    expect(pathOf(sections, 'Item 2.02 Results of Operations and Financial Condition.')).toEqual(['Item 2.02 Results of Operations and Financial Condition.']);
    expect(pathOf(sections, 'Item 9.01 Financial Statements and Exhibits.')).toEqual(['Item 9.01 Financial Statements and Exhibits.']);
    expect(pathOf(sections, 'SIGNATURES')).toEqual(['SIGNATURES']);
    expect(pathOf(sections, 'Business Outlook')).toEqual([headline, 'Business Outlook']);
    expect(pathOf(sections, 'CONDENSED CONSOLIDATED BALANCE SHEETS')?.at(-1)).toBe('CONDENSED CONSOLIDATED BALANCE SHEETS');
    expect(sections.some((s) => s.title === 'ASSETS' || /^99\.1/u.test(s.title))).toBe(false);
  });

  it('files its short items under themselves, not under the cover’s Preamble', () => {
    for (const c of chunks.filter((c) => c.section_path.startsWith('Preamble'))) expect(c.page_end).toBe(1);
    expect(chunks.find((c) => c.page_start === 2)?.section_path).toBe('Item 2.02 Results of Operations and Financial Condition.');
  });

  it('files the release’s statement pages under their statements; coverage whole, pages true', () => {
    const financial = chunks.filter((c) => c.page_start >= 4);
    expect(financial).toHaveLength(3);
    for (const c of financial) expect(underFinancialTitle(c.section_path), c.section_path).toBe(true);
    expect(coverage?.ratio).toBe(1);
    expectPageTruth(run);
  });
});

describe('statement titles', () => {
  it('reads the US GAAP and IFRS names, with their suffixes and periods', () => {
    for (const t of [
      'CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)',
      'Consolidated Condensed Statements of Comprehensive Income',
      'CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME (LOSS)',
      'CASH FLOWS STATEMENTS',
      'STOCKHOLDERS’ EQUITY STATEMENTS',
      'Consolidated Statement of Financial Position as at 31 December 2024',
      'Consolidated Statement of Changes in Equity',
      'Consolidated Income Statement',
      'CONSOLIDATED BALANCE SHEETS AS OF DECEMBER 31',
      'CONDENSED CONSOLIDATED STATEMENTS OF SHAREHOLDERS’ EQUITY FOR THE THREE MONTHS ENDED APRIL 30, 2023 AND MAY 1, 2022',
    ]) expect(isStatementTitle(t), t).toBe(true);
    expect(isNotesTitle('NOTES TO CONDENSED CONSOLIDATED FINANCIAL STATEMENTS (Continued)')).toBe(true);
  });

  it('refuses index entries, sentences and other statements', () => {
    for (const t of [
      'Consolidated Statements of Cash Flows 3',
      'c) Balance Sheets as of December 31, 2022 and June 30, 2022 5',
      'Statement of Work',
      'Consolidated Balance Sheet.',
      'See accompanying Notes to Condensed Consolidated Financial Statements.',
      'statements of operations are prepared on the accrual basis',
    ]) expect(isStatementTitle(t), t).toBe(false);
  });
});

describe('what is no filing', () => {
  it('leaves a checklist’s numbered items to the other structures', () => {
    const doc = filingDoc([[{ text: 'Fire Safety Checklist', size: 16 }, 'Item 1. Extinguishers', ...prose('extinguisher', 3), 'Item 2. Exits', ...prose('exit', 3), 'Item 3. Alarms', ...prose('alarm', 3)]]);
    const lines = flattenLines(doc);
    expect(filingHeadings(lines, new Set(), lineStats(lines))).toBeNull();
  });

  it('does not take an exhibit index at the back of a report for its outline', () => {
    const chapter = (title: string, topic: string) => [{ text: title, size: 14 }, ...prose(topic, 12)];
    const doc = filingDoc([
      [...chapter('A Quarter in Review', 'quarter review'), ...chapter('Operating Segments', 'segment review')],
      [...chapter('Liquidity and Capital Resources', 'liquidity'), ...chapter('Risk Factors', 'risk')],
      ['Exhibits', '10.1 Form of Restricted Stock Unit Agreement', '10.2 Form of Performance Award Agreement', '10.3 Form of Director Award Agreement'],
    ]);
    const sections = sectionizeStage(doc);
    expect(sections.map((s) => s.title)).toEqual(expect.arrayContaining(['A Quarter in Review', 'Liquidity and Capital Resources', 'Risk Factors']));
    expect(sections.some((s) => s.title === 'Preamble')).toBe(false);
  });
});

describe('a 10-Q through a generated PDF', () => {
  const LIMITS = { maxBytes: 5_000_000, maxPages: 100 };
  const ACCESSION = '0000555555-24-000012';

  async function extracted(): Promise<ExtractedDocument> {
    return extractStage({ bytes: await buildPdf({ pages: filingPdfPages(TEN_Q), title: ACCESSION }) }, LIMITS);
  }

  function enrich(doc: ExtractedDocument, chunks: ReturnType<typeof ingest>['chunks'], meta: Record<string, string> = {}) {
    const source = {
      doc_id: 'orchard-10q',
      version: 'a'.repeat(64),
      source_key: 'file:orchard-10q.pdf',
      meta,
      provenance: { source_uri: 'file:///orchard-10q.pdf', sha256: 'a'.repeat(64), fetched_at: '2024-05-01T00:00:00.000Z', collector: 'test', bytes: 1 },
    };
    const firstPagesText = doc.pages
      .slice(0, 3)
      .map((p) => p.lines.map((l) => l.text).join('\n'))
      .join('\n\n');
    return enrichStage({ source, extracted: { pageCount: doc.pageCount, info: doc.info, firstPagesText }, chunks }).document;
  }

  it('strips the footer that follows the text, sections the form, keeps coverage whole and pages true', async () => {
    const doc = await extracted();
    expect(doc.strippedLines).toContain('Orchard Systems, Inc. | Q1 2024 Form 10-Q | 1');
    const run = ingest(doc);
    expect(pathOf(run.sections, 'Note 1 \u2013 Summary of Significant Accounting Policies')).toEqual([PART_I, ITEM_1, NOTES, 'Note 1 \u2013 Summary of Significant Accounting Policies']);
    for (const c of run.chunks.filter((c) => TEN_Q_STATEMENT_PAGES.includes(c.page_start))) expect(underFinancialTitle(c.section_path), c.section_path).toBe(true);
    expect(run.coverage?.ratio).toBe(1);
    expect(run.coverage?.runningChars).toBeGreaterThan(0);
    expectPageTruth(run);
  });

  it('titles the document from its profile when the PDF Title is an accession number; a sidecar title still wins', async () => {
    const doc = await extracted();
    expect(doc.info.title).toBe(ACCESSION);
    const { chunks } = ingest(doc);
    expect(enrich(doc, chunks).title).toBe('Orchard Systems, Inc. \u2014 Form 10-Q \u2014 quarter ended March 30, 2024');
    expect(enrich(doc, chunks, { title: 'Orchard Q1 filing' }).title).toBe('Orchard Q1 filing');
  });
});

const sec10q = sharedPath('eval', 'docugami-sec10q', 'docs');

describe.skipIf(!sec10q.present)('real 10-Q filings (docugami-sec10q, one per company)', () => {
  const LIMITS = { maxBytes: 50_000_000, maxPages: 500 };
  // Intel's 10-Q has no item headings (its items are an index at the back): typography structures it.
  const FILES = ['2023 Q3 AAPL.pdf', '2023 Q3 AMZN.pdf', '2022 Q3 INTC.pdf', '2023 Q2 MSFT.pdf', '2023 Q3 NVDA.pdf'];

  it.each(FILES)('%s: no chunk after the cover under Preamble, the statements’ chunks under their statement or note, coverage whole, pages true', async (file) => {
    const doc = await extractStage({ bytes: new Uint8Array(readFileSync(path.join(sec10q.path, file))) }, LIMITS);
    const run = ingest(doc);
    const { flat, chunks, chunkLines, sections } = run;
    // The financial statements run from the first statement title after the contents to the MD&A.
    const contents = new Set(sections.filter((s) => s.source === 'toc').flatMap((s) => (s.spans ?? []).map((sp) => sp[3])));
    const first = flat.findIndex((l) => !contents.has(l.index) && isStatementTitle(l.text));
    const mdna = flat.findIndex((l, i) => i > first && /^(?:item\s*2\.?\s*)?management.s discussion and analysis/iu.test(l.text.trim()) && !/\d$/u.test(l.text.trim()));
    expect(first).toBeGreaterThan(0);
    const firstPage = flat[first]?.page ?? 0;
    for (const c of chunks.filter((c) => c.section_path.startsWith('Preamble'))) expect(c.page_end, c.section_path).toBeLessThan(firstPage);
    if (!file.includes('INTC')) {
      chunks.forEach((c, k) => {
        const held = chunkLines[k] ?? [];
        if (Math.min(...held) < first || Math.max(...held) >= mdna) return;
        // A chunk of two short statements merged is filed under their item, holding both titles.
        const merged = c.body.split('\n').filter((l) => isStatementTitle(l)).length >= 2;
        expect(merged || underFinancialTitle(c.section_path), `${file}: ${c.section_path}`).toBe(true);
      });
    }
    expect(run.coverage?.ratio).toBe(1);
    expectPageTruth(run);
  });
});
