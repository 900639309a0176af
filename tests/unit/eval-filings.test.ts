import { describe, expect, it } from 'vitest';
import { FilingsFormatError, globMatches, isFilingsDataset, loadFilings, parseCsv, questionsFromCsv } from '../../eval/filings-data.ts';
import type { FilingsReport } from '../../eval/filings-harness.ts';
import { meanMeasures, measureQuestion, type AnswerOutcome } from '../../eval/filings-measures.ts';
import { filingsToJson, formatFilingsTable } from '../../eval/filings-report.ts';
import { anyPassageHasFigure, extractFigures, passageHasFigure } from '../../eval/figures.ts';
import { sortTies } from '../../eval/retrieved.ts';
import { sharedPath } from '../helpers/shared-data.ts';

describe('parseCsv', () => {
  it('drops the byte-order mark and keeps quoted newlines, commas and doubled quotes', () => {
    const text = '\ufeffQuestion,Source Docs,Answer\r\n"How, and why?",*AAPL*,"Line one\nline ""two""\r\nline three"\r\nplain,*MSFT*,x\n';
    expect(parseCsv(text)).toEqual([
      ['Question', 'Source Docs', 'Answer'],
      ['How, and why?', '*AAPL*', 'Line one\nline "two"\r\nline three'],
      ['plain', '*MSFT*', 'x'],
    ]);
  });

  it('keeps a last row without a newline and skips blank lines', () => {
    expect(parseCsv('a,b\n\nc,d')).toEqual([['a', 'b'], ['c', 'd']]);
  });

  it('names the line of a quote left open', () => {
    expect(() => parseCsv('a,b\nc,"open\nstill')).toThrow(new FilingsFormatError('unterminated quoted field opened on line 2'));
  });
});

describe('globMatches', () => {
  const files = ['2022 Q3 AAPL.pdf', '2023 Q1 AAPL.pdf', '2023 Q3 NVDA.pdf', '2023 Q3 AMZN.pdf'];
  it('matches every filing of a company, or one filing, ignoring case and the extension', () => {
    expect(files.filter((f) => globMatches('*AAPL*', f))).toEqual(['2022 Q3 AAPL.pdf', '2023 Q1 AAPL.pdf']);
    expect(files.filter((f) => globMatches('*2023 Q3 NVDA*', f))).toEqual(['2023 Q3 NVDA.pdf']);
    expect(files.filter((f) => globMatches('2023 q3 amzn', f))).toEqual(['2023 Q3 AMZN.pdf']);
    expect(files.filter((f) => globMatches('2023 Q? A*', f))).toEqual(['2023 Q1 AAPL.pdf', '2023 Q3 AMZN.pdf']);
  });
  it('treats regex characters literally', () => {
    expect(globMatches('*Q3 (final)*', '2023 Q3 (final).pdf')).toBe(true);
    expect(globMatches('*Q3.AAPL*', '2023 Q3 AAPL.pdf')).toBe(false);
  });
});

describe('questionsFromCsv', () => {
  it('resolves globs against the files and leaves out questions that match none', () => {
    const rows = [
      ['Question', 'Source Docs', 'Question Type', 'Source Chunk Type', 'Answer'],
      ['Apple sales?', '*AAPL*', 'Multi-Doc RAG', 'Table', '$1,000 million'],
      ['Tesla?', '*TSLA*', 'Single-Doc Single-Chunk RAG', 'Text', 'x'],
      ['Both?', '*2023 Q1 AAPL*, *NVDA*', 'Multi-Doc RAG', 'Text', 'y'],
    ];
    const { questions, unmatched } = questionsFromCsv(rows, ['2023 Q1 AAPL.pdf', '2023 Q2 AAPL.pdf', '2023 Q1 NVDA.pdf']);
    expect(unmatched).toBe(1);
    expect(questions.map((q) => [q.id, q.sourceFiles])).toEqual([
      ['q1', ['2023 Q1 AAPL.pdf', '2023 Q2 AAPL.pdf']],
      ['q3', ['2023 Q1 AAPL.pdf', '2023 Q1 NVDA.pdf']],
    ]);
    expect(questions[0]).toMatchObject({ questionType: 'Multi-Doc RAG', chunkType: 'Table', answer: '$1,000 million' });
  });
  it('refuses a CSV without the required columns', () => {
    expect(() => questionsFromCsv([['Question', 'Answer']], [])).toThrow(/no "Source Docs" column/);
  });
});

