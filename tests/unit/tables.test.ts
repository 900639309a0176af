/**
 * Tables as data, end to end on generated PDFs: pdf-lib draws statement tables the way filings
 * print them (a run per label and per figure, figures right-aligned, "$" drawn apart, headers on
 * several lines), and the real extract → sectionize → chunk stages read them back as rows ×
 * columns, as Markdown chunks with row facts, with every printed line held and every page true.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_POLICIES } from '../../shared/chunk/policy.ts';
import { createCl100kCounter } from '../../shared/chunk/tokenizer.ts';
import type { ExtractedDocument } from '../../shared/domain/extracted.ts';
import { SectionsArtifact } from '../../shared/domain/artifacts.ts';
import type { DocTable } from '../../shared/domain/table.ts';
import { flattenLines, lineInventory } from '../../shared/sectionize/flat-lines.ts';
import { keywordText, chunkKeywordText } from '../../shared/store/keyword-text.ts';
import { rowFacts } from '../../shared/tables/facts.ts';
import { renderTable, rowLine } from '../../shared/tables/markdown.ts';
import type { Column } from '../../shared/tables/columns.ts';
import { columnHeaders } from '../../shared/tables/header.ts';
import type { ReadLine } from '../../shared/tables/pieces.ts';
import { chunkStageWithCoverage } from '../../workers/chunk/chunk.stage.ts';
import { extractStage } from '../../workers/extract/extract.stage.ts';
import { sectionizeWithTablesStage } from '../../workers/sectionize/sectionize.stage.ts';
import { buildPdf } from '../fixtures/pdf-builders.ts';
import type { TextRun } from '../fixtures/pdf-builders.ts';
import { helvetica, pageOf, proseRuns, tableRuns, type FixtureRow, type FixtureTable } from '../fixtures/table-pdf.ts';

const LIMITS = { maxBytes: 5_000_000, maxPages: 20 };
const counter = createCl100kCounter();

const PERIODS: FixtureTable['header'] = [
  [['Three Months Ended', 0, 1], ['Nine Months Ended', 2, 3]],
  [['July 1,', 0, 0], ['June 25,', 1, 1], ['July 1,', 2, 2], ['June 25,', 3, 3]],
  [['2023', 0, 0], ['2022', 1, 1], ['2023', 2, 2], ['2022', 3, 3]],
];

const OPERATIONS: FixtureTable = {
  title: 'CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS',
  caption: '(In millions, except per-share amounts)',
  header: PERIODS,
  rows: [
    { label: 'Net sales:' },
    { label: 'Products', indent: 8, figures: ['60,584', '63,355', '230,901', '245,241'], dollar: true },
    { label: 'Services', indent: 8, figures: ['21,213', '19,604', '62,886', '58,941'] },
    { label: 'Total net sales', indent: 16, figures: ['81,797', '82,959', '293,787', '304,182'] },
    { label: 'Operating expenses:' },
    { label: 'Research and development', indent: 8, figures: ['7,442', '6,797', '22,608', '19,490'] },
    { label: 'Total operating expenses', indent: 16, figures: ['13,415', '12,809', '41,389', '38,144'] },
    { label: 'Operating income', figures: ['22,998', '23,076', '87,332', '94,543'] },
    { label: 'Other income/(expense), net', figures: ['(265)', '(10)', '(594)', '—'] },
    { label: 'Net income', figures: ['19,881', '19,442', '74,039', '79,082'], dollar: true },
    { label: 'Earnings per share:' },
    { label: 'Basic', indent: 8, figures: ['1.27', '1.20', '4.69', '4.86'], dollar: true },
  ],
};

/** A balance sheet long enough to run over two pages (and over one chunk), rows numbered so each is distinct. */
function balanceRows(from: number, count: number): FixtureRow[] {
  return Array.from({ length: count }, (_, i) => ({ label: `Asset line ${from + i}`, indent: 8, figures: [`${1000 + from + i}`, `(${2000 + from + i})`] }));
}
const TWO_COLUMNS: FixtureTable['header'] = [[['July 1,', 0, 0], ['Sept. 24,', 1, 1]], [['2023', 0, 0], ['2022', 1, 1]]];

