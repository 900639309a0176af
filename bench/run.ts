import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateCorpus } from '../tests/fixtures/corpus.ts';
import { benchCorpus, type CorpusFigures } from './ingest.bench.ts';
import { queryBench } from './query.bench.ts';
import { queryJson, queryTable } from './query-report.ts';
import { parseSizes } from './query-stats.ts';

const SHARED = path.resolve(import.meta.dirname, '../../shared');
const FREECULTURE = path.join(SHARED, 'pdfs/robustness/freeculture.pdf');

function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

async function ingestBench(opts: { files: number }): Promise<Record<string, unknown>> {
  const figures: Record<string, CorpusFigures | string> = {};
  if (existsSync(FREECULTURE)) figures.freeculture = await benchCorpus([FREECULTURE]);
  else figures.freeculture = 'skipped: ../shared/pdfs/robustness/freeculture.pdf is not present';
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-corpus-'));
  try {
    const { files } = await generateCorpus(dir, { count: opts.files, seed: 200 });
    figures[`generated${opts.files}`] = await benchCorpus(files);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { ...figures, peakRssMb: peakRssMb() };
}

function print(result: Record<string, unknown>): void {
  for (const [name, f] of Object.entries(result)) {
    if (typeof f !== 'object' || f === null) {
      console.log(`${name}: ${String(f)}`);
      continue;
    }
    const c = f as CorpusFigures;
    console.log(`\n${name}: ${c.files} file(s), ${c.pages} pages, ${c.chunks} chunks`);
    console.log(`  unpdf extraction alone   ${c.unpdfPagesPerSec} pages/s`);
    console.log(`  in-process, no queues    ${c.inProcessPagesPerSec} pages/s, ${c.inProcessChunksPerSec} chunks/s`);
    console.log(`  through the queues       ${c.queuedPagesPerSec} pages/s, ${c.queuedChunksPerSec} chunks/s`);
    console.log(`  queue overhead           ${(c.queueOverheadRatio * 100).toFixed(1)}% (target ≤ 15%)`);
  }
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const which = args.find((a) => !a.startsWith('--')) ?? 'ingest';
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const filesArg = args.find((a) => a.startsWith('--files='));
if (which === 'query') {
  const result = await queryBench({
    sizes: parseSizes(option('sizes'), [10_000, 100_000]),
    queries: Number(option('queries') ?? 100),
    gateway: args.includes('--no-gateway')
      ? null
      : { requests: Number(option('requests') ?? 200), concurrency: Number(option('concurrency') ?? 8), workers: [1, 2] },
    compareExact: !args.includes('--no-exact'),
    seed: Number(option('seed') ?? 42),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  if (json) console.log(JSON.stringify(queryJson(result)));
  else console.log(queryTable(result).join('\n'));
} else if (which !== 'ingest') {
  console.error(`unknown benchmark "${which}"; available: ingest, query`);
  process.exit(2);
} else {
  const result = await ingestBench({ files: filesArg ? Number(filesArg.split('=')[1]) : 200 });
  if (json) console.log(JSON.stringify(result));
  else print(result);
}
