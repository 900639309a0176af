import type { EvaluationReport, VariantScores } from './harness.ts';
import { METRIC_NAMES, type Metrics } from './metrics.ts';
import { pairedRandomizationTest, type PairedTest } from './significance.ts';

const HEADERS = ['variant', 'nDCG@10', 'R@10', 'R@100', 'MRR@10', 'ms/query', 'ΔnDCG@10 vs keyword (p)'] as const;

/** The baseline every other variant is compared with: BM25 alone, the fair in-house baseline. */
const BASELINE = 'keyword';

/**
 * nDCG@10 of `v` against the keyword baseline, paired by query (null when the baseline did not
 * run, or for the baseline itself).
 */
export function versusKeyword(report: EvaluationReport, v: VariantScores): PairedTest | null {
  const base = report.variants.find((x): x is VariantScores => x.available && x.name === BASELINE);
  if (!base || v === base) return null;
  const ids = [...base.perQuery.keys()];
  const score = (of: VariantScores) => ids.map((id) => of.perQuery.get(id)?.ndcg10 ?? 0);
  return pairedRandomizationTest(score(v), score(base));
}

function formatTest(t: PairedTest | null): string {
  if (!t) return '';
  const sign = t.meanDiff > 0 ? '+' : t.meanDiff < 0 ? '−' : '±';
  const p = t.p < 0.001 ? 'p<0.001' : `p=${t.p.toFixed(3)}`;
  return `${sign}${Math.abs(t.meanDiff).toFixed(4)} (${p})`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function metricCells(m: Metrics): string[] {
  return METRIC_NAMES.map((name) => m[name].toFixed(4));
}

function scoreRow(label: string, v: VariantScores, report: EvaluationReport): string[] {
  return [label, ...metricCells(v.mean), v.msPerQuery.toFixed(2), formatTest(versusKeyword(report, v))];
}

/** Pads columns to their widest cell; the first column left-aligned, numbers right-aligned. */
function renderTable(rows: string[][]): string {
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...rows.filter((r) => r.length > 1).map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.length === 1
      ? (cells[0] as string)
      : cells
          .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
          .join('  ')
          .trimEnd();
  return [line(HEADERS), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/**
 * The human-readable report: dataset and timing lines, then one table row per variant (with its
 * nDCG@10 difference from keyword-only and the paired randomization p-value), the hybrid alpha
 * sweep indented under `hybrid`, and pending variants with their reason.
 */
export function formatTable(report: EvaluationReport): string {
  const d = report.dataset;
  const t = report.timings;
  const head = [
    `dataset   ${d.name}/${d.split}: corpus ${d.corpusSize} docs (${d.indexedDocs} indexed` +
      `${d.skippedEmptyDocs ? `, ${d.skippedEmptyDocs} empty skipped` : ''}), ${d.queries} judged queries, ${d.judgments} judgments` +
      `${d.unknownJudgedDocs ? `, ${d.unknownJudgedDocs} judging docs absent from the corpus` : ''}`,
    `embedder  ${report.embedder.model} (dimension ${report.embedder.dimension}); retrieval depth ${report.depth}`,
    `indexing  ${seconds(t.indexMs)} (embedding ${seconds(t.embedMs)}, store writes + index ${seconds(t.writeMs)}); ` +
      `query embedding ${seconds(t.queryEmbedMs)}; load ${seconds(t.loadMs)}; total ${seconds(t.totalMs)}`,
  ];
  const rows: string[][] = [];
  for (const v of report.variants) {
    if (!v.available) {
      rows.push([`${v.name.padEnd(15)} ${v.reason}`]);
      continue;
    }
    rows.push(scoreRow(v.name, v, report));
    if (v.name === 'hybrid') {
      for (const [alpha, sweep] of Object.entries(report.hybridAlpha)) rows.push(scoreRow(`  alpha ${alpha}`, sweep, report));
    }
  }
  return `${head.join('\n')}\n\n${renderTable(rows)}`;
}

type JsonScores = Metrics & {
  available: true;
  description: string;
  msPerQuery: number;
  queries: number;
  vsKeyword?: { ndcg10Diff: number; p: number };
  perQuery?: Record<string, Metrics>;
};

function scoresJson(v: VariantScores, report: EvaluationReport, perQuery: boolean): JsonScores {
  const test = versusKeyword(report, v);
  return {
    available: true,
    description: v.description,
    ...v.mean,
    msPerQuery: v.msPerQuery,
    queries: v.queries,
    ...(test ? { vsKeyword: { ndcg10Diff: test.meanDiff, p: test.p } } : {}),
    ...(perQuery ? { perQuery: Object.fromEntries(v.perQuery) } : {}),
  };
}

/**
 * The `--json` report: one object keyed by variant name (pending variants as
 * `{ available: false, reason }`, the others with `vsKeyword: { ndcg10Diff, p }`), plus
 * `hybridAlpha` (alpha → scores) and `meta` (dataset, embedder, timings). Per-query metrics are included only when asked, as they are large.
 */
export function toJson(report: EvaluationReport, opts: { perQuery?: boolean } = {}): Record<string, unknown> {
  const perQuery = opts.perQuery ?? false;
  const out: Record<string, unknown> = {};
  for (const v of report.variants) {
    out[v.name] = v.available ? scoresJson(v, report, perQuery) : { available: false, description: v.description, reason: v.reason };
  }
  out.hybridAlpha = Object.fromEntries(Object.entries(report.hybridAlpha).map(([a, v]) => [a, scoresJson(v, report, perQuery)]));
  out.meta = { dataset: report.dataset, embedder: report.embedder, depth: report.depth, timings: report.timings };
  return out;
}