async function run(pages: Parameters<typeof buildPdf>[0]['pages']) {
  const doc = await extractStage({ bytes: await buildPdf({ pages }) }, LIMITS);
  const { sections, tables } = sectionizeWithTablesStage(doc);
  // What the worker writes must read back as the artifact it claims to be.
  expect(SectionsArtifact.parse({ sections, tables, inventory: lineInventory(doc) }).tables).toEqual(tables);
  const out = chunkStageWithCoverage({ docId: 'd', version: 'v', docType: 'unknown', sections, inventory: lineInventory(doc), tables }, DEFAULT_CHUNK_POLICIES, counter);
  return { doc, sections, tables, ...out };
}

/** Page truth and coverage, as tests/unit/ingest-fidelity.test.ts checks them. */
function expectFaithful(doc: ExtractedDocument, out: Awaited<ReturnType<typeof run>>): void {
  const flat = flattenLines(doc);
  expect(out.coverage?.ratio).toBe(1);
  expect(out.coverage?.unindexed).toEqual([]);
  out.chunks.forEach((c, k) => {
    const held = [...(out.spans[k] ?? []).map((s) => s[3]), ...(out.headingLines[k] ?? [])];
    expect(held.length, c.body).toBeGreaterThan(0);
    const pages = held.map((i) => flat[i]?.page ?? 0);
    expect(c.page_start, c.body).toBe(Math.min(...pages));
    expect(c.page_end, c.body).toBe(Math.max(...pages));
    for (const [start, end, page, line] of out.spans[k] ?? []) {
      expect(page).toBe(flat[line]?.page);
      expect(end).toBeGreaterThan(start);
      expect(end).toBeLessThanOrEqual(c.body.length);
    }
  });
}

function cellValues(table: DocTable, label: string): Array<number | null> {
  const row = table.rows.find((r) => r.label === label);
  return row?.cells.map((c) => c?.value ?? null) ?? [];
}

let font: Awaited<ReturnType<typeof helvetica>>;
beforeAll(async () => {
  font = await helvetica();
});

