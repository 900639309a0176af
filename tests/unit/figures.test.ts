import { describe, expect, it } from 'vitest';
import type { DocTable, TableRow } from '../../shared/domain/table.ts';
import { bestCell, figureAsk, labelScore } from '../../shared/figures/cell-match.ts';
import { figureSentence, figureText, periodPhrase } from '../../shared/figures/figure-sentence.ts';
import { groupsOf } from '../../shared/figures/glossary.ts';
import { periodFacts, periodFit } from '../../shared/figures/periods.ts';

const cell = (text: string, value: number | null, page = 4) => ({ text, value, page, box: [300, 600, 40, 9] as [number, number, number, number] });
const row = (label: string, cells: ReturnType<typeof cell>[], parents: string[] = [], level = parents.length): TableRow => ({ label, level, parents, cells, line: 0, page: 4 });

/** A statement of operations as a 10-Q prints it: two quarters, then two year-to-date columns. */
const OPERATIONS: DocTable = {
  title: 'CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)',
  columns: ['Three Months Ended July 1, 2023', 'Three Months Ended June 25, 2022', 'Nine Months Ended July 1, 2023', 'Nine Months Ended June 25, 2022'],
  rows: [
    row('Net sales:', []),
    row('Products', [cell('$ 60,584', 60584), cell('$ 63,355', 63355), cell('$ 235,988', 235988), cell('$ 245,241', 245241)], ['Net sales:']),
    row('Services', [cell('21,213', 21213), cell('19,604', 19604), cell('62,886', 62886), cell('58,941', 58941)], ['Net sales:']),
    row('Total net sales', [cell('81,797', 81797), cell('82,959', 82959), cell('298,085', 298085), cell('304,182', 304182)], ['Net sales:']),
    row('Cost of sales:', []),
    row('Total cost of sales', [cell('45,384', 45384), cell('47,074', 47074), cell('165,615', 165615), cell('172,352', 172352)], ['Cost of sales:']),
    row('Research and development', [cell('$ 7,442', 7442), cell('$ 6,797', 6797), cell('$ 22,608', 22608), cell('$ 19,490', 19490)], ['Operating expenses:']),
    row('Other income/(expense), net', [cell('(265)', -265), cell('(10)', -10), cell('(594)', -594), cell('(97)', -97)]),
    row('Diluted', [cell('$ 1.26', 1.26), cell('$ 1.20', 1.2), cell('$ 4.66', 4.66), cell('$ 4.60', 4.6)], ['Earnings per share:']),
  ],
  unit: '$',
  scale: 'millions',
  pageStart: 4,
  pageEnd: 4,
};

describe('periods in headers and questions', () => {
  it('reads end dates, lengths, quarters and years', () => {
    expect(periodFacts('Three Months Ended July 1, 2023')).toEqual({ endDate: '2023-07-01', months: 3, year: 2023, quarter: null });
    expect(periodFacts('Nine Months Ended September 30, 2023')).toMatchObject({ endDate: '2023-09-30', months: 9 });
    expect(periodFacts('December 31, 2022')).toMatchObject({ endDate: '2022-12-31', months: null });
    // A quarter by its number says no length: a 10-Q reports its cash flows for the year to date.
    expect(periodFacts('What was revenue in Q3 2023?')).toMatchObject({ quarter: 3, year: 2023, months: null });
    expect(periodFacts('in the quarter ended July 1, 2023')).toMatchObject({ endDate: '2023-07-01', months: 3 });
    expect(periodFacts('for fiscal year 2022')).toMatchObject({ year: 2022, months: 12 });
  });

  it('fits a column to the asked period; another end date or length contradicts', () => {
    const q3 = periodFacts('Three Months Ended July 1, 2023');
    expect(periodFit(q3, periodFacts('in the quarter ended July 1, 2023'), null)).toBeGreaterThan(0.9);
    expect(periodFit(periodFacts('Nine Months Ended July 1, 2023'), periodFacts('in the quarter ended July 1, 2023'), null)).toBe(0);
    expect(periodFit(periodFacts('Three Months Ended June 25, 2022'), periodFacts('in the quarter ended July 1, 2023'), null)).toBe(0);
    // "Q3 2023" names no date: the document's own period decides.
    expect(periodFit(q3, periodFacts('in Q3 2023'), '2023-07-01')).toBeGreaterThan(periodFit(periodFacts('Three Months Ended June 25, 2022'), periodFacts('in Q3 2023'), '2023-07-01'));
    // A header that could not be read is the document's own period: never the nine months asked.
    const unread = periodFacts('');
    expect(periodFit(unread, periodFacts('in the nine months ended September 30, 2023'), '2023-09-30')).toBe(0);
    expect(periodFit(unread, periodFacts('in Q3 2023'), '2023-09-30')).toBeGreaterThan(0);
  });
});

describe('which row names the metric', () => {
  it('the glossary makes synonyms match, and a word inside a longer item does not', () => {
    expect(groupsOf('revenue')).toEqual(groupsOf('Total net sales'));
    expect(groupsOf('Cost of sales')).not.toEqual(groupsOf('net sales'));
    expect(groupsOf('Purchases of property, plant and equipment')).toEqual(groupsOf('capital expenditures'));
  });

  it('scores the total over its parts when the question says total, and revenue finds net sales', () => {
    const total = OPERATIONS.rows[3]!;
    const services = OPERATIONS.rows[2]!;
    expect(labelScore('total net sales', total)).toBeGreaterThan(labelScore('total net sales', services));
    expect(labelScore('revenue', total)).toBeGreaterThanOrEqual(0.6);
    expect(labelScore('revenue', OPERATIONS.rows[5]!)).toBeLessThan(0.6);
  });
});

