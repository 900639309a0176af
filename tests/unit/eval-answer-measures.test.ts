import { describe, expect, it } from 'vitest';
import { extractFigures } from '../../eval/figures.ts';
import {
  answerStatements,
  answerWordCount,
  isNotFound,
  meanMeasures,
  measureAnswer,
  measureQuestion,
  median,
  type AnswerOutcome,
  type PageTexts,
} from '../../eval/filings-measures.ts';

/** A hand-made answer: found, not validated, citing nothing unless told. */
function answer(over: Partial<AnswerOutcome> = {}): AnswerOutcome {
  return { text: '', dateQualifier: null, citations: [], validated: false, notFound: false, ...over };
}

const cite = (file: string, start: number, end = start) => ({ file, pages: { start, end } });

const apple = { sourceFiles: ['A.pdf'], figures: extractFigures('Net sales were $81.8 billion. SOURCE(S): 2023 Q3 AAPL.pdf') };
const prose = { sourceFiles: ['A.pdf'], figures: [] };

describe('answerHasFigure: the answer text states a key figure', () => {
  it('matches a figure the answer states in another scale and rounding', () => {
    const m = measureAnswer(apple, answer({ text: 'Total net sales were $81,797 million. [1]', citations: [cite('A.pdf', 1)] }), true);
    expect(m.hasFigure).toBe(true);
    // And the other way round: the reference exact, the answer rounded as prose rounds it.
    const exact = { sourceFiles: ['A.pdf'], figures: extractFigures('$81,797 million') };
    expect(measureAnswer(exact, answer({ text: 'Sales were $81.8 billion.' }), true).hasFigure).toBe(true);
  });

  it('does not match another figure, and is null when the reference has none', () => {
    expect(measureAnswer(apple, answer({ text: 'Total net sales were $83,000 million, up 4%. [1]' }), true).hasFigure).toBe(false);
    expect(measureAnswer(prose, answer({ text: 'Sales were $81,797 million.' }), true).hasFigure).toBeNull();
  });

  it('does not count the year of the qualifier in front of the answer as a figure', () => {
    const twoBillion = { sourceFiles: ['A.pdf'], figures: extractFigures('$2.0 billion') };
    const qualifier = 'for the period ended 2023-07-01 (Apple Inc. · 10-Q · Q3 FY2023)';
    const text = 'For the period ended 2023-07-01 (Apple Inc. · 10-Q · Q3 FY2023): Services grew. [1]';
    expect(measureAnswer(twoBillion, answer({ text, dateQualifier: qualifier }), true).hasFigure).toBe(false);
    // Without the qualifier known, 2023 × 10⁶ would pass for "$2.0 billion": why it is removed.
    expect(measureAnswer(twoBillion, answer({ text, dateQualifier: null }), true).hasFigure).toBe(true);
    expect(answerStatements(text, qualifier)).toBe(': Services grew.  ');
  });

  it('does not read a citation marker as a figure', () => {
    const hundred = { sourceFiles: ['A.pdf'], figures: extractFigures('$100') };
    expect(measureAnswer(hundred, answer({ text: 'Dividends rose. [100]' }), true).hasFigure).toBe(false);
    expect(measureAnswer(hundred, answer({ text: 'Dividends rose to $100. [1]' }), true).hasFigure).toBe(true);
  });
});

describe('answerWords: median words of the answers', () => {
  it('counts tokens with a letter or digit, not citation markers or dashes', () => {
    expect(answerWordCount('For the period ended 2023-07-01: Sales rose 5% — a record. [1] [2]')).toBe(10);
    expect(answerWordCount('')).toBe(0);
  });
  it('takes the median over every answer, "not found" ones included', () => {
    expect(median([3, 1, 10, 2])).toBe(2.5);
    expect(median([7, 1, 3])).toBe(3);
    expect(median([])).toBe(0);
    const per = ['one two three', 'one', 'a b c d e f g'].map((text) => measureQuestion(prose, [], answer({ text, citations: [cite('A.pdf', 1)] })));
    per.push(measureQuestion(prose, [], answer({ text: 'Not found in the indexed documents.', notFound: true })));
    // 3, 1, 7 and the "not found" line's 6 words: the middle two are 3 and 6.
    expect(meanMeasures(per).answerWords).toBe(4.5);
  });
});

describe('citedOnlySources: every cited document is a source document', () => {
  const q = { sourceFiles: ['A.pdf', 'B.pdf'], figures: [] };
  it('holds when every citation is of a source, fails on any other document or on no citation', () => {
    expect(measureAnswer(q, answer({ citations: [cite('A.pdf', 1), cite('B.pdf', 2), cite('A.pdf', 3)] }), true).citedOnlySources).toBe(true);
    expect(measureAnswer(q, answer({ citations: [cite('A.pdf', 1), cite('C.pdf', 2)] }), true).citedOnlySources).toBe(false);
    expect(measureAnswer(q, answer({ citations: [] }), true).citedOnlySources).toBe(false);
  });
  it('is a fraction of all questions', () => {
    const per = [
      measureQuestion(q, [], answer({ citations: [cite('A.pdf', 1)] })),
      measureQuestion(q, [], answer({ citations: [cite('A.pdf', 1), cite('C.pdf', 1)] })),
      measureQuestion(q, [], answer({ citations: [] })),
      measureQuestion(q, [], answer({ citations: [cite('B.pdf', 1)] })),
    ];
    expect(meanMeasures(per).citedOnlySources).toBe(0.5);
  });
});