describe('a statement table read back as data', () => {
  const page = () =>
    pageOf([
      (t) => proseRuns(['1. Financial Statements'], t, { bold: true }),
      (t) => proseRuns(['The statements below are unaudited and were prepared on the usual basis.'], t),
      (t) => tableRuns(font, OPERATIONS, t),
      (t) => proseRuns(['2. Discussion', 'Net sales decreased slightly compared with the same quarter a year ago.'], t),
    ]);

  it('extraction keeps a row’s runs apart, the currency sign with its figure; prose lines carry no cells', async () => {
    const doc = await extractStage({ bytes: await buildPdf({ pages: [page()] }) }, LIMITS);
    const lines = doc.pages[0]?.lines ?? [];
    const products = lines.find((l) => l.text.startsWith('Products'));
    expect(products?.cells?.map((c) => c[2])).toEqual(['Products', '$ 60,584', '$ 63,355', '$ 230,901', '$ 245,241']);
    expect(products?.text).toBe('Products $ 60,584 $ 63,355 $ 230,901 $ 245,241');
    expect(lines.find((l) => l.text.startsWith('The statements'))?.cells).toBeUndefined();
  });

  it('comes back as rows × columns: spanning multi-line period headers, caption scale, levels, parents, negatives', async () => {
    const { tables } = await run([page()]);
    expect(tables).toHaveLength(1);
    const t = tables[0]?.table as DocTable;
    expect(t.title).toBe('CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS');
    expect(tables[0]?.caption).toEqual(['(In millions, except per-share amounts)']);
    expect(t.columns).toEqual(['Three Months Ended July 1, 2023', 'Three Months Ended June 25, 2022', 'Nine Months Ended July 1, 2023', 'Nine Months Ended June 25, 2022']);
    expect([t.unit, t.scale, t.pageStart, t.pageEnd]).toEqual(['$', 'millions', 1, 1]);
    expect(t.rows.map((r) => r.label)).toEqual(OPERATIONS.rows.map((r) => r.label));
    const row = (label: string) => t.rows.find((r) => r.label === label);
    expect(row('Total net sales')).toMatchObject({ level: 2, parents: ['Net sales:'], page: 1 });
    expect(row('Products')).toMatchObject({ level: 1, parents: ['Net sales:'] });
    expect(row('Operating income')).toMatchObject({ level: 0, parents: [] });
    expect(row('Basic')).toMatchObject({ level: 1, parents: ['Earnings per share:'] });
    expect(row('Net sales:')?.cells).toEqual([null, null, null, null]);
    expect(cellValues(t, 'Total net sales')).toEqual([81797, 82959, 293787, 304182]);
    expect(cellValues(t, 'Other income/(expense), net')).toEqual([-265, -10, -594, null]);
    expect(cellValues(t, 'Basic')).toEqual([1.27, 1.2, 4.69, 4.86]);
    expect(row('Products')?.cells[0]).toMatchObject({ text: '$ 60,584', value: 60584, page: 1 });
    expect(row('Other income/(expense), net')?.cells[3]).toMatchObject({ text: '—', value: null });
  });

  it('a heading printed level with the figure rows under it heads them until their total (a segment table)', async () => {
    const SEGMENTS: FixtureTable = {
      title: 'SEGMENT INFORMATION',
      caption: '(In millions)',
      header: PERIODS,
      rows: [
        { label: 'Revenue' },
        { label: 'Productivity and Business Processes', figures: ['18,592', '16,600', '53,447', '47,996'], dollar: true },
        { label: 'Intelligent Cloud', figures: ['24,259', '20,864', '68,929', '60,080'] },
        { label: 'Total', figures: ['42,851', '37,464', '122,376', '108,076'], dollar: true },
        { label: 'Operating income' },
        { label: 'Intelligent Cloud', figures: ['10,526', '8,779', '29,590', '25,982'] },
        { label: 'Total', figures: ['17,211', '14,890', '48,601', '43,132'] },
        { label: 'Headcount', figures: ['221', '181', '221', '181'] },
      ],
    };
    const { tables } = await run([pageOf([(t) => tableRuns(font, SEGMENTS, t)])]);
    const t = tables[0]?.table as DocTable;
    expect(t.rows.map((r) => [r.label, r.parents])).toEqual([
      ['Revenue', []],
      ['Productivity and Business Processes', ['Revenue']],
      ['Intelligent Cloud', ['Revenue']],
      ['Total', ['Revenue']],
      ['Operating income', []],
      ['Intelligent Cloud', ['Operating income']],
      ['Total', ['Operating income']],
      // The total closed the group: what follows is under no heading.
      ['Headcount', []],
    ]);
  });

  it('is its own chunk: Markdown body, the table as data, its lines out of the prose, row facts searchable', async () => {
    const out = await run([page()]);
    const tableChunks = out.chunks.filter((c) => c.table);
    expect(tableChunks).toHaveLength(1);
    const chunk = tableChunks[0];
    expect(chunk?.body.split('\n').slice(0, 5)).toEqual([
      'CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS',
      '(In millions, except per-share amounts)',
      '',
      '|  | Three Months Ended July 1, 2023 | Three Months Ended June 25, 2022 | Nine Months Ended July 1, 2023 | Nine Months Ended June 25, 2022 |',
      '| --- | ---: | ---: | ---: | ---: |',
    ]);
    expect(chunk?.body).toContain('| \u00a0\u00a0\u00a0\u00a0Total net sales | 81,797 | 82,959 | 293,787 | 304,182 |');
    expect(chunk?.section_path).toBe('1. Financial Statements');
    // The figures are in the table chunk only: no prose chunk repeats a row.
    for (const c of out.chunks.filter((x) => !x.table)) expect(c.body).not.toContain('81,797');
    const fact = 'Net sales > Total net sales — Three Months Ended July 1, 2023: $81,797 million';
    expect(chunk?.embedding_text).toContain(fact);
    expect(chunkKeywordText(chunk as NonNullable<typeof chunk>)).toContain(keywordText(fact));
    expectFaithful(out.doc, out);
  });
});

