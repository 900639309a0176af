/** Turns a query-benchmark result into the `--json` object and the printed table. */
import { TARGETS, type QueryBenchResult, type SizeFigures } from './query.bench.ts';
import type { LatencySummary } from './query-stats.ts';

/** `f` of every size's figures, keyed by size; sizes where it is undefined are left out. */
function bySize<T>(r: QueryBenchResult, f: (s: SizeFigures) => T | undefined): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [size, s] of Object.entries(r.sizes)) {
    const v = f(s);
    if (v !== undefined) out[size] = v;
  }
  return out;
}

const met = (value: number | undefined, target: number) => (value === undefined ? null : value <= target);

/** The one JSON object `--json` prints: headline figures by size, targets, then every detail. */
export function queryJson(r: QueryBenchResult): Record<string, unknown> {
  const at = r.sizes[String(TARGETS.atSize)];
  const runs = r.gateway?.runs ?? [];
  return {
    candidateP95Ms: bySize(r, (s) => s.candidate.p95),
    candidateP50Ms: bySize(r, (s) => s.candidate.p50),
    candidateMeanMs: bySize(r, (s) => s.candidate.mean),
    agentP95Ms: bySize(r, (s) => s.agent.p95),
    agentP50Ms: bySize(r, (s) => s.agent.p50),
    agentMeanMs: bySize(r, (s) => s.agent.mean),
    gatewayRps: Object.fromEntries(runs.map((g) => [String(g.workers), g.requestsPerSecond])),
    gatewayP50Ms: Object.fromEntries(runs.map((g) => [String(g.workers), g.p50Ms])),
    gatewayP95Ms: Object.fromEntries(runs.map((g) => [String(g.workers), g.p95Ms])),
    loadSeconds: bySize(r, (s) => s.load.loadSeconds),
    vectorIndex: bySize(r, (s) => s.maintenance.vectorIndex),
    exactVectorScan: {
      candidateP95Ms: bySize(r, (s) => s.exact?.candidate.p95),
      candidateP50Ms: bySize(r, (s) => s.exact?.candidate.p50),
      agentP95Ms: bySize(r, (s) => s.exact?.agent.p95),
      agentP50Ms: bySize(r, (s) => s.exact?.agent.p50),
      indexedOverlapAt300: bySize(r, (s) => s.exact?.overlapAt300),
      indexedOverlapAt30: bySize(r, (s) => s.exact?.overlapAt30),
    },
    whileIngesting: {
      candidateP95Ms: bySize(r, (s) => s.whileIngesting?.candidateP95Ms),
      agentP95Ms: bySize(r, (s) => s.whileIngesting?.agentP95Ms),
      ingestPagesPerSec: bySize(r, (s) => s.whileIngesting?.ingestPagesPerSec),
      ingestAlonePagesPerSec: bySize(r, (s) => s.whileIngesting?.ingestAlonePagesPerSec),
      workerNice: bySize(r, (s) => s.whileIngesting?.workerNice),
      /** Candidate p95 while ingesting ÷ idle just before it (target at 100k: ≤ 1.5). */
      candidateP95Ratio: bySize(r, (s) => s.whileIngesting?.idleBefore.candidateRatio),
      /** Candidate p95 beside neighbours that only touch memory ÷ idle: the machine's share of the ratio above. */
      candidateP95RatioBesideMemoryNeighbours: bySize(r, (s) => s.whileIngesting?.besideMemoryNeighbours.candidateRatio),
      /** Candidate p95 while ingesting ÷ beside those neighbours: the ingest's own share (its CPU beside the search, the store it writes). */
      candidateP95IngestRatio: bySize(r, (s) => s.whileIngesting?.besideMemoryNeighbours.ingestRatio),
    },
    whileIngestingByNice: bySize(r, (s) =>
      Object.keys(s.whileIngestingByNice).length
        ? Object.fromEntries(
            Object.entries(s.whileIngestingByNice).map(([nice, w]) => [
              nice,
              { candidateP95Ms: w.candidateP95Ms, agentP95Ms: w.agentP95Ms, ingestPagesPerSec: w.ingestPagesPerSec, ingestAlonePagesPerSec: w.ingestAlonePagesPerSec, idleBefore: w.idleBefore, besideMemoryNeighbours: w.besideMemoryNeighbours },
            ]),
          )
        : undefined,
    ),
    indexBuildSeconds: bySize(r, (s) => (s.maintenance.vectorIndex === 'built' ? s.maintenance.seconds : undefined)),
    targets: {
      size: TARGETS.atSize,
      candidateP95Ms: TARGETS.candidateP95Ms,
      agentP95Ms: TARGETS.agentP95Ms,
      candidateMet: met(at?.candidate.p95, TARGETS.candidateP95Ms),
      agentMet: met(at?.agent.p95, TARGETS.agentP95Ms),
    },
    loadAverage: r.loadAverage,
    skipped: r.skipped,
    details: r,
  };
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
const verdict = (value: number | undefined, target: number) => (value === undefined ? 'not measured' : value <= target ? 'MET' : 'MISSED');
const row = (size: string, what: string, l: LatencySummary) =>
  `${pad(size, 9)}  ${what.padEnd(40)} ${pad(l.n, 4)} ${pad(l.mean, 7)} ${pad(l.p50, 7)} ${pad(l.p95, 7)} ${pad(l.max, 7)}`;

function agentLines(s: Pick<SizeFigures, 'agentOutcomes' | 'agentNodesMeanMs'>): string[] {
  const o = s.agentOutcomes;
  const nodes = Object.entries(s.agentNodesMeanMs).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ');
  return [
    `${pad('', 9)}    outcomes: ${o.validated} validated, ${o.fallback} fallback, ${o.meanLoops} loops/run, ${o.reusedCandidateSearches} loop searches reused`,
    `${pad('', 9)}    mean ms per node (loops summed): ${nodes}`,
  ];
}

/** The readable report. */
export function queryTable(r: QueryBenchResult): string[] {
  const lines: string[] = [];
  const sizes = Object.keys(r.sizes);
  lines.push('', `Corpus load (synthetic EN/KO chunks, ${r.embedder}, bulk-upserted through the VectorStore port, facet vectors built)`);
  lines.push(`${pad('chunks', 9)} ${pad('docs', 6)} ${pad('body ch', 8)} ${pad('load s', 8)} ${pad('embed s', 8)} ${pad('write s', 8)} ${pad('batches', 8)} ${pad('facets s', 9)} ${pad('disk MB', 8)}`);
  for (const size of sizes) {
    const l = r.sizes[size]!.load;
    lines.push(`${pad(l.chunks, 9)} ${pad(l.documents, 6)} ${pad(l.meanBodyChars, 8)} ${pad(l.loadSeconds, 8)} ${pad(l.embedSeconds, 8)} ${pad(l.writeSeconds, 8)} ${pad(l.writeBatches, 8)} ${pad(l.facetSeconds, 9)} ${pad(l.diskMb, 8)}`);
  }
  lines.push('', 'Latency, ms (sequential, one query at a time)');
  lines.push(`${pad('chunks', 9)}  ${'what'.padEnd(40)} ${pad('n', 4)} ${pad('mean', 7)} ${pad('p50', 7)} ${pad('p95', 7)} ${pad('max', 7)}`);
  for (const size of sizes) {
    const s = r.sizes[size]!;
    const m = s.maintenance;
    lines.push(`${pad(size, 9)}  vector index: ${m.vectorIndex} (${m.reason}${m.vectorIndex === 'built' ? `, in ${m.seconds} s` : ''})`);
    lines.push(row('', 'candidate hybrid (limit 300, clamp, α .5)', s.candidate));
    lines.push(row('', 'whole agent run (LLM none)', s.agent), ...agentLines(s));
    if (s.exact) {
      const e = s.exact;
      lines.push(row('', 'before indexing (exact scan): candidate', e.candidate));
      lines.push(`${pad('', 9)}    the indexed search returns ${Math.round(e.overlapAt300 * 1000) / 10}% of the exact top 300, ${Math.round(e.overlapAt30 * 1000) / 10}% of the exact top 30`);
      lines.push(row('', 'before indexing (exact scan): agent run', e.agent), ...agentLines(e));
    }
    for (const [nice, w] of Object.entries(s.whileIngestingByNice)) {
      lines.push(row('', `while ingesting (nice ${nice}): candidate`, w.candidate), row('', `while ingesting (nice ${nice}): agent run`, w.agent));
      lines.push(`${pad('', 9)}    ingest ${w.ingestPagesPerSec} pages/s during the questions (${w.ingestAlonePagesPerSec} pages/s alone)`);
      const i = w.idleBefore;
      lines.push(`${pad('', 9)}    idle just before: candidate p95 ${i.candidateP95Ms} ms (×${i.candidateRatio} while ingesting), agent p95 ${i.agentP95Ms} ms (×${i.agentRatio})`);
      const b = w.besideMemoryNeighbours;
      lines.push(`${pad('', 9)}    beside ${b.neighbours} processes at nice ${nice} writing over ${b.mbEach} MB each, no ingest: candidate p95 ${b.candidateP95Ms} ms (×${b.candidateRatio} idle; while ingesting ×${b.ingestRatio} this)`);
    }
    const mixed = Object.values(s.whileIngestingByNice)[0];
    if (mixed) lines.push(`${pad('', 9)}    model: ${mixed.model}`);
  }
  const at = r.sizes[String(TARGETS.atSize)];
  lines.push('', `Targets at ${TARGETS.atSize} chunks`);
  const target = (label: string, value: number | undefined, goal: number) => `  ${label.padEnd(32)} ${value ?? '-'} ms ${verdict(value, goal)}`;
  lines.push(target(`candidate hybrid p95 ≤ ${TARGETS.candidateP95Ms} ms`, at?.candidate.p95, TARGETS.candidateP95Ms));
  lines.push(target(`agent run p95 ≤ ${TARGETS.agentP95Ms} ms`, at?.agent.p95, TARGETS.agentP95Ms));
  if (r.gateway) {
    const g = r.gateway;
    lines.push('', `Gateway POST /v1/query on 127.0.0.1 (${g.chunks} chunks, maintained store, ${g.requests} requests, concurrency ${g.concurrency}, ${g.workerConcurrency} jobs per worker process)`);
    lines.push(`${pad('workers', 8)} ${pad('req/s', 7)} ${pad('p50 ms', 8)} ${pad('p95 ms', 8)} ${pad('ok', 5)} ${pad('failed', 7)}`);
    for (const run of g.runs) {
      const why = Object.entries(run.failures).map(([k, v]) => `${k}×${v}`).join(' ');
      lines.push(`${pad(run.workers, 8)} ${pad(run.requestsPerSecond, 7)} ${pad(run.p50Ms, 8)} ${pad(run.p95Ms, 8)} ${pad(run.ok, 5)} ${pad(run.failed, 7)}${why ? `  (${why})` : ''}`);
    }
    lines.push(`  Note: this machine has ${g.cores} CPU core(s); the gateway, the load generator, Redis and every worker share them,`);
    lines.push('  so a second worker process competes for the same CPU rather than adding capacity.');
  }
  lines.push('', `Machine load average (1 min) at start / end: ${r.loadAverage.start} / ${r.loadAverage.end} (anything above 0 is other work sharing the cores)`);
  for (const s of r.skipped) lines.push('', `Skipped: ${s}`);
  return lines;
}
