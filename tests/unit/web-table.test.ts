/**
 * The web app's cited passages, pure parts: a table's rendering model, the match of a citation's
 * cell, the rows shown, the caption, prose excerpts, and what the viewer highlights for a citation.
 */
import { describe, expect, it } from 'vitest';
import type { CitedCell } from '../../apps/web/src/api.ts';
import { citedHighlight } from '../../apps/web/src/line-boxes.ts';
import { findCitedCell, labelPath, passageExcerpt, shownRows, tableCaption, tableView } from '../../apps/web/src/table-view.ts';
import { composeFigureAnswer } from '../../shared/agent/figure-answer.ts';
import type { DocTable, TableCell, TableRow } from '../../shared/domain/table.ts';
import { labelPath as sharedLabelPath } from '../../shared/tables/facts.ts';
import { renderTable } from '../../shared/tables/markdown.ts';

const cell = (text: string, value: number | null, x = 300, y = 600): TableCell => ({ text, value, page: 4, box: [x, y, 40, 9] });
const row = (label: string, cells: (TableCell | null)[], parents: string[] = [], level = parents.length, y = 600): TableRow => ({
  label,
  level,
  parents,
  cells: cells.map((c) => (c?.box ? { ...c, box: [c.box[0], y, c.box[2], c.box[3]] } : c)),
  line: 0,
  page: 4,
});

/** A statement of operations as a 10-Q prints it: two quarters, then two year-to-date columns. */
const OPERATIONS: DocTable = {
  title: 'CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS',
  columns: ['Three Months Ended July 1, 2023', 'Three Months Ended June 25, 2022', 'Nine Months Ended July 1, 2023', 'Nine Months Ended June 25, 2022'],
  rows: [
    row('Net sales:', [null, null, null, null], [], 0, 700),
    row('Products', [cell('$ 60,584', 60584, 280), cell('$ 63,355', 63355, 350), cell('$ 230,901', 230901, 420), cell('$ 245,241', 245241, 490)], ['Net sales:'], 1, 688),
    row('Services', [cell('21,213', 21213, 280), cell('19,604', 19604, 350), cell('62,886', 62886, 420), cell('58,941', 58941, 490)], ['Net sales:'], 1, 676),
    row('Total net sales', [cell('81,797', 81797, 280), cell('82,959', 82959, 350), cell('293,787', 293787, 420), cell('304,182', 304182, 490)], ['Net sales:'], 2, 664),
    row('Other income/(expense), net', [cell('(265)', -265, 280), cell('(10)', -10, 350), cell('(594)', -594, 420), cell('—', null, 490)], [], 0, 652),
    // A row printed short of cells (the last column left blank).
    row('Basic', [cell('$ 1.27', 1.27, 280), cell('$ 1.20', 1.2, 350), cell('$ 4.69', 4.69, 420)], ['Earnings per share:'], 1, 640),
  ],
  unit: '$',
  scale: 'millions',
  pageStart: 4,
  pageEnd: 4,
};

const TOTAL: CitedCell = { row: 'Net sales > Total net sales', column: 'Three Months Ended July 1, 2023', text: '81,797', page: 4, box: [280, 664, 40, 9] };

describe('a table row’s label path', () => {
  it('is the gateway’s (shared/tables/facts.ts): group headings first, colons dropped', () => {
    for (const r of OPERATIONS.rows) expect(labelPath(r)).toBe(sharedLabelPath(r));
    expect(labelPath(OPERATIONS.rows[3]!)).toBe('Net sales > Total net sales');
    expect(labelPath({ label: '', parents: [] })).toBe('');
  });
});