describe('a table over two pages', () => {
  const continued = (): Parameters<typeof buildPdf>[0]['pages'] => [
    pageOf([
      (t) => proseRuns(['1. Balance Sheets', 'The balance sheets below list every asset line at the quarter end.'], t),
      (t) => tableRuns(font, { title: 'CONDENSED CONSOLIDATED BALANCE SHEETS', caption: '(In millions)', header: TWO_COLUMNS, rows: balanceRows(1, 45) }, t),
    ]),
    pageOf([
      (t) => tableRuns(font, { title: 'CONDENSED CONSOLIDATED BALANCE SHEETS (continued)', header: TWO_COLUMNS, rows: [...balanceRows(46, 25), { label: 'Total assets', figures: ['99,999', '88,888'], dollar: true }] }, t),
      (t) => proseRuns(['2. Notes', 'The notes explain each line of the balance sheets above.'], t),
    ]),
  ];

  it('is one table spanning both pages, keeping the header printed on the first', async () => {
    const { tables } = await run(continued());
    expect(tables).toHaveLength(1);
    const t = tables[0]?.table as DocTable;
    expect([t.pageStart, t.pageEnd]).toEqual([1, 2]);
    expect(t.columns).toEqual(['July 1, 2023', 'Sept. 24, 2022']);
    expect(t.title).toBe('CONDENSED CONSOLIDATED BALANCE SHEETS');
    expect(t.rows).toHaveLength(71);
    expect(t.rows.find((r) => r.label === 'Asset line 46')).toMatchObject({ page: 2, cells: [{ value: 1046 }, { value: -2046 }] });
    expect(t.rows.find((r) => r.label === 'Asset line 45')?.page).toBe(1);
    // The header printed again on page 2 is held as header lines (its two lines).
    expect(tables[0]?.lines.filter(([, page, row]) => page === 2 && row === -1)).toHaveLength(2);
  });

  it('is split into row groups, each repeating title and header and holding only its rows; coverage and pages stay true', async () => {
    const out = await run(continued());
    const parts = out.chunks.filter((c) => c.table);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) {
      expect(p.body.startsWith('CONDENSED CONSOLIDATED BALANCE SHEETS\n')).toBe(true);
      expect(p.body).toContain('|  | July 1, 2023 | Sept. 24, 2022 |');
      expect(p.token_count).toBeLessThanOrEqual(DEFAULT_CHUNK_POLICIES.default?.maxTokens ?? 0);
      expect(p.table?.columns).toEqual(['July 1, 2023', 'Sept. 24, 2022']);
      for (const r of p.table?.rows ?? []) expect(p.body).toContain(rowLine(r));
    }
    expect(parts.flatMap((p) => p.table?.rows.map((r) => r.label) ?? [])).toEqual(out.tables[0]?.table.rows.map((r) => r.label));
    // The header printed again on page 2 is held by the part whose rows it heads there, on its header row.
    const k = out.chunks.findIndex((c) => c.table?.rows.some((r) => r.label === 'Asset line 46'));
    const page2Header = (out.spans[k] ?? []).filter(([, , page, line]) => page === 2 && out.tables[0]?.lines.some((l) => l[0] === line && l[2] === -1));
    expect(page2Header).toHaveLength(2);
    for (const [s, e] of page2Header) expect(out.chunks[k]?.body.slice(s, e)).toBe('|  | July 1, 2023 | Sept. 24, 2022 |');
    expect(parts[0]?.page_start).toBe(1);
    expect(parts[parts.length - 1]?.page_end).toBe(2);
    expectFaithful(out.doc, out);
  });

  it('a different statement on the next page with the same columns is another table', async () => {
    const rows = (n: number): FixtureRow[] => balanceRows(n, 5);
    const { tables } = await run([
      pageOf([(t) => proseRuns(['1. Statements'], t), (t) => tableRuns(font, { title: 'STATEMENTS OF OPERATIONS', caption: '(In millions)', header: TWO_COLUMNS, rows: rows(1) }, t)]),
      pageOf([(t) => tableRuns(font, { title: 'STATEMENTS OF COMPREHENSIVE INCOME', caption: '(In millions)', header: TWO_COLUMNS, rows: rows(10) }, t)]),
    ]);
    expect(tables.map((t) => [t.table.title, t.table.pageStart, t.table.pageEnd, t.table.rows.length])).toEqual([
      ['STATEMENTS OF OPERATIONS', 1, 1, 5],
      ['STATEMENTS OF COMPREHENSIVE INCOME', 2, 2, 5],
    ]);
  });
});