describe('extractFigures', () => {
  it('normalises separators, million/billion, percentages and parenthesised negatives', () => {
    const f = extractFigures('Net sales were $82,959 million, up 17%, R&D $4.255 billion; a loss of $(1,234) million; margin 43.3 percent.');
    expect(f.map((x) => [x.kind, x.value])).toEqual([
      ['money', 82_959e6],
      ['percent', 17],
      ['money', 4.255e9],
      ['money', 1_234e6],
      ['percent', 43.3],
    ]);
    expect(f[2]?.tolerance).toBeCloseTo(0.5e6);
  });
  it('ignores years, quarters, counts and SOURCE markers; drops duplicates', () => {
    const f = extractFigures('In Q3 2022 the 3 segments earned $7,709 million (SOURCE: 2023 Q1 AAPL.pdf). $7,709 million again.\nSOURCE(S): 2022 Q3 AAPL.pdf');
    expect(f.map((x) => x.value)).toEqual([7_709e6]);
  });
  it('finds no figures in a prose answer', () => {
    expect(extractFigures('Legal proceedings are in Item 1 of Part II, on page 51.')).toEqual([]);
  });
});

describe('passageHasFigure', () => {
  const [sales] = extractFigures('$82,959 million');
  const [dcai] = extractFigures('$4.255 billion');
  const [rounded] = extractFigures('$3.7 billion');
  const [growth] = extractFigures('17%');
  it('finds a money figure in a table printed in millions, in any scale', () => {
    expect(passageHasFigure('Total net sales (in millions) 82,959 97,278', sales!)).toBe(true);
    expect(passageHasFigure('DCAI revenue 4,255 4,950', dcai!)).toBe(true);
    expect(passageHasFigure('DCAI revenue 3,717', rounded!)).toBe(true);
    expect(passageHasFigure('Loss (82,959)', sales!)).toBe(true);
    expect(passageHasFigure('Revenue was $83.0 billion', sales!)).toBe(true);
  });
  it('does not match other numbers, or short bare numbers by accident', () => {
    expect(passageHasFigure('Total net sales 82,958 and 829', sales!)).toBe(false);
    expect(passageHasFigure('Note 4 on page 3', rounded!)).toBe(false);
    expect(passageHasFigure('DCAI revenue 3,917', rounded!)).toBe(false);
  });
  it('needs a percent sign for a percentage', () => {
    expect(passageHasFigure('increased 17 % year over year', growth!)).toBe(true);
    expect(passageHasFigure('Note 17 describes leases', growth!)).toBe(false);
  });
  it('any passage, any figure; none when the answer has no figures', () => {
    expect(anyPassageHasFigure(['nothing here', 'up 17%'], [sales!, growth!])).toBe(true);
    expect(anyPassageHasFigure(['up 17%'], [])).toBe(false);
  });
});

/** An answer citing page 1 of each file, as the older tests need it. */
function cites(files: string[], validated: boolean): AnswerOutcome {
  return { text: 'x', dateQualifier: null, citations: files.map((file) => ({ file, pages: { start: 1, end: 1 } })), validated, notFound: false };
}