describe('notFoundWithSource: a "not found" answer although a source document was in the top 10', () => {
  const q = { sourceFiles: ['A.pdf'], figures: [] };
  const withSource = [{ file: 'C.pdf', body: '' }, { file: 'A.pdf', body: '' }];
  const withoutSource = [{ file: 'C.pdf', body: '' }];
  const notFound = answer({ text: 'Not found in the indexed documents.', notFound: true });
  it('recognises "not found" by the agent’s verdict or by an answer citing nothing', () => {
    expect(isNotFound({ notFound: true, citations: [] })).toBe(true);
    expect(isNotFound({ notFound: false, citations: [] })).toBe(true);
    expect(isNotFound({ notFound: false, citations: [cite('A.pdf', 1)] })).toBe(false);
  });
  it('counts a source document only within the top k', () => {
    expect(measureQuestion(q, withSource, notFound).answer?.notFoundWithSource).toBe(true);
    expect(measureQuestion(q, withoutSource, notFound).answer?.notFoundWithSource).toBe(false);
    const late = [...Array.from({ length: 10 }, () => ({ file: 'C.pdf', body: '' })), { file: 'A.pdf', body: '' }];
    expect(measureQuestion(q, late, notFound).answer?.notFoundWithSource).toBe(false);
    expect(measureQuestion(q, late, notFound, { k: 11 }).answer?.notFoundWithSource).toBe(true);
  });
  it('is a fraction of the "not found" answers, with their count', () => {
    const per = [
      measureQuestion(q, withSource, notFound),
      measureQuestion(q, withoutSource, notFound),
      measureQuestion(q, withSource, answer({ text: 'The extractive answerer found no sentence.' })),
      measureQuestion(q, withSource, answer({ text: 'Sales rose. [1]', citations: [cite('A.pdf', 1)] })),
    ];
    expect(per[3]?.answer).toMatchObject({ notFound: false, notFoundWithSource: false });
    expect(meanMeasures(per)).toMatchObject({ notFoundCount: 3, notFoundWithSource: 2 / 3 });
    expect(meanMeasures([per[3]!])).toMatchObject({ notFoundCount: 0, notFoundWithSource: 0 });
  });
});

describe('citedPageHasEvidence: a cited page of a source document holds a key figure', () => {
  const pages: PageTexts = new Map([
    ['A.pdf', new Map([[3, 'Item 2. Management’s discussion'], [4, 'Total net sales 81,797 82,959'], [5, 'Net sales 81,797']])],
    ['C.pdf', new Map([[1, 'Total net sales 81,797']])],
  ]);
  const measure = (citations: AnswerOutcome['citations'], q = apple) => measureAnswer(q, answer({ text: 'x', citations }), true, pages).citedPageHasEvidence;
  it('counts a figure on any page of the cited range', () => {
    expect(measure([cite('A.pdf', 3, 4)])).toBe(true);
    expect(measure([cite('C.pdf', 1), cite('A.pdf', 4)])).toBe(true);
  });
  it('not on a page outside the range, not in another company’s filing, not without page text', () => {
    expect(measure([cite('A.pdf', 3)])).toBe(false);
    expect(measure([cite('C.pdf', 1)])).toBe(false);
    expect(measure([cite('A.pdf', 9)])).toBe(false);
    expect(measure([])).toBe(false);
    expect(measure([cite('A.pdf', 4)], prose)).toBeNull();
  });
  it('is a fraction of the questions with figures, as answerHasFigure is', () => {
    const per = [
      measureQuestion(apple, [], answer({ text: 'Sales were $81.8 billion. [1]', citations: [cite('A.pdf', 4)] }), { pages }),
      measureQuestion(apple, [], answer({ text: 'Sales grew. [1]', citations: [cite('A.pdf', 3)] }), { pages }),
      measureQuestion(prose, [], answer({ text: 'Leases. [1]', citations: [cite('A.pdf', 4)] }), { pages }),
    ];
    expect(meanMeasures(per)).toMatchObject({ evidenceCovered: 2, citedPageHasEvidence: 0.5, answerHasFigure: 0.5 });
  });
});

describe('answer means appear only for an answering mode', () => {
  it('leaves them out when a question has no answer', () => {
    const mean = meanMeasures([measureQuestion(apple, [{ file: 'A.pdf', body: '81,797' }])]);
    for (const key of ['answerHasFigure', 'answerWords', 'citedOnlySources', 'notFoundWithSource', 'notFoundCount', 'citedPageHasEvidence']) {
      expect(mean).not.toHaveProperty(key);
    }
  });
});
