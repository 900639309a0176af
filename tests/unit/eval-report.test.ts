import { describe, expect, it } from 'vitest';
import type { EvaluationReport, VariantScores } from '../../eval/harness.ts';
import { formatTable, toJson } from '../../eval/report.ts';
import { parseEvalArgs } from '../../eval/run.ts';
import { defaultVariantNames, selectVariants, VARIANTS } from '../../eval/variants.ts';

describe('variants, arguments and report', () => {
  it('runs every available variant by default; none is pending any more', () => {
    expect(defaultVariantNames()).toEqual(['keyword', 'vector', 'hybrid', 'hybrid+rerank', 'agent', 'langchain']);
    expect(VARIANTS.filter((v) => !v.available).map((v) => v.name)).toEqual([]);
    expect(selectVariants(['hybrid', 'keyword']).map((v) => v.name)).toEqual(['keyword', 'hybrid']);
    expect(() => selectVariants(['bm42'])).toThrow(/unknown variant\(s\) bm42; known: keyword, vector, hybrid, hybrid\+rerank, agent, langchain/);
  });

  it('parses the command line', () => {
    expect(parseEvalArgs(['--dataset', 'd', '--split', 'train', '--json', '--limit-queries', '5', '--variants', 'keyword, hybrid'])).toEqual({
      dataset: 'd', split: 'train', json: true, perQuery: false, limitQueries: 5, variants: ['keyword', 'hybrid'], depth: 100, alphas: [0.3, 0.5, 0.7],
    });
    expect(parseEvalArgs(['--dataset', 'd', '--alphas', '0.1, 0.2']).alphas).toEqual([0.1, 0.2]);
    expect(() => parseEvalArgs(['--dataset', 'd', '--alphas', '0.1,2'])).toThrow(/--alphas must be numbers in \[0, 1\]/);
    expect(() => parseEvalArgs(['--dataset', 'd', '--alphas', 'x'])).toThrow(/--alphas/);
    expect(() => parseEvalArgs(['--split', 'train'])).toThrow(/--dataset is required/);
    expect(() => parseEvalArgs(['--dataset', 'd', '--limit-queries', '0'])).toThrow(/positive integer/);
    expect(() => parseEvalArgs(['--dataset', 'd', '--bogus'])).toThrow();
  });

  it('prints a table and a JSON object keyed by variant', () => {
    const scores = (name: string, ndcg10: number): VariantScores => ({
      name, available: true, description: name, mean: { ndcg10, recall10: 0.5, recall100: 1, mrr10: 0.25 },
      perQuery: new Map([['q1', { ndcg10, recall10: 0.5, recall100: 1, mrr10: 0.25 }]]), msPerQuery: 1.5, queries: 1,
    });
    const report: EvaluationReport = {
      dataset: { name: 'tiny', split: 'test', corpusSize: 3, indexedDocs: 3, skippedEmptyDocs: 0, queries: 1, judgments: 1, unknownJudgedDocs: 0 },
      embedder: { model: 'hash', dimension: 8 },
      depth: 100,
      timings: { loadMs: 1, indexMs: 2, embedMs: 1, writeMs: 1, queryEmbedMs: 0, totalMs: 5 },
      variants: [scores('keyword', 0.5), scores('hybrid', 0.75), { name: 'agent', available: false, description: 'a', reason: 'not available yet: later' }],
      hybridAlpha: { '0.3': scores('hybrid@0.3', 0.6), '0.5': scores('hybrid', 0.75) },
    };
    const table = formatTable(report);
    expect(table).toMatch(/^variant\s+nDCG@10\s+R@10\s+R@100\s+MRR@10\s+ms\/query\s+ΔnDCG@10 vs keyword \(p\)$/m);
    expect(table).toMatch(/^keyword\s+0\.5000\s+0\.5000\s+1\.0000\s+0\.2500\s+1\.50$/m);
    // One query cannot tell anything apart: every sign flip is as extreme, so p = 1.
    expect(table).toMatch(/^hybrid\s+0\.7500\s+0\.5000\s+1\.0000\s+0\.2500\s+1\.50\s+\+0\.2500 \(p=1\.000\)$/m);
    expect(table).toMatch(/^ {2}alpha 0\.3\s+0\.6000/m);
    expect(table).toMatch(/^agent\s+not available yet: later$/m);
    expect(table).toMatch(/corpus 3 docs/);
    const json = toJson(report);
    expect(Object.keys(json)).toEqual(['keyword', 'hybrid', 'agent', 'hybridAlpha', 'meta']);
    expect(json.hybrid).toMatchObject({ available: true, ndcg10: 0.75, msPerQuery: 1.5, vsKeyword: { ndcg10Diff: 0.25, p: 1 } });
    expect(json.keyword).not.toHaveProperty('vsKeyword');
    expect(json.hybrid).not.toHaveProperty('perQuery');
    expect(json.agent).toEqual({ available: false, description: 'a', reason: 'not available yet: later' });
    expect(toJson(report, { perQuery: true }).hybrid).toHaveProperty('perQuery.q1.ndcg10', 0.75);
  });
});
