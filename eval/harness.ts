import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLruEmbeddingCache, embedWithCache, type Embedder } from '../shared/embed/index.ts';
import type { VectorStore } from '../shared/store/index.ts';
import { createLanceDbStore } from '../shared/store/lancedb/lancedb-store.ts';
import { loadBeir, type BeirDataset } from './beir.ts';
import { createDocIdMap, embeddingTextOf, isSearchable, type DocIdMap } from './corpus-rows.ts';
import { indexCorpus } from './index-corpus.ts';
import { evaluateRun, type Metrics } from './metrics.ts';
import {
  productAlpha,
  HYBRID_SWEEP_ALPHAS,
  VARIANTS,
  hybridVariant,
  selectVariants,
  type AvailableVariant,
  type EvalQuery,
  type Variant,
  type VariantContext,
} from './variants.ts';

/** Options of {@link runEvaluation}. */
export interface EvaluationOptions {
  /** BEIR-layout folder. */
  dataset: string;
  split: string;
  embedder: Embedder;
  /** Texts per embedder call. */
  embedBatchSize: number;
  /** HYBRID_ALPHA_SCALE of the run's config. @defaultValue 1 */
  alphaScale?: number;
  /** Variant names to run, in any order (reported in registry order). */
  variants: readonly string[];
  /**
   * Variant registry.
   * @defaultValue {@link VARIANTS}
   */
  registry?: readonly Variant[];
  /** Evaluate only the first N judged queries. */
  limitQueries?: number;
  /**
   * Results asked of each variant per query.
   * @defaultValue 100
   */
  depth?: number;
  /**
   * Hybrid alphas reported as `hybridAlpha` when `hybrid` runs; empty for none.
   * @defaultValue {@link HYBRID_SWEEP_ALPHAS}
   */
  sweepAlphas?: readonly number[];
  /**
   * Where the temporary LanceDB directory is made (it is removed afterwards).
   * @defaultValue the OS temp dir
   */
  tmpRoot?: string;
  /** Progress lines (to stderr in the CLI, so `--json` output stays clean). */
  log?: (line: string) => void;
}

/** Scores of one variant that ran. */
export interface VariantScores {
  name: string;
  available: true;
  description: string;
  mean: Metrics;
  perQuery: Map<string, Metrics>;
  /** Mean wall time of one retrieval call, in milliseconds (query embedding excluded). */
  msPerQuery: number;
  queries: number;
}

/** A variant that could not run. */
export interface VariantUnavailable {
  name: string;
  available: false;
  description: string;
  reason: string;
}

/** Everything one evaluation run measured. */
export interface EvaluationReport {
  dataset: {
    name: string;
    split: string;
    corpusSize: number;
    indexedDocs: number;
    skippedEmptyDocs: number;
    queries: number;
    judgments: number;
    unknownJudgedDocs: number;
  };
  embedder: { model: string; dimension: number };
  depth: number;
  timings: { loadMs: number; indexMs: number; embedMs: number; writeMs: number; queryEmbedMs: number; totalMs: number };
  variants: (VariantScores | VariantUnavailable)[];
  /** The hybrid alpha sweep, keyed by alpha as written (`"0.3"`); empty when hybrid did not run. */
  hybridAlpha: Record<string, VariantScores>;
}

/**
 * Runs one variant over every query, one at a time so `msPerQuery` is an honest latency, and
 * scores the ranked BEIR doc ids. A query's own id is dropped from its ranking, as BEIR does
 * (`ignore_identical_ids`): in datasets whose queries are also documents it would be a free hit.
 */
async function runVariant(
  variant: AvailableVariant,
  ctx: VariantContext,
  queries: readonly EvalQuery[],
  data: BeirDataset,
  ids: DocIdMap,
): Promise<VariantScores> {
  const retrieve = await variant.create(ctx);
  const run = new Map<string, string[]>();
  let elapsed = 0;
  for (const query of queries) {
    const t0 = performance.now();
    const storeIds = (await retrieve(query)).chunks.map((c) => c.docId);
    elapsed += performance.now() - t0;
    const ranking = storeIds.map((id) => ids.toBeir(id) ?? id).filter((id) => id !== query.id);
    run.set(query.id, ranking);
  }
  const { mean, perQuery } = evaluateRun(data.qrels, run);
  return {
    name: variant.name,
    available: true,
    description: variant.description,
    mean,
    perQuery,
    msPerQuery: queries.length ? elapsed / queries.length : 0,
    queries: queries.length,
  };
}

/** Formats an alpha as the sweep's key: `0.3`, `0.5`, never `0.30000000000000004`. */
export function alphaKey(alpha: number): string {
  return String(Number(alpha.toFixed(3)));
}

/** Options of {@link prepareEvaluation}: what is needed to load and index a dataset. */
export type PrepareOptions = Pick<EvaluationOptions, 'dataset' | 'split' | 'embedder' | 'embedBatchSize' | 'limitQueries' | 'tmpRoot' | 'log'>;

/** A dataset loaded and indexed into a temporary store, with its queries embedded. */
export interface PreparedEvaluation {
  data: BeirDataset;
  store: VectorStore;
  ids: DocIdMap;
  queries: EvalQuery[];
  indexed: { indexed: number; skippedEmpty: number; embedMs: number; writeMs: number };
  timings: { loadMs: number; indexMs: number; queryEmbedMs: number };
  /** Closes the store and removes its directory. */
  dispose(): Promise<void>;
}

/**
 * Loads a BEIR split, indexes its corpus into a fresh temporary LanceDB store through the
 * VectorStore port and embeds the queries. The caller must call `dispose`; on failure here the
 * temporary store is already removed.
 *
 * @throws a BeirFormatError for malformed data; whatever the embedder or store throws.
 */
