import type { FilingsReport, FilingsVariantScores } from './filings-harness.ts';

const HEADERS = [
  'mode',
  'docR@10',
  'allDocs@10',
  'evidR@10',
  'rightDocCited',
  'validated',
  'validatedWrong',
  'answerFig',
  'citedPageEvid',
  'citedOnlySrc',
  'notFoundWithSrc',
  'words',
  'ms/query',
] as const;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function pct(x: number | undefined): string {
  return x === undefined ? '' : x.toFixed(3);
}

function row(v: FilingsVariantScores): string[] {
  const m = v.mean;
  return [
    v.name,
    pct(m.docRecall10),
    pct(m.docAllFound10),
    pct(m.evidenceRecall10),
    pct(m.rightDocCited),
    m.validated === undefined ? '' : `${pct(m.validated)} (${m.validatedCount ?? 0})`,
    pct(m.validatedWrong),
    pct(m.answerHasFigure),
    pct(m.citedPageHasEvidence),
    pct(m.citedOnlySources),
    m.notFoundWithSource === undefined ? '' : `${pct(m.notFoundWithSource)} (${m.notFoundCount ?? 0})`,
    m.answerWords === undefined ? '' : String(m.answerWords),
    v.msPerQuery.toFixed(1),
  ];
}

/**
 * The filings report as text: dataset, ingest and timing lines, then one row per mode
 * (document recall@10, all source documents found@10, answer-evidence recall@10 and, for the
 * agent, right document cited / validated (count) / validated-and-wrong, answer states a figure,
 * cited page holds a figure, cites only source documents, "not found" with a source document in
 * the top 10 (count of "not found"), median words), pending modes with their reason; then each
 * filing's stored title, so a title built from an accession number shows.
 */
export function formatFilingsTable(report: FilingsReport): string {
  const d = report.dataset;
  const t = report.timings;
  const head = [
    `dataset   ${d.name}: ${d.documents} PDFs (${d.indexedDocuments} indexed, ${d.pages} pages, ${d.chunks} chunks), ${d.questions} questions` +
      `${d.unmatchedQuestions ? ` (+${d.unmatchedQuestions} whose Source Docs match no file, left out)` : ''}`,
    `measures  @${report.k} chunks; evidence recall over the ${d.evidenceCovered} questions whose answer has key figures; ` +
      'validatedWrong is a fraction of the validated answers; answerFig and citedPageEvid are over the same questions; ' +
      'notFoundWithSrc is a fraction of the "not found" answers (their count in brackets); words is the median',
    `embedder  ${report.embedder.model} (dimension ${report.embedder.dimension}); retrieval depth ${report.depth}`,
    `timing    ingest ${seconds(t.ingestMs)}; query embedding ${seconds(t.queryEmbedMs)}; total ${seconds(t.totalMs)}`,
    ...d.failedDocuments.map((f) => `failed    ${f.file}: ${f.error}`),
  ];
  const rows: string[][] = [];
  const pending: string[] = [];
  for (const v of report.variants) {
    if (v.available) rows.push(row(v));
    else pending.push(`${v.name.padEnd(15)} ${v.reason}`);
  }
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ').trimEnd();
  const titles = d.titles.length ? ['', 'stored titles', ...d.titles.map((t) => `  ${t.file}: ${t.title}`)] : [];
  return [...head, '', line(HEADERS), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), ...pending, ...titles].join('\n');
}

/**
 * The `--json` object of a filings run: one key per mode with `docRecall10`, `docAllFound10`,
 * `evidenceRecall10` (fractions), `evidenceCovered`, `questions`, `msPerQuery` and, for the
 * agent, `rightDocCited`, `validated` (fractions of all questions), `validatedWrong` (fraction of
 * the validated), `validatedCount`, `answerHasFigure` and `citedPageHasEvidence` (fractions of
 * the `evidenceCovered` questions), `answerWords` (median), `citedOnlySources` (fraction of all
 * questions), `notFoundWithSource` (fraction of the "not found" answers) and `notFoundCount`;
 * pending modes as `{ available: false, reason }`; plus `meta` (its `dataset.titles`: each
 * filing's stored title). `perQuery` adds each question's measures and top-10 files.
 */
export function filingsToJson(report: FilingsReport, opts: { perQuery?: boolean } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const v of report.variants) {
    out[v.name] = v.available
      ? {
          available: true,
          description: v.description,
          ...v.mean,
          msPerQuery: v.msPerQuery,
          ...(opts.perQuery ? { perQuery: Object.fromEntries(v.perQuery) } : {}),
        }
      : { available: false, description: v.description, reason: v.reason };
  }
  out.meta = { kind: report.kind, dataset: report.dataset, embedder: report.embedder, k: report.k, depth: report.depth, timings: report.timings };
  return out;
}