describe('filings measures', () => {
  const q = { sourceFiles: ['A.pdf', 'B.pdf'], figures: extractFigures('$1,500 million') };
  it('document recall, all-found and evidence from source documents only', () => {
    const ranking = [
      { file: 'C.pdf', body: 'revenue 1,500' },
      { file: 'A.pdf', body: 'no figure' },
      ...Array.from({ length: 8 }, () => ({ file: 'C.pdf', body: 'x' })),
      { file: 'B.pdf', body: 'revenue 1,500' },
    ];
    const m = measureQuestion(q, ranking);
    expect(m).toEqual({ docRecall: 0.5, allDocsFound: 0, evidenceFound: false });
    expect(measureQuestion(q, [ranking[10]!, ranking[1]!])).toEqual({ docRecall: 1, allDocsFound: 1, evidenceFound: true });
    expect(measureQuestion({ ...q, figures: [] }, ranking).evidenceFound).toBeNull();
  });
  it('answer figures: right document cited, validated, validated-and-wrong of the validated', () => {
    const per = [
      measureQuestion(q, [], cites(['A.pdf'], true)),
      measureQuestion(q, [], cites(['C.pdf'], true)),
      measureQuestion(q, [], cites(['B.pdf'], false)),
      measureQuestion({ ...q, figures: [] }, [], cites([], false)),
    ];
    const mean = meanMeasures(per);
    expect(mean).toMatchObject({ rightDocCited: 0.5, validated: 0.5, validatedWrong: 0.5, validatedCount: 2, evidenceCovered: 3, questions: 4 });
    expect(meanMeasures(per.map(({ answer: _a, ...rest }) => rest)).validated).toBeUndefined();
  });
});

describe('filings report', () => {
  const report: FilingsReport = {
    kind: 'filings',
    dataset: {
      name: 'tiny',
      documents: 2,
      indexedDocuments: 2,
      failedDocuments: [],
      pages: 2,
      chunks: 4,
      questions: 2,
      evidenceCovered: 1,
      unmatchedQuestions: 0,
      titles: [
        { file: 'A.pdf', title: 'Apple Inc. — Form 10-Q, quarter ended July 1, 2023' },
        { file: 'B.pdf', title: 'NVIDIA Corporation — Form 10-Q' },
      ],
    },
    embedder: { model: 'hash', dimension: 8 },
    k: 10,
    depth: 100,
    timings: { loadMs: 1, ingestMs: 2, queryEmbedMs: 3, totalMs: 4 },
    variants: [
      {
        name: 'keyword',
        available: true,
        description: 'bm25',
        mean: meanMeasures([{ docRecall: 1, allDocsFound: 1, evidenceFound: true }, { docRecall: 0.5, allDocsFound: 0, evidenceFound: null }]),
        perQuery: new Map(),
        msPerQuery: 1.5,
      },
      {
        name: 'agent',
        available: true,
        description: 'agent',
        mean: meanMeasures([
          measureQuestion(
            { sourceFiles: ['A.pdf'], figures: extractFigures('$1,500 million') },
            [{ file: 'A.pdf', body: '' }],
            { text: 'Sales were 1,500. [1]', dateQualifier: null, citations: [{ file: 'A.pdf', pages: { start: 2, end: 2 } }], validated: true, notFound: false },
            { pages: new Map([['A.pdf', new Map([[2, 'no figure here']])]]) },
          ),
        ]),
        perQuery: new Map(),
        msPerQuery: 9,
      },
      { name: 'later', available: false, description: 'd', reason: 'not landed' },
    ],
  };
  it('JSON: one key per mode with the fractions the issue names, agent answer figures, meta', () => {
    const json = filingsToJson(report);
    expect(Object.keys(json)).toEqual(['keyword', 'agent', 'later', 'meta']);
    expect(json.keyword).toMatchObject({ available: true, docRecall10: 0.75, docAllFound10: 0.5, evidenceRecall10: 1, evidenceCovered: 1, questions: 2 });
    expect(json.keyword).not.toHaveProperty('validated');
    expect(json.agent).toMatchObject({
      docRecall10: 1,
      evidenceRecall10: 0,
      rightDocCited: 1,
      validated: 1,
      validatedWrong: 0,
      answerHasFigure: 1,
      citedPageHasEvidence: 0,
      citedOnlySources: 1,
      notFoundWithSource: 0,
      notFoundCount: 0,
      answerWords: 3,
    });
    expect(json.keyword).not.toHaveProperty('answerWords');
    expect(json.later).toEqual({ available: false, description: 'd', reason: 'not landed' });
    expect(json.meta).toMatchObject({ kind: 'filings', k: 10, dataset: { name: 'tiny', titles: report.dataset.titles } });
  });
  it('table: a row per mode, pending modes with their reason', () => {
    const text = formatFilingsTable(report);
    expect(text).toMatch(/^keyword\s+0\.750\s+0\.500\s+1\.000\s+1\.5$/m);
    expect(text).toMatch(/^agent\s+1\.000\s+1\.000\s+0\.000\s+1\.000\s+1\.000 \(1\)\s+0\.000\s+1\.000\s+0\.000\s+1\.000\s+0\.000 \(0\)\s+3\s+9\.0$/m);
    // The stored titles, as they are: a title built from an accession number would show here.
    expect(text).toContain('  A.pdf: Apple Inc. — Form 10-Q, quarter ended July 1, 2023');
    expect(text).toContain('later           not landed');
  });
});

