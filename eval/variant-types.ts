/**
 * The types every evaluation variant is written against, apart from the registry (variants.ts)
 * that lists the variants: a variant module imports these, the registry imports the variants.
 */
import type { AgentDeps } from '../shared/agent/deps.ts';
import type { Embedder } from '../shared/embed/index.ts';
import type { VectorStore } from '../shared/store/index.ts';
import type { PeerPdf, PeerText } from '../bench/peer/langchain-pipeline.ts';
import type { Retrieval } from './retrieved.ts';

/**
 * What the peer indexes itself, since it does not read Quarry's store: a BEIR corpus as text
 * (same splitter and store, no loader), a filings set as its PDFs (through `PDFLoader`). The doc
 * ids are what the harness scores by: BEIR ids, or the filings' file names.
 */
export type PeerCorpus = { kind: 'texts'; docs: readonly PeerText[] } | { kind: 'pdfs'; files: readonly PeerPdf[] };

/** A query as a variant receives it: the text and its vector (embedded once, up front). */
export interface EvalQuery {
  id: string;
  text: string;
  /** The query embedded by the run's embedder; variants that re-embed may ignore it. */
  vector: Float32Array;
}

/** What every variant may use. */
export interface VariantContext {
  store: VectorStore;
  embedder: Embedder;
  /**
   * How many results a variant should return (the harness scores up to Recall@100).
   * @defaultValue 100
   */
  depth: number;
  /**
   * The product's trust in the vector side (HYBRID_ALPHA_SCALE: 1 for a model embedder, 0.2 for
   * `hash`): the `hybrid` variant runs at the alpha `quarry search` and the planner default to.
   * @defaultValue 1
   */
  alphaScale?: number;
  /**
   * The agent's dependencies when the run has the product's (the filings eval: real answerer,
   * facet vectors of an ingested store). Without them the `agent` variant builds eval deps with no
   * answerer, facets or memory (a BEIR corpus has none).
   */
  agentDeps?: AgentDeps;
  /**
   * The corpus itself, for a variant that indexes it its own way (`langchain`, the peer). Without
   * it such a variant throws when created.
   */
  peerCorpus?: PeerCorpus;
  /** Registers clean-up the run performs once every variant is done (a variant's own store). */
  defer?: (dispose: () => Promise<void>) => void;
}

/** Answers one query with a chunk ranking (and, for an answering variant, its answer). */
export type Retriever = (query: EvalQuery) => Promise<Retrieval>;


/** A variant that can run now. */
export interface AvailableVariant {
  name: string;
  description: string;
  available: true;
  /** Builds the retriever once per run (load a model, open a client …). */
  create(ctx: VariantContext): Retriever | Promise<Retriever>;
}

/** A variant whose component has not landed yet: listed in reports, never faked. */
export interface PendingVariant {
  name: string;
  description: string;
  available: false;
  /** Why it cannot run, shown in the report. */
  reason: string;
}

/** An entry of the variant registry. */
export type Variant = AvailableVariant | PendingVariant;
