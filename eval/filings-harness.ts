import path from 'node:path';
import type { AgentDeps } from '../shared/agent/deps.ts';
import { createLruEmbeddingCache, embedWithCache } from '../shared/embed/index.ts';
import { createLogger } from '../shared/telemetry/logger.ts';
import { createAgentDeps } from '../workers/agent/agent-deps.ts';
import type { Ports } from '../workers/runtime/ports.ts';
import { extractFigures } from './figures.ts';
import { loadFilings, type FilingQuestion } from './filings-data.ts';
import { ingestFilings, readPageTexts, readStoredTitles } from './filings-ingest.ts';
import { FILINGS_K, meanMeasures, measureQuestion, type AnswerOutcome, type FilingsMeans, type PageTexts, type QuestionMeasures } from './filings-measures.ts';
import type { VariantUnavailable } from './harness.ts';
import { sortTies } from './retrieved.ts';
import { selectVariants, VARIANTS, type AvailableVariant, type EvalQuery, type Variant, type VariantContext } from './variants.ts';

/** Options of {@link runFilingsEvaluation}. */
export interface FilingsEvaluationOptions {
  /** Folder with `docs/*.pdf` and `qna_data.csv`. */
  dataset: string;
  /** Variant names to run (reported in registry order). */
  variants: readonly string[];
  /** @defaultValue {@link VARIANTS} */
  registry?: readonly Variant[];
  /** Evaluate only the first N questions. */
  limitQueries?: number;
  /**
   * Chunks asked of each variant per question (the measures read the first 10).
   * @defaultValue 100
   */
  depth?: number;
  /**
   * Environment of the run's config (embedder, chunking, reranker, LLM…).
   * @defaultValue process.env
   */
  env?: NodeJS.ProcessEnv;
  /** @defaultValue the OS temp dir */
  tmpRoot?: string;
  log?: (line: string) => void;
}

/** One question's measures under one variant. */
export interface FilingsQuestionResult extends QuestionMeasures {
  /** File names of the first 10 chunks' documents, best first. */
  top: string[];
}

/** Scores of one variant over the filings. */
export interface FilingsVariantScores {
  name: string;
  available: true;
  description: string;
  mean: FilingsMeans;
  perQuery: Map<string, FilingsQuestionResult>;
  /** Mean wall time of one call (the agent's includes its answer), in milliseconds. */
  msPerQuery: number;
}

/** Everything one filings run measured. */
export interface FilingsReport {
  kind: 'filings';
  dataset: {
    name: string;
    documents: number;
    indexedDocuments: number;
    failedDocuments: { file: string; error: string }[];
    pages: number;
    chunks: number;
    questions: number;
    /** Questions whose answer has key figures (what evidence recall is averaged over). */
    evidenceCovered: number;
    /** CSV rows whose `Source Docs` glob matched no file (left out). */
    unmatchedQuestions: number;
    /** Each indexed filing's stored title (what citations show), in file order. */
    titles: { file: string; title: string }[];
  };
  embedder: { model: string; dimension: number };
  k: number;
  depth: number;
  timings: { loadMs: number; ingestMs: number; queryEmbedMs: number; totalMs: number };
  variants: (FilingsVariantScores | VariantUnavailable)[];
}

/**
 * The product agent's deps over the eval workspace — real answerer (configured LLM or the
 * extractive one), facet vectors of the ingested store, the configured reranker — except that
 * nothing is remembered or recorded, so one question's run cannot change the next one's ranking,
 * and tied search hits come in chunk-id order.
 */
export function filingsAgentDeps(ports: Ports): AgentDeps {
  return {
    ...createAgentDeps(ports, createLogger('error')),
    // The same tie order as the other modes (see sortTies).
    hybrid: async (q) => sortTies(await ports.store.hybrid(q)),
    remember: async () => undefined,
    record: async () => undefined,
  };
}

async function runFilingsVariant(
  variant: AvailableVariant,
  ctx: VariantContext,
  questions: readonly (FilingQuestion & { query: EvalQuery })[],
  fileOf: ReadonlyMap<string, string>,
  pages: PageTexts,
): Promise<FilingsVariantScores> {
  const retrieve = await variant.create(ctx);
  const perQuery = new Map<string, FilingsQuestionResult>();
  let elapsed = 0;
  for (const q of questions) {
    const t0 = performance.now();
    const r = await retrieve(q.query);
    elapsed += performance.now() - t0;
    // Chunk-level top 10: the agent's ranking is followed by its other candidates, which may repeat.
    const seen = new Set<string>();
    const ranking = r.chunks
      .filter((c) => !seen.has(c.chunkId) && seen.add(c.chunkId))
      .map((c) => ({ file: fileOf.get(c.docId) ?? c.docId, body: c.body }));
    const answer: AnswerOutcome | undefined = r.answer
      ? {
          text: r.answer.text,
          dateQualifier: r.answer.dateQualifier,
          citations: r.answer.citations.map((c) => ({ file: fileOf.get(c.docId) ?? c.docId, pages: c.pages })),
          validated: r.answer.validated,
          notFound: r.answer.notFound,
        }
      : undefined;
    const m = measureQuestion({ sourceFiles: q.sourceFiles, figures: extractFigures(q.answer) }, ranking, answer, { pages });
    perQuery.set(q.id, { ...m, top: ranking.slice(0, FILINGS_K).map((p) => p.file) });
  }
  return {
    name: variant.name,
    available: true,
    description: variant.description,
    mean: meanMeasures([...perQuery.values()]),
    perQuery,
    msPerQuery: questions.length ? elapsed / questions.length : 0,
  };
}

