import type { JobCounts } from '../../core/queues.ts';
import type { DocStatus } from '../../shared/status/index.ts';

/** `[#######-----] 58%` */
export function progressBar(pct: number, width = 20): string {
  const p = Math.max(0, Math.min(100, pct));
  const filled = Math.round((p / 100) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(p)).padStart(3)}%`;
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  ').trimEnd()).join('\n');
}

/** Per-stage queue counts, one row per queue. */
export function formatQueueCounts(counts: { queue: string; counts: JobCounts }[]): string {
  return table([
    ['queue', 'waiting', 'active', 'delayed', 'completed', 'failed'],
    ...counts.map(({ queue, counts: c }) => [queue, c.waiting + c.prioritized, c.active, c.delayed, c.completed, c.failed].map(String)),
  ]);
}

/** Whole-pipeline progress of one document: stages done out of six, plus the current stage's share. */
export function documentProgress(s: DocStatus): number {
  const order = ['extract', 'sectionize', 'chunk', 'enrich', 'embed', 'upsert'];
  if (s.state === 'indexed' || s.state === 'deleted') return 100;
  const i = order.indexOf(s.stage);
  if (i < 0) return s.progress;
  return ((i + s.progress / 100) / order.length) * 100;
}

/** `99.7% indexed`, or `100% indexed`: a document's coverage, rounded down so a loss never reads as 100%. */
export function formatCoverage(ratio: number): string {
  const pct = Math.floor(ratio * 1000) / 10;
  return `${pct === 100 ? '100' : pct.toFixed(1)}% indexed`;
}

/** What a warning says in the status table, with the pages concerned. */
function formatWarning(w: NonNullable<DocStatus['warnings']>[number]): string {
  const pages = w.pages.length === 0 ? '' : ` (pages ${w.pages.slice(0, 12).join(', ')}${w.pages.length > 12 ? ', …' : ''})`;
  return `warning ${w.code}: ${w.message}${pages}`;
}

/** Per-document state, with failures and their reasons. */
export function formatStatuses(statuses: DocStatus[], opts: { bars?: boolean } = {}): string {
  if (statuses.length === 0) return 'no documents registered';
  const rows = statuses.map((s) => [
    s.docId,
    s.state,
    s.state === 'indexed' || s.state === 'deleted' ? '' : s.stage,
    opts.bars ? progressBar(documentProgress(s), 12) : '',
    s.pageCount === null ? '' : `${s.pageCount}p`,
    s.chunkCount === null ? '' : `${s.chunkCount} chunks`,
    s.coverage ? formatCoverage(s.coverage.ratio) : '',
    s.state === 'failed' ? `${s.errorCode}: ${s.errorMessage}` : [...(s.profile?.label ? [s.profile.label] : []), ...(s.warnings ?? []).map(formatWarning)].join('; '),
  ]);
  const counts = statuses.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s.state]: (acc[s.state] ?? 0) + 1 }), {});
  const summary = Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ');
  return `${table([['document', 'state', 'stage', opts.bars ? 'progress' : '', 'pages', 'chunks', 'coverage', 'error'], ...rows])}\n${summary}`;
}
