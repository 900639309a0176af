import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBeir } from '../../eval/beir.ts';
import { runEvaluation, type EvaluationReport, type VariantScores } from '../../eval/harness.ts';
import { createHashEmbedder } from '../../shared/embed/index.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const SCIFACT = path.resolve(repoRoot, '../shared/eval/scifact');

/**
 * Ten topics, three documents each (30): the target, which alone names the topic's rare term; a
 * distractor that repeats the topic's common word (so BM25 prefers it when the rare term is
 * missed); and a filler. Queries 0–4 name the rare term exactly (obvious for BM25); queries 5–9
 * misspell it, so BM25 only sees the common word, while the hash embedder's character n-grams
 * still recognise the term.
 */
const TOPICS = [
  { term: 'thrombocytopenia', typo: 'thrombocytopenai', common: 'platelets' },
  { term: 'glioblastoma', typo: 'glioblastomma', common: 'tumours' },
  { term: 'bronchiectasis', typo: 'bronchiectasys', common: 'airways' },
  { term: 'haemochromatosis', typo: 'haemochromatossis', common: 'iron' },
  { term: 'sarcoidosis', typo: 'sarcoidossis', common: 'granulomas' },
  { term: 'cholangiocarcinoma', typo: 'cholangiocarcinomma', common: 'bile' },
  { term: 'pheochromocytoma', typo: 'pheochromocytomma', common: 'catecholamines' },
  { term: 'myelofibrosis', typo: 'myelofibrossis', common: 'marrow' },
  { term: 'endometriosis', typo: 'endometriossis', common: 'pelvic' },
  { term: 'amyloidosis', typo: 'amyloidossis', common: 'deposits' },
] as const;

function writeTinyBeir(dir: string): void {
  const corpus: object[] = [];
  const queries: object[] = [];
  const qrels = ['query-id\tcorpus-id\tscore'];
  TOPICS.forEach((t, i) => {
    corpus.push({ _id: `T-${i}`, title: `${t.term} outcomes`, text: `Patients with ${t.term} showed changes in ${t.common} during follow-up.` });
    corpus.push({ _id: `D-${i}`, title: `A survey of ${t.common}`, text: `Measured ${t.common} in a cohort; ${t.common} varied, and ${t.common} were stable.` });
    corpus.push({ _id: `F-${i}`, title: `Cohort note ${i}`, text: `Routine clinic visits were recorded for adults in region ${i}.` });
    const text = i < 5 ? `${t.term} treatment` : `${t.typo} ${t.common}`;
    queries.push({ _id: `q${i}`, text, metadata: {} });
    qrels.push(`q${i}\tT-${i}\t1`);
  });
  queries.push({ _id: 'unjudged', text: 'not in the qrels', metadata: {} });
  mkdirSync(path.join(dir, 'qrels'), { recursive: true });
  writeFileSync(path.join(dir, 'corpus.jsonl'), corpus.map((o) => JSON.stringify(o)).join('\n') + '\n');
  writeFileSync(path.join(dir, 'queries.jsonl'), queries.map((o) => JSON.stringify(o)).join('\n') + '\n');
  writeFileSync(path.join(dir, 'qrels', 'test.tsv'), qrels.join('\n') + '\n');
}

function scores(report: EvaluationReport, name: string): VariantScores {
  const v = report.variants.find((x) => x.name === name);
  if (!v || !v.available) throw new Error(`variant ${name} did not run`);
  return v;
}

