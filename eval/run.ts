/*
 * npm run eval -- --dataset <beir-folder> [--split test] [--json] [--per-query]
 *                 [--limit-queries N] [--variants keyword,vector,hybrid] [--depth 100] [--alphas 0.3,0.5,0.7]
 *
 * Indexes a BEIR corpus into a temporary LanceDB store and scores retrieval variants. The
 * embedder comes from the usual environment (EMBEDDER, EMBED_MODEL, EMBED_DIMENSION,
 * EMBED_BASE_URL, EMBED_API_KEY, EMBED_BATCH_SIZE), so any OpenAI-compatible model can be scored.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../shared/config/config.ts';
import { createEmbedder } from '../shared/embed/index.ts';
import { runEvaluation } from './harness.ts';
import { formatTable, toJson } from './report.ts';
import { defaultVariantNames, HYBRID_SWEEP_ALPHAS, VARIANTS } from './variants.ts';

const USAGE = `usage: npm run eval -- --dataset <beir-folder> [--split test] [--json] [--per-query]
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
  };
}

async function main(): Promise<number> {
  let args: EvalArgs;
  try {
    args = parseEvalArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
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