describe('sortTies', () => {
  const hit = (id: string, score: number, keywordScore = score) => ({ chunk: { chunk_id: id }, score, keywordScore });
  it('orders hits within float noise of each other by chunk id and gives them the same scores', () => {
    const a = sortTies([hit('c', 0.9), hit('b', 0.7000001, 0.5000001), hit('a', 0.7, 0.5), hit('d', 0.69)]);
    const b = sortTies([hit('c', 0.9), hit('a', 0.7000002, 0.5000002), hit('b', 0.7, 0.5), hit('d', 0.69)]);
    expect(a.map((h) => h.chunk.chunk_id)).toEqual(['c', 'a', 'b', 'd']);
    expect(b.map((h) => h.chunk.chunk_id)).toEqual(['c', 'a', 'b', 'd']);
    expect(a[2]?.score).toBe(a[1]?.score);
    expect(a[2]?.keywordScore).toBe(a[1]?.keywordScore);
  });
  it('keeps distinct scores in score order', () => {
    expect(sortTies([hit('a', 0.1), hit('b', 0.5), hit('c', 0.3)]).map((h) => [h.chunk.chunk_id, h.score])).toEqual([
      ['b', 0.5],
      ['c', 0.3],
      ['a', 0.1],
    ]);
  });
});

const sec10q = sharedPath('eval', 'docugami-sec10q');
describe.skipIf(!sec10q.present)('the docugami-sec10q questions', () => {
  it('reads 195 questions over 20 filings, every Source Docs glob matching, as its README counts them', async () => {
    expect(isFilingsDataset(sec10q.path)).toBe(true);
    const data = await loadFilings(sec10q.path);
    expect(data.files).toHaveLength(20);
    expect(data.questions).toHaveLength(195);
    expect(data.unmatchedQuestions).toBe(0);
    const count = (key: 'questionType' | 'chunkType') => Object.fromEntries([...new Set(data.questions.map((q) => q[key]))].map((t) => [t, data.questions.filter((q) => q[key] === t).length]));
    expect(count('questionType')).toEqual({ 'Multi-Doc RAG': 65, 'Single-Doc Single-Chunk RAG': 76, 'Single-Doc Multi-Chunk RAG': 54 });
    expect(count('chunkType')).toEqual({ Table: 114, Text: 81 });
    expect(data.questions[0]?.sourceFiles).toEqual(['2022 Q3 AAPL.pdf', '2023 Q1 AAPL.pdf', '2023 Q2 AAPL.pdf', '2023 Q3 AAPL.pdf']);
    expect(extractFigures(data.questions[0]?.answer ?? '').map((f) => f.value)).toEqual([82_959e6, 117_154e6, 94_836e6, 81_797e6]);
  });
});