describe('the cited cell of a table', () => {
  it('is found by row path, column header and printed text', () => {
    expect(findCitedCell(OPERATIONS, TOTAL)).toEqual({ row: 3, column: 0 });
    expect(findCitedCell(OPERATIONS, { row: 'Earnings per share > Basic', column: 'Nine Months Ended July 1, 2023', text: '$ 4.69', page: 4 })).toEqual({ row: 5, column: 2 });
    // Spacing as the Markdown prints it (non-breaking spaces, doubled spaces) does not matter.
    expect(findCitedCell(OPERATIONS, { ...TOTAL, row: 'Net sales >\u00a0Total  net sales', column: 'Three Months Ended  July 1, 2023' })).toEqual({ row: 3, column: 0 });
  });

  it('is none when any of the three disagrees: a neighbour is never marked', () => {
    expect(findCitedCell(OPERATIONS, { ...TOTAL, text: '82,959' })).toBeNull();
    expect(findCitedCell(OPERATIONS, { ...TOTAL, row: 'Total net sales' })).toBeNull();
    expect(findCitedCell(OPERATIONS, { ...TOTAL, column: 'Twelve Months Ended July 1, 2023' })).toBeNull();
    // A part of a split table without the cited row.
    expect(findCitedCell({ ...OPERATIONS, rows: OPERATIONS.rows.slice(4) }, TOTAL)).toBeNull();
  });

  it('of a label path printed twice, is the one at the cited box', () => {
    const twice: DocTable = { ...OPERATIONS, rows: [...OPERATIONS.rows, row('Total net sales', [cell('81,797', 81797, 280), null, null, null], ['Net sales:'], 2, 400)] };
    expect(findCitedCell(twice, TOTAL)).toEqual({ row: 3, column: 0 });
    expect(findCitedCell(twice, { ...TOTAL, box: [280, 400, 40, 9] })).toEqual({ row: 6, column: 0 });
  });

  it('is the cell a figure answer cites (shared/agent/figure-answer.ts)', () => {
    const chunk = { chunkId: 'c1', docId: 'd1', title: 'Apple 10-Q', sectionPath: 'Financial Statements', pageStart: 4, pageEnd: 4, body: renderTable(OPERATIONS, []).text, validFrom: null, validTo: null, table: OPERATIONS };
    const answer = composeFigureAnswer('What was total net sales for the three months ended July 1, 2023?', [chunk], () => ({ organisation: 'Apple Inc.', aliases: ['Apple'], periodEnd: '2023-07-01' }), 'en');
    const cited = answer?.citations[0]?.cell;
    expect(cited, answer?.text).toBeDefined();
    expect(findCitedCell(OPERATIONS, cited!)).toEqual({ row: 3, column: 0 });
  });
});

describe('a table as the page draws it', () => {
  it('has one cell per column, figures’ columns right-aligned, group headings as headings, the cited cell marked once', () => {
    const view = tableView(OPERATIONS, TOTAL);
    expect(view.title).toBe('CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS');
    expect(view.columns.map((c) => c.numeric)).toEqual([true, true, true, true]);
    expect(view.rows.map((r) => [r.label, r.level, r.heading])).toEqual([
      ['Net sales:', 0, true],
      ['Products', 1, false],
      ['Services', 1, false],
      ['Total net sales', 2, false],
      ['Other income/(expense), net', 0, false],
      ['Basic', 1, false],
    ]);
    expect(view.rows[5]!.cells.map((c) => c.text)).toEqual(['$ 1.27', '$ 1.20', '$ 4.69', '']);
    expect(view.rows.every((r) => r.cells.length === 4)).toBe(true);
    const marked = view.rows.flatMap((r) => r.cells.filter((c) => c.cited).map((c) => [r.label, c.text]));
    expect(marked).toEqual([['Total net sales', '81,797']]);
    expect(view.rows.filter((r) => r.cited).map((r) => r.index)).toEqual([3]);
    expect(view.cited).toEqual({ row: 3, column: 0 });
  });

  it('marks nothing without a citation, or with one it does not hold', () => {
    for (const view of [tableView(OPERATIONS), tableView(OPERATIONS, { ...TOTAL, text: '1' })]) {
      expect(view.cited).toBeNull();
      expect(view.rows.some((r) => r.cited || r.cells.some((c) => c.cited))).toBe(false);
    }
  });

  it('left-aligns a column of words; a column of dashes and figures stays right-aligned', () => {
    const words: DocTable = {
      ...OPERATIONS,
      columns: ['Segment', 'Amount'],
      rows: [row('A', [cell('Americas', null), cell('—', null)]), row('B', [cell('Europe', null), cell('12', 12)]), row('C', [cell('Japan', null), cell('3', 3)])],
    };
    expect(tableView(words).columns.map((c) => c.numeric)).toEqual([false, true]);
  });
});