describe('scale printed over the columns', () => {
  it('above every header line it is the table’s caption; inside a column’s header stack it is that column’s', async () => {
    const rows: FixtureRow[] = [
      { label: 'Balance at start', figures: ['1,200', '45.10'] },
      { label: 'Granted', indent: 8, figures: ['300', '52.00'] },
      { label: 'Balance at end', figures: ['1,500', '46.48'] },
    ];
    const { tables } = await run([
      pageOf([
        (t) => proseRuns(['1. Awards', 'Award activity for the year was as follows.'], t),
        (t) => tableRuns(font, { header: [[['(In millions)', 1, 1]], [['2023', 0, 0], ['2022', 1, 1]]], rows }, t),
        (t) => proseRuns(['2. Stock', 'The next table shows the units and their value.'], t),
        (t) => tableRuns(font, { header: [[['Number of', 0, 0], ['Fair value', 1, 1]], [['(in thousands)', 0, 0], ['(in millions)', 1, 1]]], rows }, t),
      ]),
    ]);
    expect(tables.map((t) => [t.caption, t.table.scale, t.table.columns])).toEqual([
      [['(In millions)'], 'millions', ['2023', '2022']],
      [[], null, ['Number of (in thousands)', 'Fair value (in millions)']],
    ]);
    expect(rowFacts(tables[1]?.table as DocTable, tables[1]?.caption ?? [])[0]).toBe('Balance at start — Number of (in thousands): 1,200 thousand; Fair value (in millions): 45.10 million');
  });
});

describe('a title in capitals printed over the columns', () => {
  it('names the table and heads no column, nor does the running head above it (a 10-Q’s "SUMMARY RESULTS OF OPERATIONS" under "Item 2")', async () => {
    const rows: FixtureRow[] = [
      { label: 'Revenue', figures: ['52,857', '49,360', '155,726', '146,405'], dollar: true },
      { label: 'Gross margin', figures: ['36,729', '33,745', '106,658', '100,184'] },
    ];
    const { tables, chunks } = await run([
      pageOf([
        (t) => proseRuns(['Item 2', 'The results of the quarter are summarised below.'], t),
        (t) => tableRuns(font, { header: [[['Item 2', 3, 3]], [['SUMMARY RESULTS OF OPERATIONS', 0, 3]], ...PERIODS], rows }, t),
      ]),
    ]);
    expect(tables).toHaveLength(1);
    const t = tables[0]?.table as DocTable;
    expect(t.title).toBe('SUMMARY RESULTS OF OPERATIONS');
    expect(t.columns).toEqual(['Three Months Ended July 1, 2023', 'Three Months Ended June 25, 2022', 'Nine Months Ended July 1, 2023', 'Nine Months Ended June 25, 2022']);
    // The title's line is still indexed, once.
    expect(chunks.filter((c) => c.body.includes('SUMMARY RESULTS OF OPERATIONS')).length).toBeGreaterThan(0);
  });
});

