import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { redisServerAvailable } from '../../apps/cli/local-redis.ts';
import { VARIANTS } from '../../eval/variants.ts';
import { textPdf } from '../fixtures/pdf-builders.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';
import type { FilingsMeans } from '../../eval/filings-measures.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

const TOPICS = ['liquidity', 'inventories', 'leases', 'goodwill', 'derivatives', 'pensions', 'taxes', 'segments', 'litigation', 'warranties', 'receivables', 'borrowings'];

/**
 * A filing of `company` with a page per topic (so there are many more than 10 chunks and the
 * top 10 is a real cut), its net sales on the first page in a table "in millions".
 */
function filing(company: string, sales: string, other: string): Promise<Uint8Array> {
  const pages = [
    [`${company} Corporation`, 'Form 10-Q quarterly report', 'Item 1. Financial Statements', 'Condensed statements of operations (in millions)', `Total net sales ${sales}`, `Cost of sales ${other}`],
    ...TOPICS.map((t, i) => [
      `Note ${i + 2}. ${t[0]!.toUpperCase()}${t.slice(1)}`,
      ...Array.from({ length: 30 }, (_, j) =>
        j % 2 === 0
          ? `Paragraph ${j + 1}: ${company} discusses its ${t} policies for the quarter in this note, item ${j + 1}.`
          : `Management of ${company} reviews ${t} each period, judgement ${j + 1}, and reports material changes.`,
      ),
    ]),
  ];
  return textPdf(pages, { title: `${company} 10-Q` });
}

const CSV = [
  '\ufeffQuestion,Source Docs,Question Type,Source Chunk Type,Answer',
  // Acme's sales, answered in Acme's filing.
  '"What were Acme\'s total net sales?",*ACME*,Single-Doc Single-Chunk RAG,Table,"Acme\'s total net sales were $12,345 million.\n\nSOURCE(S): 2023 Q1 ACME.pdf"',
  // Globex's sales figure, but the reference names Acme's filing: a chunk holding 8,765 is Globex's, so no evidence.
  '"What were Globex total net sales according to Acme?",*2023 Q1 ACME*,Single-Doc Single-Chunk RAG,Table,"$8,765 million"',
  // Prose only: counted for document recall, not for evidence.
  '"How do both companies describe their leases?",*2023 Q1*,Multi-Doc RAG,Text,"Both review leases each period."',
  // No such filing: left out.
  'Initech?,*INITECH*,Multi-Doc RAG,Text,none',
].join('\r\n');

type ModeJson = FilingsMeans & {
  available: boolean;
  perQuery?: Record<string, { docRecall: number; evidenceFound: boolean | null; top: string[] }>;
};

describe.skipIf(!redisServerAvailable())('the filings eval, end to end on two generated filings', () => {
  const tmp = tempDirs('quarry-eval-filings-test-');
  let dir: string;
  let json: Record<string, ModeJson> & {
    meta: { dataset: { documents: number; indexedDocuments: number; chunks: number; questions: number; unmatchedQuestions: number; evidenceCovered: number; titles: { file: string; title: string }[] } };
  };
  let written: unknown;
  let stderr: string;

  beforeAll(async () => {
    dir = path.join(tmp(), 'tiny-filings');
    mkdirSync(path.join(dir, 'docs'), { recursive: true });
    writeFileSync(path.join(dir, 'docs', '2023 Q1 ACME.pdf'), await filing('Acme', '12,345', '6,001'));
    writeFileSync(path.join(dir, 'docs', '2023 Q1 GLOBEX.pdf'), await filing('Globex', '8,765', '4,002'));
    writeFileSync(path.join(dir, 'qna_data.csv'), CSV);
    const out = path.join(dir, 'result.json');
    const env = { ...process.env, EMBEDDER: 'hash', EMBED_DIMENSION: '128', LOG_LEVEL: 'silent', WORKER_CONCURRENCY: '2' };
    const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'eval/run.ts'), '--dataset', dir, '--json', '--per-query', '--out', out], {
      cwd: repoRoot,
      env,
      timeout: 90_000,
    });
    stderr = run.stderr;
    json = JSON.parse(run.stdout) as typeof json;
    written = JSON.parse(readFileSync(out, 'utf8'));
  }, 120_000);

  it('ingests both PDFs through the stages and reads the CSV (BOM, quoted newlines, unmatched globs)', () => {
    expect(stderr).toMatch(/ingested 2\/2 PDFs/);
    expect(json.meta.dataset).toMatchObject({ documents: 2, indexedDocuments: 2, questions: 3, unmatchedQuestions: 1, evidenceCovered: 2 });
    // Enough chunks that the top 10 is a cut, not the whole store.
    expect(json.meta.dataset.chunks).toBeGreaterThan(10);
    // Each filing's title as the store keeps it, in file order.
    expect(json.meta.dataset.titles.map((t) => t.file)).toEqual(['2023 Q1 ACME.pdf', '2023 Q1 GLOBEX.pdf']);
    for (const t of json.meta.dataset.titles) expect(t.title).not.toBe('');
  });

  it('prints one JSON object keyed by every mode, each with the filings measures', () => {
    expect(Object.keys(json)).toEqual([...VARIANTS.map((v) => v.name), 'meta']);
    for (const v of VARIANTS) {
      const m = json[v.name] as ModeJson;
      expect(m.available).toBe(true);
      for (const key of ['docRecall10', 'docAllFound10', 'evidenceRecall10'] as const) {
        expect(m[key]).toBeGreaterThanOrEqual(0);
        expect(m[key]).toBeLessThanOrEqual(1);
      }
      expect(m.questions).toBe(3);
    }
    const agent = json.agent as ModeJson;
    const answerKeys = ['rightDocCited', 'validated', 'validatedWrong', 'answerHasFigure', 'answerWords', 'citedOnlySources', 'notFoundWithSource', 'notFoundCount', 'citedPageHasEvidence'] as const;
    for (const key of answerKeys) expect(typeof agent[key]).toBe('number');
    expect(agent.answerWords).toBeGreaterThan(0);
    expect(json.keyword).not.toHaveProperty('rightDocCited');
    // The LangChain.js peer loads the same PDFs itself; its hits name the files the measures read.
    const peerTop = Object.values((json.langchain as ModeJson).perQuery ?? {}).flatMap((q) => q.top);
    expect(peerTop.length).toBeGreaterThan(0);
    expect(new Set(peerTop)).toEqual(new Set(['2023 Q1 ACME.pdf', '2023 Q1 GLOBEX.pdf']));
  });

  it('keyword search finds the named filing and its figure; a figure in another company’s filing is no evidence', () => {
    const per = (json.keyword as ModeJson).perQuery!;
    expect(per.q1).toMatchObject({ docRecall: 1, evidenceFound: true });
    expect(per.q1!.top[0]).toBe('2023 Q1 ACME.pdf');
    expect(per.q2?.evidenceFound).toBe(false);
    expect(per.q3).toMatchObject({ docRecall: 1, evidenceFound: null });
    expect(json.keyword?.evidenceRecall10).toBe(0.5);
  });

  it('writes the same measures (without per-question detail) to the --out file', () => {
    const file = written as Record<string, ModeJson>;
    expect(file.keyword?.docRecall10).toBe(json.keyword?.docRecall10);
    expect(file.agent?.validated).toBe(json.agent?.validated);
    expect(file.keyword).not.toHaveProperty('perQuery');
  });
});
if (!redisServerAvailable()) console.warn('skipping the filings eval test: redis-server is not installed');