describe('the rows shown before "show all"', () => {
  it('are all of a short table; of a long one, a window around the cited row, kept inside the table', () => {
    expect(shownRows(10, 8, 14)).toEqual({ from: 0, to: 10 });
    expect(shownRows(40, null, 14)).toEqual({ from: 0, to: 14 });
    expect(shownRows(40, 20, 14)).toEqual({ from: 16, to: 30 });
    expect(shownRows(40, 2, 14)).toEqual({ from: 0, to: 14 });
    expect(shownRows(40, 39, 14)).toEqual({ from: 26, to: 40 });
    for (const cited of [0, 13, 14, 27, 39]) {
      const { from, to } = shownRows(40, cited, 14);
      expect(cited >= from && cited < to).toBe(true);
    }
  });
});

describe('a table chunk’s caption', () => {
  it('is the lines between its title and its pipe table', () => {
    const body = renderTable(OPERATIONS, ['(In millions, except per-share amounts)']).text;
    expect(tableCaption(body, OPERATIONS.title)).toEqual(['(In millions, except per-share amounts)']);
    expect(tableCaption(renderTable(OPERATIONS, []).text, OPERATIONS.title)).toEqual([]);
    expect(tableCaption('no table here', 'x')).toEqual([]);
  });
});

describe('a prose passage under an answer', () => {
  const body = 'The keeper polishes the lens every Tuesday.\nSalt spray leaves a film on the prisms within two days of onshore wind. Never use spirit on the prisms, because the brass corrodes.';
  const quoted = 'Salt spray leaves a film on the prisms within two days of onshore wind.';
  const q = { start: body.indexOf(quoted), end: body.indexOf(quoted) + quoted.length };

  it('shows the quote whole, marked, with the text around it', () => {
    expect(passageExcerpt(body, q)).toEqual({ before: 'The keeper polishes the lens every Tuesday. ', quoted, after: ' Never use spirit on the prisms, because the brass corrodes.' });
  });

  it('cuts the text around a quote at words, with "…", within about the length asked', () => {
    const e = passageExcerpt(body, q, quoted.length + 30);
    expect(e.quoted).toBe(quoted);
    expect(e.before).toMatch(/^….*Tuesday\. $/);
    expect(e.after).toMatch(/^ Never .*…$/);
    expect(`${e.before}${e.quoted}${e.after}`.length).toBeLessThanOrEqual(quoted.length + 30 + 4);
    // A quote longer than the length asked is still shown whole.
    expect(passageExcerpt(body, q, 10)).toEqual({ before: '… ', quoted, after: ' …' });
  });

  it('without a quote, shows the start; a quote out of the body is kept inside it', () => {
    expect(passageExcerpt(body, undefined, 30)).toEqual({ before: '', quoted: '', after: 'The keeper polishes the lens…' });
    expect(passageExcerpt('short', undefined)).toEqual({ before: '', quoted: '', after: 'short' });
    expect(passageExcerpt('short text', { start: 6, end: 999 })).toEqual({ before: 'short ', quoted: 'text', after: '' });
  });
});

describe('what the viewer highlights for a citation', () => {
  it('a cited cell’s box (a printed line’s measure), with no request', () => {
    expect(citedHighlight({ chunkId: 'c', quote: { start: 0, end: 5 }, cell: { page: 4, box: [280, 664, 40, 9] } })).toEqual({ by: 'cell', lines: [{ page: 4, x: 280, y: 664, width: 40, height: 9 }] });
  });

  it('else the quoted lines, or the whole chunk’s', () => {
    expect(citedHighlight({ chunkId: 'c 1', quote: { start: 12, end: 80 } })).toEqual({ by: 'lines', path: '/v1/chunks/c%201/lines?from=12&to=80' });
    // A cell without a box (read before boxes were kept) is found by its lines.
    expect(citedHighlight({ chunkId: 'c', cell: { page: 4 } })).toEqual({ by: 'lines', path: '/v1/chunks/c/lines' });
  });
});