export async function prepareEvaluation(opts: PrepareOptions): Promise<PreparedEvaluation> {
  const log = opts.log ?? (() => undefined);
  const tStart = performance.now();
  const data = await loadBeir(opts.dataset, opts.split, opts.limitQueries !== undefined ? { limitQueries: opts.limitQueries } : {});
  const loadMs = performance.now() - tStart;
  log(`loaded ${data.name}/${data.split}: ${data.corpus.length} docs, ${data.queries.length} judged queries (${Math.round(loadMs)} ms)`);

  const dir = await mkdtemp(path.join(opts.tmpRoot ?? tmpdir(), 'quarry-eval-'));
  let store: VectorStore | null = null;
  const dispose = async (): Promise<void> => {
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const lance = await createLanceDbStore({ dir });
    store = lance;
    await store.ensureSchema({ dimension: opts.embedder.dimension, model: opts.embedder.model });
    const ids = createDocIdMap();
    const tIndex = performance.now();
    const indexed = await indexCorpus(data.corpus, {
      store,
      embedder: opts.embedder,
      ids,
      dataset: data.name,
      embedBatchSize: opts.embedBatchSize,
      onProgress: (done, total) => log(`indexed ${done}/${total}`),
    });
    // Every row in the chunks table's full-text index before the first query: each is scored by
    // the whole corpus's statistics, on every run (the recent rows would score by their own).
    await lance.optimize();
    const indexMs = performance.now() - tIndex;

    const tQueries = performance.now();
    const queryVectors = await embedWithCache(
      opts.embedder,
      data.queries.map((q) => q.text),
      createLruEmbeddingCache({ maxEntries: Math.max(1, data.queries.length) }),
      { batchSize: opts.embedBatchSize },
    );
    const queryEmbedMs = performance.now() - tQueries;
    const queries: EvalQuery[] = data.queries.map((q, i) => ({ ...q, vector: queryVectors[i] as Float32Array }));
    return { data, store, ids, queries, indexed, timings: { loadMs, indexMs, queryEmbedMs }, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

/**
 * Loads and indexes a BEIR split ({@link prepareEvaluation}), runs the chosen variants (plus the
 * hybrid alpha sweep) and scores them. Pending variants are always listed. The temporary store
 * is removed even when a step fails.
 *
 * @throws Error for an unknown variant name; a BeirFormatError for malformed data; whatever the
 *   embedder or store throws.
 */
export async function runEvaluation(opts: EvaluationOptions): Promise<EvaluationReport> {
  const registry = opts.registry ?? VARIANTS;
  const depth = opts.depth ?? 100;
  const log = opts.log ?? (() => undefined);
  // Fail on a misspelt variant before minutes of indexing, not after.
  selectVariants(opts.variants, registry);
  const tStart = performance.now();
  const prepared = await prepareEvaluation(opts);
  const { data, store, ids, queries, indexed } = prepared;
  const deferred: (() => Promise<void>)[] = [];
  try {
    const ctx: VariantContext = {
      store,
      embedder: opts.embedder,
      depth,
      alphaScale: opts.alphaScale ?? 1,
      // The peer indexes the same searchable documents, by their BEIR ids (its hits need no mapping).
      peerCorpus: { kind: 'texts', docs: data.corpus.filter(isSearchable).map((d) => ({ docId: d.id, text: embeddingTextOf(d) })) },
      defer: (dispose) => deferred.push(dispose),
    };
    const wanted = new Set(opts.variants);
    const variants: (VariantScores | VariantUnavailable)[] = [];
    for (const variant of registry) {
      if (!variant.available) {
        // Pending variants are always listed, so a report says what it could not measure yet.
        variants.push({ name: variant.name, available: false, description: variant.description, reason: variant.reason });
        continue;
      }
      if (!wanted.has(variant.name)) continue;
      log(`running ${variant.name} over ${queries.length} queries`);
      variants.push(await runVariant(variant, ctx, queries, data, ids));
    }

    const hybridAlpha: Record<string, VariantScores> = {};
    const hybrid = variants.find((v): v is VariantScores => v.available && v.name === 'hybrid');
    if (hybrid) {
      for (const alpha of opts.sweepAlphas ?? HYBRID_SWEEP_ALPHAS) {
        if (alpha === productAlpha(ctx.alphaScale)) {
          hybridAlpha[alphaKey(alpha)] = hybrid;
          continue;
        }
        log(`running hybrid alpha ${alphaKey(alpha)}`);
        const variant = hybridVariant(`hybrid@${alphaKey(alpha)}`, alpha, `relativeScoreFusion, alpha ${alphaKey(alpha)}`);
        hybridAlpha[alphaKey(alpha)] = await runVariant(variant, ctx, queries, data, ids);
      }
    }

    return {
      dataset: {
        name: data.name,
        split: data.split,
        corpusSize: data.corpus.length,
        indexedDocs: indexed.indexed,
        skippedEmptyDocs: indexed.skippedEmpty,
        queries: data.queries.length,
        judgments: [...data.qrels.values()].reduce((n, j) => n + j.size, 0),
        unknownJudgedDocs: data.unknownJudgedDocs,
      },
      embedder: { model: opts.embedder.model, dimension: opts.embedder.dimension },
      depth,
      timings: { ...prepared.timings, embedMs: indexed.embedMs, writeMs: indexed.writeMs, totalMs: performance.now() - tStart },
      variants,
      hybridAlpha,
    };
  } finally {
    for (const dispose of deferred) await dispose();
    await prepared.dispose();
  }
}