/**
 * Loads a filings dataset, ingests its PDFs through the real stages into a temporary store
 * ({@link ingestFilings}), runs the chosen variants over every question and measures document
 * recall@10, answer-evidence recall@10 and, for an answering variant, the answer figures. The
 * workspace is removed even when a step fails.
 *
 * @throws Error for an unknown variant name; a FilingsFormatError for a malformed dataset;
 *   whatever ingestion throws (redis-server missing, store errors).
 */
export async function runFilingsEvaluation(opts: FilingsEvaluationOptions): Promise<FilingsReport> {
  const registry = opts.registry ?? VARIANTS;
  const depth = opts.depth ?? 100;
  const log = opts.log ?? (() => undefined);
  selectVariants(opts.variants, registry);
  const tStart = performance.now();
  const data = await loadFilings(opts.dataset, opts.limitQueries !== undefined ? { limitQuestions: opts.limitQueries } : {});
  const loadMs = performance.now() - tStart;
  log(`loaded ${data.name}: ${data.files.length} PDFs, ${data.questions.length} questions`);
  const ingested = await ingestFilings({ docsDir: path.join(opts.dataset, 'docs'), files: data.files, env: opts.env, tmpRoot: opts.tmpRoot, log });
  const { ports } = ingested;
  const deferred: (() => Promise<void>)[] = [];
  try {
    log(`ingested ${data.files.length - ingested.failed.length}/${data.files.length} PDFs: ${ingested.pages} pages, ${ingested.chunks} chunks (${Math.round(ingested.ingestMs / 1000)} s)`);
    const tq = performance.now();
    const vectors = await embedWithCache(
      ports.embedder,
      data.questions.map((q) => q.text),
      createLruEmbeddingCache({ maxEntries: Math.max(1, data.questions.length) }),
      { batchSize: ports.config.embedder.batchSize },
    );
    const queryEmbedMs = performance.now() - tq;
    // Read once, before any mode runs: a cited page is checked against the text it was extracted as.
    const pages = await readPageTexts(ports, ingested.indexed);
    const titles = await readStoredTitles(ports, ingested.indexed);
    const questions = data.questions.map((q, i) => ({ ...q, query: { id: q.id, text: q.text, vector: vectors[i] as Float32Array } }));
    const ctx: VariantContext = {
      store: ports.store,
      embedder: ports.embedder,
      depth,
      alphaScale: ports.config.retrieval.alphaScale,
      agentDeps: filingsAgentDeps(ports),
      // The peer loads the same PDFs itself; its hits name the file, which the measures read.
      peerCorpus: { kind: 'pdfs', files: data.files.map((file) => ({ docId: file, path: path.join(opts.dataset, 'docs', file) })) },
      defer: (dispose) => deferred.push(dispose),
    };
    const wanted = new Set(opts.variants);
    const variants: (FilingsVariantScores | VariantUnavailable)[] = [];
    for (const variant of registry) {
      if (!variant.available) {
        variants.push({ name: variant.name, available: false, description: variant.description, reason: variant.reason });
        continue;
      }
      if (!wanted.has(variant.name)) continue;
      log(`running ${variant.name} over ${questions.length} questions`);
      variants.push(await runFilingsVariant(variant, ctx, questions, ingested.fileOf, pages));
    }
    return {
      kind: 'filings',
      dataset: {
        name: data.name,
        documents: data.files.length,
        indexedDocuments: data.files.length - ingested.failed.length,
        failedDocuments: ingested.failed,
        pages: ingested.pages,
        chunks: ingested.chunks,
        questions: questions.length,
        evidenceCovered: questions.filter((q) => extractFigures(q.answer).length > 0).length,
        unmatchedQuestions: data.unmatchedQuestions,
        titles,
      },
      embedder: { model: ports.embedder.model, dimension: ports.embedder.dimension },
      k: FILINGS_K,
      depth,
      timings: { loadMs, ingestMs: ingested.ingestMs, queryEmbedMs, totalMs: performance.now() - tStart },
      variants,
    };
  } finally {
    for (const dispose of deferred) await dispose();
    await ingested.dispose();
  }
}
