/**
 * The small readers tables are made of: figures as printed, what a caption says of scale and
 * unit, a line's runs kept apart at column gaps, and a section's text without a table's lines.
 */
import { describe, expect, it } from 'vitest';
import type { Section } from '../../shared/domain/section.ts';
import { lineCells, type CellRun } from '../../shared/pdf/line-cells.ts';
import { captionFacts, isCaption, rowScale } from '../../shared/tables/caption.ts';
import { withoutLines } from '../../shared/tables/sections.ts';
import { parseFigure, splitFigures } from '../../shared/tables/values.ts';

describe('parseFigure', () => {
  it.each([
    ['81,797', 81797, null, false],
    ['$ 81,797', 81797, '$', false],
    ['(1,234)', -1234, null, false],
    ['$ (980)', -980, '$', false],
    ['(980 )', -980, null, false],
    ['-12.5', -12.5, null, false],
    ['3 %', 3, null, true],
    ['(0.3)%', -0.3, null, true],
    ['△1,234', -1234, null, false],
    ['0.27', 0.27, null, false],
  ])('%s → %s', (text, value, currency, percent) => {
    expect(parseFigure(text)).toEqual({ value, currency, percent });
  });

  it('reads dashes and n/a as figures without a value, and words or unbalanced parentheses as no figure', () => {
    for (const t of ['—', '-', '–', 'n/a', 'NM']) expect(parseFigure(t)).toEqual({ value: null, currency: null, percent: false });
    for (const t of ['Net sales', '(1,234', 'Q3 2023', '2023 Form 10-Q', '']) expect(parseFigure(t)).toBeNull();
  });

  it('splits figures run together into one cell, keeping a currency sign with the figure after it', () => {
    expect(splitFigures('15,535 15,741')).toEqual(['15,535', '15,741']);
    expect(splitFigures('$ 15,535 $ 15,741')).toEqual(['$ 15,535', '$ 15,741']);
    expect(splitFigures('3 %')).toBeNull();
    expect(splitFigures('Total 15,741')).toBeNull();
  });
});

describe('captions', () => {
  it('reads scale, unit and the rows an "except" clause takes out of the scale', () => {
    const facts = captionFacts(['(In millions, except number of shares which are reflected in thousands and per share amounts)']);
    expect([facts.scale, facts.unit]).toEqual(['millions', null]);
    expect(rowScale(facts, 'Net sales > Total net sales')).toEqual({ scale: 'millions', excepted: false });
    expect(rowScale(facts, 'Earnings per share > Basic')).toEqual({ scale: null, excepted: true });
    // Both exceptions name it; the one naming it with more words wins.
    expect(rowScale(facts, 'Shares used in computing earnings per share > Basic')).toEqual({ scale: null, excepted: true });
    expect(rowScale(facts, 'Weighted-average shares > Basic')).toEqual({ scale: 'thousands', excepted: true });
    expect(captionFacts(['(Dollars in thousands)'])).toMatchObject({ scale: 'thousands', unit: '$' });
    expect(captionFacts(['(단위: 백만원)'])).toMatchObject({ scale: '백만', unit: '원' });
  });

  it('tells a caption line from a lead-in sentence and from prose', () => {
    expect(isCaption('(In millions, except per share data)')).toBe(true);
    expect(isCaption('(unaudited)')).toBe(true);
    expect(isCaption('Dollars in millions')).toBe(true);
    expect(isCaption('September 24, 2022 (in millions):')).toBe(false);
    expect(isCaption('Revenue grew by a few millions of dollars over the year, driven by services.')).toBe(false);
  });
});

describe('lineCells', () => {
  const run = (text: string, along: number, width: number, size = 8): CellRun => ({ text, along, end: along + width, fontSize: size, angle: 0, x: along, rtl: false, blank: false });

  it('splits at column gaps, joins a currency sign to its figure (also one printed after the previous figure)', () => {
    const runs = [run('Product', 28, 31), run('$', 422, 5), run('15,535', 440, 27), run('$', 501, 5), run('15,741', 545, 27)];
    expect(lineCells(runs)?.map((c) => c[2])).toEqual(['Product', '$ 15,535', '$ 15,741']);
    // "$" a word space after 15,535: the sign still goes with the figure after the gutter.
    const tight = [run('Product', 28, 31), run('$', 422, 5), run('15,535', 440, 27), run('$', 468, 5), run('15,741', 545, 27)];
    expect(lineCells(tight)?.map((c) => [c[0], c[2]])).toEqual([[28, 'Product'], [422, '$ 15,535'], [468, '$ 15,741']]);
  });

  it('leaves prose alone: word spaces, a justified line of evenly stretched gaps, blank runs filling a gap', () => {
    expect(lineCells([run('The', 18, 15), run('quarter', 35, 30)])).toBeUndefined();
    const justified = ['The', 'following', 'table', 'summarizes', 'our', 'revenue'].map((w, i) => run(w, 18 + i * 50, 40));
    expect(lineCells(justified)).toBeUndefined();
    const gapFiller = { ...run(' ', 60, 250), blank: true };
    expect(lineCells([run('Services', 26, 31), gapFiller, run('21,213', 345, 25)])?.map((c) => c[2])).toEqual(['Services', '21,213']);
  });
});

describe('withoutLines', () => {
  it('drops a table’s lines from a section’s text, keeping every other span on its exact text', () => {
    const text = 'Intro line one\n\nTable row A\nTable row B\n\nAfter the table.';
    const section: Section = {
      id: 's1', title: 'T', heading: 't', path: ['T'], level: 1, order: 1, text, pageStart: 1, pageEnd: 2, source: 'pattern',
      spans: [[0, 14, 1, 3], [16, 27, 1, 4], [28, 39, 2, 5], [41, 57, 2, 6]],
    };
    const out = withoutLines(section, new Set([4, 5]));
    expect(out.text).toBe('Intro line one\n\nAfter the table.');
    for (const [s, e, , line] of out.spans ?? []) expect(out.text.slice(s, e)).toBe(text.slice(...(section.spans?.find((sp) => sp[3] === line)?.slice(0, 2) as [number, number])));
    expect(out.spans?.map((s) => s[3])).toEqual([3, 6]);
    expect(withoutLines(section, new Set([3, 4, 5, 6])).text).toBe('');
    expect(withoutLines(section, new Set([99]))).toBe(section);
  });
});
