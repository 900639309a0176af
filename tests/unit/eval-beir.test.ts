import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BeirFormatError, loadBeir, loadQrels } from '../../eval/beir.ts';

const jsonl = (rows: readonly unknown[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('the BEIR loader', () => {
  let dir: string;

  /** Writes a tiny BEIR folder; each file can be overridden with raw text. */
  function writeDataset(files: { corpus?: string; queries?: string; qrels?: string; split?: string } = {}): void {
    mkdirSync(path.join(dir, 'qrels'), { recursive: true });
    writeFileSync(
      path.join(dir, 'corpus.jsonl'),
      files.corpus ??
        jsonl([
          { _id: 'd1', title: 'Aspirin', text: 'Aspirin lowers fever.' },
          { _id: 2, title: 'Numeric id', text: 'Some exports write numbers.' },
          { _id: 'd3', text: 'No title at all.' },
        ]),
    );
    writeFileSync(
      path.join(dir, 'queries.jsonl'),
      files.queries ??
        jsonl([
          { _id: 'q1', text: 'does aspirin lower fever', metadata: {} },
          { _id: 'q2', text: 'not judged in this split', metadata: {} },
          { _id: 'q3', text: 'numbers as ids', metadata: {} },
        ]),
    );
    writeFileSync(
      path.join(dir, 'qrels', `${files.split ?? 'test'}.tsv`),
      files.qrels ?? 'query-id\tcorpus-id\tscore\nq3\t2\t1\nq1\td1\t2\nq1\td3\t0\nq1\tgone\t1\n',
    );
  }

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'quarry-beir-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the corpus, the judged queries only (in queries.jsonl order) and graded qrels', async () => {
    writeDataset();
    const data = await loadBeir(dir, 'test');
    expect(data.name).toBe(path.basename(dir));
    expect(data.corpus).toEqual([
      { id: 'd1', title: 'Aspirin', text: 'Aspirin lowers fever.' },
      { id: '2', title: 'Numeric id', text: 'Some exports write numbers.' },
      { id: 'd3', title: '', text: 'No title at all.' },
    ]);
    expect(data.queries).toEqual([
      { id: 'q1', text: 'does aspirin lower fever' },
      { id: 'q3', text: 'numbers as ids' },
    ]);
    expect(Object.fromEntries(data.qrels.get('q1') ?? [])).toEqual({ d1: 2, d3: 0, gone: 1 });
    expect(data.unknownJudgedDocs).toBe(1);
  });

  it('limits the queries and their qrels together', async () => {
    writeDataset();
    const data = await loadBeir(dir, 'test', { limitQueries: 1 });
    expect(data.queries.map((q) => q.id)).toEqual(['q1']);
    expect([...data.qrels.keys()]).toEqual(['q1']);
  });

  it('tolerates a BOM, CRLF line ends, blank lines, no qrels header and TREC four-column qrels', async () => {
    writeDataset({
      corpus: '\uFEFF{"_id":"d1","title":"t","text":"x"}\r\n\r\n{"_id":"d2","title":"t","text":"y"}\r\n',
      qrels: 'q1 0 d1 1\nq1 0 d2 3\n',
    });
    const data = await loadBeir(dir, 'test');
    expect(data.corpus.map((d) => d.id)).toEqual(['d1', 'd2']);
    expect(Object.fromEntries(data.qrels.get('q1') ?? [])).toEqual({ d1: 1, d2: 3 });
  });

  it('names the file and line of malformed JSON', async () => {
    writeDataset({ corpus: '{"_id":"d1","title":"t","text":"x"}\n{"_id": "d2", "text": \n' });
    const err = await loadBeir(dir, 'test').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BeirFormatError);
    expect((err as BeirFormatError).line).toBe(2);
    expect((err as Error).message).toMatch(/corpus\.jsonl:2: not valid JSON/);
  });

  it('rejects a missing _id, a non-string text, and a repeated id, naming the line', async () => {
    writeDataset({ corpus: '{"title":"t","text":"x"}\n' });
    await expect(loadBeir(dir, 'test')).rejects.toThrow(/corpus\.jsonl:1: missing "_id"/);
    writeDataset({ queries: '{"_id":"q1","text":42}\n' });
    await expect(loadBeir(dir, 'test')).rejects.toThrow(/queries\.jsonl:1: "text" must be a string/);
    writeDataset({ corpus: jsonl([{ _id: 'a', text: 'x' }, { _id: 'a', text: 'y' }]) });
    await expect(loadBeir(dir, 'test')).rejects.toThrow(/corpus\.jsonl:2: document id a appears twice/);
  });

  it('rejects malformed qrels lines, naming the line', async () => {
    writeDataset({ qrels: 'query-id\tcorpus-id\tscore\nq1\td1\n' });
    await expect(loadBeir(dir, 'test')).rejects.toThrow(/test\.tsv:2: expected "query-id corpus-id score", got 2 column/);
    writeDataset({ qrels: 'q1\td1\thigh\n' });
    await expect(loadBeir(dir, 'test')).rejects.toThrow(/test\.tsv:1: score "high" is not an integer/);
    writeDataset({ qrels: 'q1\td1\t1\nq1\td1\t2\n' });
    await expect(loadQrels(path.join(dir, 'qrels', 'test.tsv'))).rejects.toThrow(/test\.tsv:2: query q1 judges d1 twice/);
  });

  it('refuses a judged query that queries.jsonl lacks instead of silently dropping it', async () => {
    writeDataset({ qrels: 'q1\td1\t1\nq9\td1\t1\n' });
    await expect(loadBeir(dir, 'test')).rejects.toThrow(/1 judged query id\(s\) not in queries\.jsonl: q9/);
  });

  it('names the splits that exist when the asked one does not', async () => {
    writeDataset({ split: 'train' });
    await expect(loadBeir(dir, 'dev')).rejects.toThrow(/qrels file not found: .*dev\.tsv; splits present: train/);
  });
});