describe('a note printed in blocks, one a balance-sheet date, its header drawn fragment by fragment', () => {
  // pdf.js gives each fragment of such a header a line of its own (a 10-Q's investments note
  // draws "Fair Value" / "Level" / "(In millions)" in the label column's stub column by column).
  const header = (top: number): TextRun[] => [
    { text: '(In millions)', x: 72, y: top - 11, size: 9 },
    { text: 'Fair Value', x: 180, y: top, size: 9 },
    { text: 'Level', x: 188, y: top - 11, size: 9 },
    { text: 'Recorded', x: 470 - 80, y: top, size: 9 },
    { text: 'Basis', x: 470 - 70, y: top - 11, size: 9 },
    { text: 'Cash and', x: 540 - 80, y: top, size: 9 },
    { text: 'Equivalents', x: 540 - 85, y: top - 11, size: 9 },
  ];
  const block = (date: string, cash: string, total: string): FixtureRow[] => [
    { label: date },
    { label: 'Changes in Fair Value Recorded in Net Income' },
    { label: 'Commercial paper', figures: ['', '', '2,500', '2,498'], dollar: true },
    { label: 'Cash', figures: ['', '', cash, cash], dollar: true },
    { label: 'Total', indent: 8, figures: ['', '', total, total], dollar: true },
  ];
  const note = (rows: FixtureRow[]) => (t: number) => {
    const drawn = tableRuns(font, { header: [], rows }, t - 30);
    return { runs: [...header(t), ...drawn.runs], next: drawn.next };
  };

  it('reads the stub’s fragments as header (the scale they state included), and each block’s rows as of its date', async () => {
    const { tables } = await run([
      pageOf([(t) => proseRuns(['Investment Components', 'The components of investments were as follows:'], t), note([...block('September 30, 2022', '7,237', '9,735'), ...block('June 30, 2022', '8,258', '10,756')])]),
    ]);
    expect(tables).toHaveLength(1);
    const t = tables[0]?.table as DocTable;
    expect([t.title, t.scale, t.columns]).toEqual(['Investment Components', 'millions', ['Recorded Basis', 'Cash and Equivalents']]);
    // Under a date heading, the headings below it do not end the date's block; a total closes only its group.
    expect(t.rows.filter((r) => r.label === 'Cash' || r.label === 'Total').map((r) => [r.label, r.parents, r.cells[0]?.text])).toEqual([
      ['Cash', ['September 30, 2022', 'Changes in Fair Value Recorded in Net Income'], '$ 7,237'],
      ['Total', ['September 30, 2022', 'Changes in Fair Value Recorded in Net Income'], '$ 9,735'],
      ['Cash', ['June 30, 2022', 'Changes in Fair Value Recorded in Net Income'], '$ 8,258'],
      ['Total', ['June 30, 2022', 'Changes in Fair Value Recorded in Net Income'], '$ 10,756'],
    ]);
  });

  it('continued under the next page’s running head ("Item 1") is still one table', async () => {
    const { tables } = await run([
      pageOf([(t) => proseRuns(['Investment Components', 'The components of investments were as follows:'], t), note(block('September 30, 2022', '7,237', '9,735'))]),
      pageOf([(t) => proseRuns(['Item 1'], t), note(block('June 30, 2022', '8,258', '10,756'))]),
    ]);
    expect(tables.map((x) => [x.table.title, x.table.pageStart, x.table.pageEnd, x.table.rows.length])).toEqual([['Investment Components', 1, 2, 10]]);
  });
});

describe('Markdown and row facts', () => {
  const table: DocTable = {
    title: 'Statement of Operations',
    columns: ['Three Months Ended July 1, 2023', 'Shares | Units'],
    unit: '$',
    scale: 'millions',
    pageStart: 3,
    pageEnd: 3,
    rows: [
      { label: 'Net sales:', level: 0, parents: [], cells: [null, null], line: 10, page: 3 },
      { label: 'Total net sales', level: 1, parents: ['Net sales:'], cells: [{ text: '81,797', value: 81797, page: 3 }, { text: '—', value: null, page: 3 }], line: 11, page: 3 },
      { label: 'Other income/(expense), net', level: 0, parents: [], cells: [{ text: '(265)', value: -265, page: 3 }, null], line: 12, page: 3 },
      { label: 'Basic', level: 1, parents: ['Earnings per share:'], cells: [{ text: '$ 1.27', value: 1.27, page: 3 }, null], line: 13, page: 3 },
      { label: 'Gross margin percentage', level: 0, parents: [], cells: [{ text: '44.5 %', value: 44.5, page: 3 }, null], line: 14, page: 3 },
    ],
  };
  const caption = ['(In millions, except per-share amounts)'];

  it('renders title, caption, an escaped header, indented labels and printed cells', () => {
    const rendered = renderTable(table, caption);
    expect(rendered.text.split('\n')).toEqual([
      'Statement of Operations',
      '(In millions, except per-share amounts)',
      '',
      '|  | Three Months Ended July 1, 2023 | Shares \\| Units |',
      '| --- | ---: | ---: |',
      '| Net sales: |  |  |',
      '| \u00a0\u00a0Total net sales | 81,797 | — |',
      '| Other income/(expense), net | (265) |  |',
      '| \u00a0\u00a0Basic | $ 1.27 |  |',
      '| Gross margin percentage | 44.5 % |  |',
    ]);
    expect(rendered.text.slice(...(rendered.rows.get(1) as [number, number]))).toBe('| \u00a0\u00a0Total net sales | 81,797 | — |');
    expect(renderTable(table, caption, [2]).text.split('\n').slice(3)).toEqual(['|  | Three Months Ended July 1, 2023 | Shares \\| Units |', '| --- | ---: | ---: |', '| Other income/(expense), net | (265) |  |']);
  });

  it('says each row with its path, column headers, sign, currency and scale; excepted rows without the scale', () => {
    expect(rowFacts(table, caption)).toEqual([
      'Net sales > Total net sales — Three Months Ended July 1, 2023: $81,797 million',
      'Other income/(expense), net — Three Months Ended July 1, 2023: -$265 million',
      'Earnings per share > Basic — Three Months Ended July 1, 2023: $1.27',
      'Gross margin percentage — Three Months Ended July 1, 2023: 44.5%',
    ]);
  });
});

