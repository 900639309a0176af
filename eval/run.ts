/*
 * npm run eval -- --dataset <folder> [--split test] [--json] [--per-query] [--out <file>]
 *                 [--limit-queries N] [--variants keyword,vector,hybrid] [--depth 100] [--alphas 0.3,0.5,0.7]
 *
 * A BEIR folder (corpus.jsonl) is indexed into a temporary LanceDB store and its variants scored
 * by nDCG/Recall/MRR; a filings folder (docs/ + qna_data.csv) is ingested through the real stages
 * and scored by document recall@10 and answer-evidence recall@10 (eval/filings-*.ts). The
 * embedder comes from the usual environment (EMBEDDER, EMBED_MODEL, EMBED_DIMENSION,
 * EMBED_BASE_URL, EMBED_API_KEY, EMBED_BATCH_SIZE), so any OpenAI-compatible model can be scored.
 */
import '../shared/store/lancedb/quiet-logs-first.ts';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../shared/config/config.ts';
import { createEmbedder } from '../shared/embed/index.ts';
import { isFilingsDataset } from './filings-data.ts';
import { runFilingsEvaluation } from './filings-harness.ts';
import { filingsToJson, formatFilingsTable } from './filings-report.ts';
import { runEvaluation } from './harness.ts';
import { formatTable, toJson } from './report.ts';
import { defaultVariantNames, HYBRID_SWEEP_ALPHAS, VARIANTS } from './variants.ts';

const USAGE = `usage: npm run eval -- --dataset <beir-or-filings-folder> [--split test] [--json] [--per-query] [--out <file>|none]
                        [--limit-queries N] [--variants ${VARIANTS.map((v) => v.name).join(',')}] [--depth 100]
                        [--alphas ${HYBRID_SWEEP_ALPHAS.join(',')}]`;

/** Parsed command line of the eval CLI. */
export interface EvalArgs {
  dataset: string;
  split: string;
  json: boolean;
  perQuery: boolean;
  limitQueries?: number;
  variants: string[];
  depth: number;
  /** Alphas of the hybrid sweep (`hybridAlpha`). */
  alphas: number[];
  /** Where the JSON report is written (`none`: nowhere); absent: {@link defaultResultsPath}. */
  out?: string;
}

function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer, got "${value}"`);
  return n;
}

/**
 * Parses the eval command line.
 * @throws Error with a usage message for unknown flags or bad values.
 */
export function parseEvalArgs(argv: readonly string[]): EvalArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      dataset: { type: 'string' },
      split: { type: 'string', default: 'test' },
      json: { type: 'boolean', default: false },
      'per-query': { type: 'boolean', default: false },
      'limit-queries': { type: 'string' },
      variants: { type: 'string' },
      depth: { type: 'string' },
      alphas: { type: 'string' },
      out: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!values.dataset) throw new Error('--dataset is required');
  const variants = values.variants
    ? values.variants.split(',').map((s) => s.trim()).filter((s) => s !== '')
    : defaultVariantNames();
  const limitQueries = positiveInt('--limit-queries', values['limit-queries']);
  const alphas = values.alphas === undefined ? [...HYBRID_SWEEP_ALPHAS] : values.alphas.split(',').map((a) => a.trim()).filter((a) => a !== '').map(Number);
  const badAlpha = alphas.find((a) => !(a >= 0 && a <= 1));
  if (badAlpha !== undefined) throw new Error(`--alphas must be numbers in [0, 1], got "${values.alphas}"`);
  return {
    dataset: values.dataset,
    split: values.split,
    json: values.json,
    perQuery: values['per-query'],
    ...(limitQueries !== undefined ? { limitQueries } : {}),
    variants,
    depth: positiveInt('--depth', values.depth) ?? 100,
    alphas,
    ...(values.out !== undefined ? { out: values.out } : {}),
  };
}

const RESULTS_DIR = path.resolve(import.meta.dirname, 'results');

/**
 * Where a run's JSON goes unless `--out` says otherwise: `eval/results/<dataset>.json` for a
 * filings set, `eval/results/<dataset>-<split>.json` for BEIR — the file docs/evaluation.md quotes. A run
 * over part of the queries (`--limit-queries`) writes nothing, so it never overwrites a full
 * run's figures.
 */
export function defaultResultsPath(args: EvalArgs, filings: boolean): string | null {
  if (args.out !== undefined) return args.out === 'none' ? null : path.resolve(args.out);
  if (args.limitQueries !== undefined) return null;
  const name = path.basename(path.resolve(args.dataset));
  return path.join(RESULTS_DIR, filings ? `${name}.json` : `${name}-${args.split}.json`);
}

async function writeResults(file: string | null, json: Record<string, unknown>): Promise<void> {
  if (file === null) return;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
  console.error(`wrote ${path.relative(process.cwd(), file) || file}`);
}

async function runFilings(args: EvalArgs): Promise<number> {
  const report = await runFilingsEvaluation({
    dataset: args.dataset,
    variants: args.variants,
    depth: args.depth,
    ...(args.limitQueries !== undefined ? { limitQueries: args.limitQueries } : {}),
    log: (line) => console.error(line),
  });
  await writeResults(defaultResultsPath(args, true), filingsToJson(report));
  if (args.json) console.log(JSON.stringify(filingsToJson(report, { perQuery: args.perQuery })));
  else console.log(formatFilingsTable(report));
  return 0;
}

async function main(): Promise<number> {
  let args: EvalArgs;
  try {
    args = parseEvalArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (isFilingsDataset(args.dataset)) return runFilings(args);
  const config = loadConfig(process.env);
  const embedder = createEmbedder(config.embedder);
  const report = await runEvaluation({
    dataset: args.dataset,
    split: args.split,
    embedder,
    embedBatchSize: config.embedder.batchSize,
    alphaScale: config.retrieval.alphaScale,
    variants: args.variants,
    depth: args.depth,
    sweepAlphas: args.alphas,
    ...(args.limitQueries !== undefined ? { limitQueries: args.limitQueries } : {}),
    // Progress goes to stderr so `--json` stdout is exactly one JSON object.
    log: (line) => console.error(line),
  });
  await writeResults(defaultResultsPath(args, false), toJson(report));
  if (args.json) console.log(JSON.stringify(toJson(report, { perQuery: args.perQuery })));
  else console.log(formatTable(report));
  return 0;
}

// Only as a script: tests import parseEvalArgs without starting a run.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exitCode = 1;
    },
  );
}
