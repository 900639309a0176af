/*
 * Ranking metrics as BEIR reports them (pytrec_eval / trec_eval definitions), so figures here are
 * comparable with published ones:
 * - nDCG@k: linear gain `rel`, discount `log2(rank + 1)`, ideal DCG from the query's judgments
 *   sorted by grade (judged-but-unretrieved documents count in the ideal, as they should);
 * - Recall@k: relevant documents (grade > 0) in the top k over all relevant documents;
 * - MRR@k: 1 / rank of the first relevant document in the top k, else 0.
 * A query without any relevant judgment scores 0 on every metric (trec_eval does the same), so it
 * drags the average down instead of vanishing from it.
 */

/** Graded judgments of one query: doc id → relevance (0 = judged not relevant). */
export type Judgments = ReadonlyMap<string, number>;

/** The metrics of one query, or their mean over queries. */
export interface Metrics {
  ndcg10: number;
  recall10: number;
  recall100: number;
  mrr10: number;
}

/** Metric names in display order. */
export const METRIC_NAMES = ['ndcg10', 'recall10', 'recall100', 'mrr10'] as const satisfies readonly (keyof Metrics)[];

/** Per-query metrics and their mean. */
export interface Evaluation {
  /** Arithmetic mean over every evaluated query. */
  mean: Metrics;
  /** Metrics of each query, keyed by query id. */
  perQuery: Map<string, Metrics>;
}

/** A ranking with repeated ids keeps each id at its first (best) rank, as a result list would. */
function distinct(ranking: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of ranking) {
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}

function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
}

/**
 * nDCG@k of one ranking (pytrec_eval `ndcg_cut.k`).
 * @throws RangeError when `k` is not a positive integer.
 */
export function ndcgAt(ranking: readonly string[], judgments: Judgments, k: number): number {
  checkK(k);
  const ideal = [...judgments.values()].filter((r) => r > 0).sort((a, b) => b - a);
  let idcg = 0;
  for (let i = 0; i < Math.min(k, ideal.length); i++) idcg += (ideal[i] as number) / Math.log2(i + 2);
  if (idcg === 0) return 0;
  let dcg = 0;
  distinct(ranking)
    .slice(0, k)
    .forEach((id, i) => {
      const rel = judgments.get(id) ?? 0;
      if (rel > 0) dcg += rel / Math.log2(i + 2);
    });
  return dcg / idcg;
}

/**
 * Recall@k of one ranking: relevant (grade > 0) documents found in the top k / all relevant.
 * @throws RangeError when `k` is not a positive integer.
 */
export function recallAt(ranking: readonly string[], judgments: Judgments, k: number): number {
  checkK(k);
  let relevant = 0;
  for (const r of judgments.values()) if (r > 0) relevant += 1;
  if (relevant === 0) return 0;
  let found = 0;
  for (const id of distinct(ranking).slice(0, k)) if ((judgments.get(id) ?? 0) > 0) found += 1;
  return found / relevant;
}

/**
 * Reciprocal rank of the first relevant document within the top k, else 0.
 * @throws RangeError when `k` is not a positive integer.
 */
export function mrrAt(ranking: readonly string[], judgments: Judgments, k: number): number {
  checkK(k);
  const top = distinct(ranking).slice(0, k);
  const rank = top.findIndex((id) => (judgments.get(id) ?? 0) > 0);
  return rank < 0 ? 0 : 1 / (rank + 1);
}

/** Every reported metric of one ranking. */
export function queryMetrics(ranking: readonly string[], judgments: Judgments): Metrics {
  return {
    ndcg10: ndcgAt(ranking, judgments, 10),
    recall10: recallAt(ranking, judgments, 10),
    recall100: recallAt(ranking, judgments, 100),
    mrr10: mrrAt(ranking, judgments, 10),
  };
}

/** Mean of each metric; all zeros for an empty list. */
export function meanMetrics(list: Iterable<Metrics>): Metrics {
  const sum: Metrics = { ndcg10: 0, recall10: 0, recall100: 0, mrr10: 0 };
  let n = 0;
  for (const m of list) {
    for (const name of METRIC_NAMES) sum[name] += m[name];
    n += 1;
  }
  if (n === 0) return sum;
  for (const name of METRIC_NAMES) sum[name] /= n;
  return sum;
}

/**
 * Scores a run against qrels. Every query in `qrels` is evaluated; a query the run has no
 * ranking for scores 0 (a crashed or skipped query must not improve the mean).
 *
 * @param run query id → ranked doc ids, best first.
 */
export function evaluateRun(qrels: ReadonlyMap<string, Judgments>, run: ReadonlyMap<string, readonly string[]>): Evaluation {
  const perQuery = new Map<string, Metrics>();
  for (const [queryId, judgments] of qrels) perQuery.set(queryId, queryMetrics(run.get(queryId) ?? [], judgments));
  return { mean: meanMetrics(perQuery.values()), perQuery };
}