describe('column headers', () => {
  /** A header line of pieces at `y`: [text, x, right] each (what extraction's cells give). */
  const band = (y: number, pieces: Array<[string, number, number]>): ReadLine => ({
    line: { index: 0, page: 1, text: pieces.map((p) => p[0]).join(' '), x: pieces[0]?.[1] ?? 0, y, fontSize: 9 },
    pieces: pieces.map(([text, x, right]) => ({ text, x, right, figure: /^\d/u.test(text), edge: right })),
    kind: 'text',
  });
  // Two columns far apart, as a 10-Q lays out its quarter and its year-to-date pair.
  const columns: Column[] = [
    { left: 380, digitLeft: 380, right: 420, edge: 420 },
    { left: 470, digitLeft: 470, right: 510, edge: 510 },
  ];

  it('a date printed once, centred over its years, heads both (a 10-Q prints "March 31," over 2023 and 2022)', () => {
    const lines = [band(700, [['Three Months Ended', 400, 490]]), band(690, [['March 31,', 425, 465]]), band(680, [['2023', 400, 420], ['2022', 490, 510]])];
    expect(columnHeaders(lines, columns, 300, 10).columns).toEqual(['Three Months Ended March 31, 2023', 'Three Months Ended March 31, 2022']);
  });

  it('a date centred over its pair heads both, though a change column’s own header is printed nearer the first', () => {
    // | 2023 | 2022 | Percentage Change | 2023 | 2022 |, "March 31," centred over the last pair.
    const five: Column[] = [
      { left: 300, digitLeft: 300, right: 340, edge: 340 },
      { left: 360, digitLeft: 360, right: 400, edge: 400 },
      { left: 420, digitLeft: 420, right: 440, edge: 440 },
      { left: 460, digitLeft: 460, right: 500, edge: 500 },
      { left: 620, digitLeft: 620, right: 660, edge: 660 },
    ];
    const lines = [
      band(700, [['Nine Months Ended', 510, 610]]),
      band(690, [['March 31,', 320, 380], ['Change', 418, 446], ['March 31,', 530, 586]]),
      band(680, [['2023', 480, 500], ['2022', 640, 660]]),
    ];
    expect(columnHeaders(lines, five, 280, 10).columns.slice(3)).toEqual(['Nine Months Ended March 31, 2023', 'Nine Months Ended March 31, 2022']);
  });

  it('a scale centred between two columns, beside a group heading, is the table’s caption; one over its own column is that column’s', () => {
    // NVIDIA's inventory note: "Inventories (1):" in the label column, "(In millions)" across the gutter.
    const shared = [band(700, [['July 30,', 380, 420], ['January 29,', 465, 510]]), band(690, [['2023', 400, 420], ['2023', 490, 510]]), band(680, [['Inventories (1):', 60, 130], ['(In millions)', 405, 455]])];
    const out = columnHeaders(shared, columns, 300, 10);
    expect(out.columns).toEqual(['July 30, 2023', 'January 29, 2023']);
    expect(out.captions).toContain('(In millions)');
    const own = [band(700, [['Number of', 380, 420], ['Fair value', 470, 510]]), band(690, [['(in thousands)', 375, 425], ['(in millions)', 467, 513]])];
    expect(columnHeaders(own, columns, 300, 10).columns).toEqual(['Number of (in thousands)', 'Fair value (in millions)']);
  });

  it('a year or a figure far from a column does not head it', () => {
    const lines = [band(690, [['2021', 433, 453]]), band(680, [['2023', 400, 420], ['2022', 490, 510]])];
    expect(columnHeaders(lines, columns, 300, 10).columns).toEqual(['2023', '2022']);
  });
});