describe('the cell that answers, and its sentence', () => {
  it("Apple's total net sales in the quarter ended July 1, 2023: $81,797 million, from its row and column", () => {
    const ask = figureAsk("What was Apple's total net sales in the quarter ended July 1, 2023?", ['Apple Inc.', 'apple', 'aapl']);
    expect(ask.metric).toBe('total net sales');
    const m = bestCell(ask, [{ table: OPERATIONS, documentEnd: '2023-07-01', rank: 0 }]);
    expect(m).toMatchObject({ row: 3, column: 0, cell: { text: '81,797' } });
    const sentence = figureSentence({ organisation: 'Apple Inc.', table: OPERATIONS, row: OPERATIONS.rows[m!.row]!, column: m!.column, cell: m!.cell, n: 1, lang: 'en' });
    expect(sentence).toBe('Apple Inc.’s total net sales for the three months ended July 1, 2023 were $81,797 million [1].');
  });

  it('picks the nine-month column when asked, the prior year when its date is asked, and none for a period the table lacks', () => {
    const nine = bestCell(figureAsk('What were net sales for the nine months ended July 1, 2023?'), [{ table: OPERATIONS, documentEnd: '2023-07-01', rank: 0 }]);
    expect(nine?.cell.text).toBe('298,085');
    const prior = bestCell(figureAsk('Research and development expense in the three months ended June 25, 2022?'), [{ table: OPERATIONS, documentEnd: '2023-07-01', rank: 0 }]);
    expect(prior?.cell.text).toBe('$ 6,797');
    expect(bestCell(figureAsk('What was revenue for the quarter ended December 31, 2021?'), [{ table: OPERATIONS, documentEnd: '2023-07-01', rank: 0 }])).toBeNull();
  });

  it('no row names an unrelated metric: no answer from the table', () => {
    expect(bestCell(figureAsk('How many employees did the company have?'), [{ table: OPERATIONS, documentEnd: '2023-07-01', rank: 0 }])).toBeNull();
  });

  it('writes negatives, per-share amounts (no scale) and percentages as a reader does', () => {
    expect(figureText(OPERATIONS, OPERATIONS.rows[7]!, OPERATIONS.rows[7]!.cells[0]!)).toBe('-$265 million');
    expect(figureText(OPERATIONS, OPERATIONS.rows[8]!, OPERATIONS.rows[8]!.cells[0]!)).toBe('$1.26');
    expect(figureText({ ...OPERATIONS, unit: '%', scale: null }, row('Gross margin percentage', []), cell('44.5 %', 44.5))).toBe('44.5%');
    expect(periodPhrase('December 31, 2022')).toBe('as of December 31, 2022');
    expect(periodPhrase('Fiscal 2023')).toBe('for the fiscal 2023');
  });
});

describe('rows a question means', () => {
  it('a row named by a word of its own beats a total the glossary matches ("iPhone" in "revenue from iPhone sales")', () => {
    const iphone = row('iPhone', [cell('$ 39,669', 39669)], ['Net sales by category:']);
    const total = OPERATIONS.rows[3]!;
    expect(labelScore('revenue iphone sales', iphone)).toBeGreaterThan(labelScore('revenue iphone sales', total));
  });

  it('"cash flow from operating activities" is the operating cash row, not "Cash"', () => {
    const ask = figureAsk("What was Apple's cash flow from operating activities as reported in the Q3 2022 10-Q?", ['Apple Inc.', 'apple']);
    const cash = row('Cash', [cell('$ 12,852', 12852)]);
    const operating = row('Cash generated by operating activities', [cell('98,024', 98024)]);
    expect(labelScore(ask.metric, operating)).toBeGreaterThanOrEqual(0.7);
    expect(labelScore(ask.metric, cash)).toBeLessThan(0.7);
  });

  it('a figure printed with words ("3.9pts") answers no amount', () => {
    const margin: DocTable = { ...OPERATIONS, columns: ['Three Months Ended October 29, 2023'], rows: [row('Gross margin', [cell('3.9pts', 3.9)])] };
    expect(bestCell(figureAsk('What was the gross margin?'), [{ table: margin, documentEnd: '2023-10-29', rank: 0 }])).toBeNull();
  });
});

describe('a row named by the question', () => {
  it('the iPhone row of a note is the answer to a question about iPhone sales, not the statement’s total', () => {
    const note: DocTable = { ...OPERATIONS, title: 'Net sales by category', rows: [row('iPhone', [cell('$ 39,669', 39669), cell('$ 40,665', 40665), cell('$ 156,778', 156778), cell('$ 162,863', 162863)], ['Net sales by category:']), OPERATIONS.rows[3]!] };
    const ask = figureAsk("For the latest quarter, what was the total revenue generated from Apple's iPhone sales?", ['Apple Inc.', 'apple']);
    const m = bestCell({ ...ask, period: { ...ask.period, endDate: '2023-07-01' } }, [
      { table: OPERATIONS, documentEnd: '2023-07-01', rank: 0 },
      { table: note, documentEnd: '2023-07-01', rank: 1 },
    ]);
    expect(m?.cell.text).toBe('$ 39,669');
  });
});
