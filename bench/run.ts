import '../shared/store/lancedb/quiet-logs-first.ts';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { generateCorpus } from '../tests/fixtures/corpus.ts';
import { benchCorpus, type CorpusFigures } from './ingest.bench.ts';
import { dropToSearchableTenPages, type DropFigures } from './ingest-latency.ts';
import { benchPeer, type PeerFigures } from './peer/peer-bench.ts';
import { profileIngest, type CostProfile } from './ingest-profile.ts';
import { startRedisServer } from '../apps/cli/local-redis.ts';
import { queryBench } from './query.bench.ts';
import { queryJson, queryTable } from './query-report.ts';
import { parseSizes } from './query-stats.ts';

const SHARED = path.resolve(import.meta.dirname, '../../shared');
const FREECULTURE = path.join(SHARED, 'pdfs/robustness/freeculture.pdf');

function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

async function ingestBench(opts: { files: number; warmupFiles: number; rss: boolean }): Promise<Record<string, unknown>> {
  const loadAtStart = Math.round((loadavg()[0] ?? 0) * 100) / 100;
  const figures: Record<string, (CorpusFigures & { peer: PeerFigures }) | string> = {};
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-corpus-'));
  try {
    // The warm-up documents of the `warm` figures: small PDFs of another seed than the corpus's,
    // so none of them is a corpus document already indexed or its text already embedded.
    const warmup = opts.warmupFiles > 0 ? (await generateCorpus(path.join(dir, 'warmup'), { count: opts.warmupFiles, seed: 400 })).files : [];
    const corpusOpts = { rss: opts.rss, warmup };
    // Each corpus: Quarry's figures, then the LangChain.js peer on the same files (never both at once).
    if (existsSync(FREECULTURE)) figures.freeculture = { ...(await benchCorpus([FREECULTURE], corpusOpts)), peer: await benchPeer([FREECULTURE]) };
    else figures.freeculture = 'skipped: ../shared/pdfs/robustness/freeculture.pdf is not present';
    const { files } = await generateCorpus(path.join(dir, 'corpus'), { count: opts.files, seed: 200 });
    figures[`generated${opts.files}`] = { ...(await benchCorpus(files, corpusOpts)), peer: await benchPeer(files) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // A 10-page PDF dropped into an idle process, timed to searchable (issue 15's target: p95 ≤ 2 s).
  const dropToSearchable10Page = await dropToSearchableTenPages();
  return { ...figures, dropToSearchable10Page, peakRssMb: peakRssMb(), loadAverage: { start: loadAtStart, end: Math.round((loadavg()[0] ?? 0) * 100) / 100 } };
}

/** Small generated PDFs through every worker in this process, each port call timed. */
async function profileBench(opts: { files: number; pdf?: string }): Promise<CostProfile> {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-profile-'));
  const redis = await startRedisServer({ dir: path.join(dir, 'redis') });
  try {
    const files = opts.pdf ? [path.resolve(opts.pdf)] : (await generateCorpus(path.join(dir, 'corpus'), { count: opts.files, seed: 200 })).files;
    return await profileIngest(files, { redisUrl: redis.url, dataDir: path.join(dir, 'data') });
  } finally {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function printProfile(p: CostProfile): void {
  console.log(`${p.docs} documents, ${p.pages} pages: ${p.wallMsPerDoc} ms of wall time per document`);
  console.log(`stage handlers, ms per document: ${Object.entries(p.stageMsPerDoc).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`store commits (table versions) per document: ${Object.entries(p.storeCommitsPerDoc).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`CPU per document: ${p.cpuMsPerDoc.workers} ms this process (workers, LanceDB threads), ${p.cpuMsPerDoc.redis} ms Redis`);
  const b = p.cpuMsPerPageByPart;
  if (b) {
    const all = Math.round((b.mainThread + b.otherThreads + b.children + b.redis) * 10) / 10;
    console.log(`CPU per page: ${all} ms — main thread ${b.mainThread}, other threads (LanceDB, file I/O) ${b.otherThreads}, extraction children ${b.children}, Redis ${b.redis}`);
  }
  const t = p.otherThreadsMsPerPage;
  if (t) console.log(`other threads by name, ms per page: ${Object.entries(t).sort((x, y) => y[1] - x[1]).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log('\nport call                       calls/doc   ms/doc');
  for (const r of p.ops) console.log(`  ${r.op.padEnd(30)} ${String(r.callsPerDoc).padStart(8)} ${String(r.msPerDoc).padStart(8)}`);
  console.log('\nredis commands per document');
  for (const r of p.redisCommandsPerDoc) console.log(`  ${r.command.padEnd(30)} ${String(r.perDoc).padStart(8)}`);
}

function print(result: Record<string, unknown>): void {
  for (const [name, f] of Object.entries(result)) {
    if (name === 'loadAverage') {
      const l = f as { start: number; end: number };
      console.log(`\nload average ${l.start} → ${l.end}`);
      continue;
    }
    if (name === 'dropToSearchable10Page') {
      const d = f as DropFigures;
      console.log(`\n${d.samples} generated ${d.pages}-page PDFs dropped one by one: p50 ${d.p50Ms} ms, p95 ${d.p95Ms} ms to searchable (load ${d.loadAverage.start} → ${d.loadAverage.end})`);
      continue;
    }
    if (typeof f !== 'object' || f === null) {
      console.log(`${name}: ${String(f)}`);
      continue;
    }
    const c = f as CorpusFigures & { peer?: PeerFigures };
    console.log(`\n${name}: ${c.files} file(s), ${c.pages} pages, ${c.chunks} chunks`);
    console.log(`  unpdf extraction alone   ${c.unpdfPagesPerSec} pages/s`);
    console.log(`  in-process, no queues    ${c.inProcessPagesPerSec} pages/s, ${c.inProcessChunksPerSec} chunks/s`);
    console.log(`  through the queues       ${c.queuedPagesPerSec} pages/s, ${c.queuedChunksPerSec} chunks/s`);
    console.log(`  queue overhead           ${(c.queueOverheadRatio * 100).toFixed(1)}% (target ≤ 5%)`);
    if (c.peer) console.log(`  LangChain.js peer        ${c.peer.pagesPerSec} pages/s, ${c.peer.chunks} chunks`);
    if (c.cpuMsPerPage) {
      console.log(`  CPU per page             Quarry ${c.cpuMsPerPage.quarry} ms, unpdf alone ${c.cpuMsPerPage.unpdf} ms: ratio ${c.cpuRatio} (${c.pagesPerSecPerCore} pages per CPU-second)`);
      const b = c.cpuMsPerPageByPart;
      if (b) console.log(`    by part                main thread ${b.mainThread}, other threads ${b.otherThreads}, extraction children ${b.children}, Redis ${b.redis} ms`);
    }
    if (c.warm) {
      const w = c.warm;
      const b = w.cpuMsPerPageByPart;
      console.log(`  CPU per page, warmed up  Quarry ${w.cpuMsPerPage.quarry} ms, unpdf alone ${w.cpuMsPerPage.unpdf} ms: ratio ${w.cpuRatio} (after ${w.warmupFiles} other PDFs on each side)`);
      console.log(`    by part                main thread ${b.mainThread}, other threads ${b.otherThreads}, extraction children ${b.children}, Redis ${b.redis} ms`);
    }
    console.log(`  drop-to-searchable       p50 ${c.dropToSearchableP50Ms ?? '–'} ms, p95 ${c.dropToSearchableP95Ms ?? '–'} ms`);
    if (c.peakRssMbByStage) {
      console.log(`  peak RSS by stage (MB)   ${Object.entries(c.peakRssMbByStage).map(([k, v]) => `${k} ${v ?? '–'}`).join(', ')}`);
    }
    if (c.peakPodMemoryMbByStage) {
      console.log(`  as a pod counts it (MB)  ${Object.entries(c.peakPodMemoryMbByStage).map(([k, v]) => `${k} ${v ?? '–'}`).join(', ')}`);
    }
    if (c.stageProcessCpuMsPerPage) {
      const { total, byStage } = c.stageProcessCpuMsPerPage;
      console.log(`  CPU per page, a process per stage  ${total ?? '–'} ms (${Object.entries(byStage).map(([k, v]) => `${k} ${v ?? '–'}`).join(', ')}; Redis not counted)`);
    }
  }
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const which = args.find((a) => !a.startsWith('--')) ?? 'ingest';
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const filesArg = args.find((a) => a.startsWith('--files='));
if (which === 'query') {
  // Small PDFs for the mixed workload (ingest while asking); --no-mixed skips it.
  const mixedDir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-mixed-'));
  const ingestFiles = args.includes('--no-mixed') ? [] : (await generateCorpus(mixedDir, { count: 20, seed: 300 })).files;
  const result = await queryBench({
    ingestFiles,
    sizes: parseSizes(option('sizes'), [10_000, 100_000]),
    queries: Number(option('queries') ?? 100),
    gateway: args.includes('--no-gateway')
      ? null
      : { requests: Number(option('requests') ?? 200), concurrency: Number(option('concurrency') ?? 8), workers: [1, 2] },
    compareExact: !args.includes('--no-exact'),
    // WORKER_NICE of the mixed workload's ingest processes: one measurement each (default 0 then 10).
    workerNice: (option('worker-nice') ?? '0,10').split(',').map(Number),
    seed: Number(option('seed') ?? 42),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  rmSync(mixedDir, { recursive: true, force: true });
  if (json) console.log(JSON.stringify(queryJson(result)));
  else console.log(queryTable(result).join('\n'));
} else if (which === 'profile') {
  const pdf = option('pdf');
  if (pdf !== undefined && !statSync(pdf, { throwIfNoEntry: false })?.isFile()) {
    console.error(`--pdf=${pdf}: not a file; give the path of one PDF`);
    process.exit(2);
  }
  const result = await profileBench({ files: filesArg ? Number(filesArg.split('=')[1]) : 40, pdf });
  if (json) console.log(JSON.stringify(result));
  else printProfile(result);
} else if (which === 'coldstart') {
  const { coldStartBench, coldStartTable } = await import('./coldstart.ts');
  const result = await coldStartBench({ runs: Number(option('runs') ?? 3), build: !args.includes('--no-build'), log: (line) => process.stderr.write(`${line}\n`) });
  if (json) console.log(JSON.stringify(result));
  else console.log(coldStartTable(result).join('\n'));
} else if (which !== 'ingest') {
  console.error(`unknown benchmark "${which}"; available: ingest, query, profile, coldstart`);
  process.exit(2);
} else {
  const warmupFiles = Number(option('warmup') ?? 60);
  if (!Number.isInteger(warmupFiles) || warmupFiles < 0) {
    console.error(`--warmup=${option('warmup')}: give how many PDFs each side reads before the warm figures (0 skips them)`);
    process.exit(2);
  }
  const result = await ingestBench({
    files: filesArg ? Number(filesArg.split('=')[1]) : 200,
    warmupFiles,
    rss: !args.includes('--no-rss'),
  });
  if (json) console.log(JSON.stringify(result));
  else print(result);
}