describe('the eval harness on a generated BEIR folder', () => {
  let dir: string;
  let report: EvaluationReport;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'quarry-eval-tiny-'));
    writeTinyBeir(path.join(dir, 'tiny'));
    report = await runEvaluation({
      dataset: path.join(dir, 'tiny'),
      split: 'test',
      // The product's 512: at 256, one bucket collision puts "deposits" above "amyloidossis" (q9).
      embedder: createHashEmbedder({ dimension: 512 }),
      embedBatchSize: 16,
      variants: ['keyword', 'vector', 'hybrid', 'hybrid+rerank', 'agent', 'langchain'],
      tmpRoot: dir,
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('indexes the whole corpus and evaluates only the judged queries', () => {
    expect(report.dataset).toMatchObject({ name: 'tiny', corpusSize: 30, indexedDocs: 30, queries: 10, judgments: 10, unknownJudgedDocs: 0 });
    expect(report.embedder.dimension).toBe(512);
    expect(report.timings.indexMs).toBeGreaterThan(0);
  });

  it('keyword search nails the exact-term queries and misses the misspelt ones', () => {
    const keyword = scores(report, 'keyword');
    for (let i = 0; i < 5; i++) expect(keyword.perQuery.get(`q${i}`)?.mrr10).toBe(1);
    expect(keyword.mean.ndcg10).toBeGreaterThanOrEqual(0.5);
    expect(keyword.mean.ndcg10).toBeLessThan(1);
  });

  it('the vector side bridges the misspellings', () => {
    const vector = scores(report, 'vector');
    for (let i = 5; i < 10; i++) expect(vector.perQuery.get(`q${i}`)?.mrr10).toBe(1);
  });

  it('hybrid is at least as good as keyword-only, and every number is sane', () => {
    const keyword = scores(report, 'keyword');
    const vector = scores(report, 'vector');
    const hybrid = scores(report, 'hybrid');
    expect(hybrid.mean.ndcg10).toBeGreaterThanOrEqual(keyword.mean.ndcg10);
    expect(hybrid.mean.mrr10).toBeGreaterThanOrEqual(keyword.mean.mrr10);
    expect(vector.mean.ndcg10).toBeGreaterThan(0.5);
    // The vector side ranks every document, so at depth 100 nothing can be missed.
    expect(hybrid.mean.recall100).toBe(1);
    for (const v of [keyword, vector, hybrid]) {
      for (const m of Object.values(v.mean)) {
        expect(m).toBeGreaterThanOrEqual(0);
        expect(m).toBeLessThanOrEqual(1);
      }
      expect(v.mean.recall10).toBeGreaterThanOrEqual(v.mean.mrr10);
      expect(v.mean.recall100).toBeGreaterThanOrEqual(v.mean.recall10);
      expect(v.msPerQuery).toBeGreaterThan(0);
      expect(v.queries).toBe(10);
    }
  });

  it('reports the alpha sweep, and the rerank and agent variants rank sensibly', () => {
    expect(Object.keys(report.hybridAlpha)).toEqual(['0.3', '0.5', '0.7']);
    expect(report.hybridAlpha['0.5']).toBe(scores(report, 'hybrid'));
    expect(report.variants.filter((v) => !v.available)).toEqual([]);
    for (const name of ['hybrid+rerank', 'agent']) {
      const v = scores(report, name);
      expect(v.queries).toBe(10);
      // Obvious answers: the reranked and agent rankings find them near the top too.
      expect(v.mean.recall10).toBeGreaterThan(0.8);
      expect(v.mean.recall100).toBe(1);
    }
  });

  it('runs the LangChain.js peer over the same corpus, scored by BEIR ids, and removes its store', () => {
    const peer = scores(report, 'langchain');
    expect(peer.queries).toBe(10);
    // Vector-only over the same hash embedder: it finds every target within depth.
    expect(peer.mean.recall100).toBe(1);
    expect(peer.mean.ndcg10).toBeGreaterThan(0.5);
    expect(readdirSync(dir).filter((f) => f.startsWith('quarry-peer-'))).toEqual([]);
  });

  it('the CLI prints one JSON object keyed by variant', async () => {
    const env = { ...process.env, EMBEDDER: 'hash', EMBED_DIMENSION: '128', LOG_LEVEL: 'silent' };
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'eval/run.ts'), '--dataset', path.join(dir, 'tiny'), '--json', '--variants', 'keyword,hybrid', '--limit-queries', '4'],
      { cwd: repoRoot, env, timeout: 60_000 },
    );
    expect(stderr).toMatch(/indexed 30\/30/);
    const json = JSON.parse(stdout) as Record<string, { available: boolean; ndcg10?: number }> & { meta: { dataset: { queries: number } } };
    expect(Object.keys(json)).toEqual(['keyword', 'hybrid', 'hybridAlpha', 'meta']);
    expect(json.keyword?.ndcg10).toBe(1);
    expect(json.meta.dataset.queries).toBe(4);
  });
});

describe.skipIf(!existsSync(SCIFACT))('the BEIR loader on SciFact', () => {
  it('loads the train split: 809 judged queries, 919 judgments, 5,183 documents', async () => {
    const data = await loadBeir(SCIFACT, 'train');
    expect(data.corpus).toHaveLength(5183);
    expect(data.queries).toHaveLength(809);
    expect([...data.qrels.values()].reduce((n, j) => n + j.size, 0)).toBe(919);
    expect(data.unknownJudgedDocs).toBe(0);
  });
});
if (!existsSync(SCIFACT)) console.warn(`skipping the SciFact loader check: ${path.relative(repoRoot, SCIFACT)} is not present beside the repository`);
