/**
 * `npm run chaos [-- --docs 200 --modes aof,none --seconds 300 --json]`: the corpus once
 * undisturbed, then once per mode with workers SIGKILLed every 2–5 s and Redis restarted once;
 * prints documents indexed / failed / stuck and chunk ids duplicate / missing against the
 * undisturbed run. Loopback only; every process and temporary directory is removed at the end,
 * on an error and on Ctrl-C (unless --keep).
 */
import '../shared/store/lancedb/quiet-logs-first.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChaosCluster } from './chaos-cluster.ts';
import { corpusDocId, corpusDocIds, writeChaosCorpus } from './chaos-corpus.ts';
import { parseChaosArgs, type ChaosOptions } from './chaos-plan.ts';
import { baselineProblems, chaosJson, formatSummary, summariseRun, type ChaosCounts } from './chaos-report.ts';
import { runChaos, type RunKind, type RunResult } from './chaos-run.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(opts: ChaosOptions, root: string, track: (c: ChaosCluster) => void): Promise<boolean> {
  const corpusDir = path.join(root, 'corpus');
  log(`chaos: generating ${opts.docs} documents and ${opts.bad} bad PDFs (seed ${opts.seed})`);
  const { bad } = await writeChaosCorpus(corpusDir, { docs: opts.docs, bad: opts.bad, seed: opts.seed });
  const docIds = corpusDocIds(corpusDir);
  const kinds: RunKind[] = ['undisturbed', ...opts.modes];
  const results = new Map<RunKind, RunResult>();
  for (const [runIndex, kind] of kinds.entries()) {
    log(`chaos: ${kind} run of ${docIds.length} documents (bound ${opts.seconds} s)`);
    const result = await runChaos({
      kind, corpusDir, docIds, runIndex, log, track,
      runDir: path.join(root, kind),
      boundMs: opts.seconds * 1000,
      seed: opts.seed,
      killWatcher: opts.killWatcher,
    });
    results.set(kind, result);
    const crashed = Object.entries(result.crashes).map(([name, n]) => `${name} ×${n}`);
    if (crashed.length) log(`chaos: ${kind}: processes that exited on their own (see ${path.join(root, kind, 'logs')} with --keep): ${crashed.join(', ')}`);
    log(`chaos: ${kind} done in ${result.seconds} s, ${result.kills} kills, redis restarted ${result.redisRestartAt === null ? 'never' : `at ${result.redisRestartAt} s`}, ${result.rows.length} chunk rows${result.settled ? '' : ' (bound reached before everything settled)'}`);
  }
  const baseline = results.get('undisturbed') as RunResult;
  const lines: string[] = [`chaos: ${docIds.length} documents (${bad.length} bad, expected to fail in every run)`];
  const base = summariseRun({ docIds, outcomes: baseline.outcomes, rows: baseline.rows, baselineRows: baseline.rows });
  lines.push(...formatSummary('undisturbed', base));
  const counts: Record<string, ChaosCounts> = {};
  const problems = baselineProblems(baseline.outcomes, new Set(bad.map(corpusDocId)));
  if (problems.length) {
    lines.push(`chaos: NOT A BASELINE: ${problems.length} documents of the undisturbed run did not end as intended (good → indexed, bad → failed), e.g. ${problems.slice(0, 5).join('; ')}`);
  }
  let clean = problems.length === 0 && base.counts.stuck === 0 && base.counts.duplicate === 0;
  for (const mode of opts.modes) {
    const r = results.get(mode) as RunResult;
    const s = summariseRun({ docIds, outcomes: r.outcomes, rows: r.rows, baselineRows: baseline.rows, baselineOutcomes: baseline.outcomes });
    counts[mode] = s.counts;
    lines.push(...formatSummary(`${mode} (${r.kills} kills, redis restart at ${r.redisRestartAt ?? '-'} s)`, s));
    clean &&= s.counts.stuck === 0 && s.counts.duplicate === 0 && s.counts.missing === 0 && s.divergent.length === 0;
  }
  if (opts.json) {
    for (const l of lines) log(l);
    process.stdout.write(`${chaosJson(counts)}\n`);
  } else {
    for (const l of lines) process.stdout.write(`${l}\n`);
  }
  return clean;
}

const opts = (() => {
  try {
    return parseChaosArgs(process.argv.slice(2));
  } catch (err) {
    log(`chaos: ${(err as Error).message}`);
    process.exit(2);
  }
})();
const root = mkdtempSync(path.join(tmpdir(), 'quarry-chaos-'));
const clusters: ChaosCluster[] = [];
let cleaned = false;
// Synchronous, so it also runs from 'exit' after an uncaught error: nothing may outlive the harness.
function cleanup(): void {
  if (cleaned) return;
  cleaned = true;
  for (const c of clusters) c.killNow();
  if (opts.keep) {
    log(`chaos: kept ${root}`);
    return;
  }
  try {
    // Retries ride out a child that was still writing a file when it got its SIGKILL.
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  } catch (err) {
    log(`chaos: could not remove ${root}: ${(err as Error).message}`);
  }
}
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    log(`chaos: ${signal}, stopping every process`);
    cleanup();
    process.exit(130);
  });
}
try {
  const clean = await main(opts, root, (c) => clusters.push(c));
  process.exitCode = clean ? 0 : 1;
} catch (err) {
  log(`chaos: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 2;
} finally {
  cleanup();
}
