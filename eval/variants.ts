import { createDocumentDirectory } from '../shared/retrieval/document-directory.ts';
import { routedHybrid } from '../shared/retrieval/routed-search.ts';
import type { HybridQuery } from '../shared/store/index.ts';
import { agentVariant, hybridRerankVariant } from './agent-variants.ts';
import { langchainVariant } from './langchain-variant.ts';
import type { AvailableVariant, Variant } from './variant-types.ts';
import { retrieved, sortTies } from './retrieved.ts';

export type { Retrieval, RetrievedChunk } from './retrieved.ts';
export type { AvailableVariant, EvalQuery, PeerCorpus, PendingVariant, Retriever, Variant, VariantContext } from './variant-types.ts';

/**
 * A hybrid-search variant through the VectorStore port at a fixed alpha (0 = BM25 only,
 * 1 = vector only); the store fuses both sides with relativeScoreFusion.
 */
export function hybridVariant(name: string, alpha: number, description: string): AvailableVariant {
  return {
    name,
    description,
    available: true,
    create: ({ store, depth }) =>
      async (query) => {
        const hits = await store.hybrid({ text: query.text, vector: query.vector, alpha, limit: depth });
        return { chunks: sortTies(hits).map((h) => retrieved(h.chunk)) };
      },
  };
}

/**
 * The product's hybrid search, as `quarry search` runs it: relativeScoreFusion at the product
 * alpha, with the documents the question names (organisations, periods, forms of the indexed
 * documents' profiles) first and nothing filtered out (`routedHybrid`). A corpus without profiles
 * (BEIR) routes nothing, so this is then the store's plain hybrid.
 */
export const productHybridVariant: AvailableVariant = {
  name: 'hybrid',
  description: 'quarry search: relativeScoreFusion at the product alpha (0.5 × HYBRID_ALPHA_SCALE), named documents first',
  available: true,
  create: ({ store, depth, alphaScale }) => {
    const documents = createDocumentDirectory(store);
    // Ties settled per search, as the agent's eval deps do: sorting the merged list by score
    // would undo the routing's order (named documents first).
    const tied = { hybrid: async (q: HybridQuery) => sortTies(await store.hybrid(q)) };
    return async (query) => {
      const q = { text: query.text, vector: query.vector, alpha: productAlpha(alphaScale), limit: depth };
      const { hits } = await routedHybrid({ store: tied, documents }, query.text, q);
      return { chunks: hits.map((h) => retrieved(h.chunk)) };
    };
  },
};

/** Alphas of the hybrid sweep reported as `hybridAlpha` (0.5 is the `hybrid` variant itself). */
export const HYBRID_SWEEP_ALPHAS = [0.3, 0.5, 0.7] as const;

/** The planner's default alpha before the embedder's scale. */
export const HYBRID_ALPHA = 0.5;

/** Alpha of the `hybrid` variant: the product default (`quarry search`, the planner's default). */
export function productAlpha(alphaScale = 1): number {
  return HYBRID_ALPHA * alphaScale;
}

/**
 * The variant registry, in report order. To add `hybrid+rerank` or `agent` once the reranker
 * (shared/retrieval) or the agent lands, replace its pending entry with an {@link AvailableVariant}
 * whose `create` builds the component from the context; the harness, table and JSON need no change.
 */
export const VARIANTS: readonly Variant[] = [
  hybridVariant('keyword', 0, 'BM25 only (alpha 0)'),
  hybridVariant('vector', 1, 'vector only (alpha 1)'),
  productHybridVariant,
  hybridRerankVariant,
  agentVariant,
  langchainVariant,
];

/** Variants run when `--variants` is not given: every available one. */
export function defaultVariantNames(registry: readonly Variant[] = VARIANTS): string[] {
  return registry.filter((v) => v.available).map((v) => v.name);
}

/**
 * Looks variant names up in the registry, keeping the registry's order.
 * @throws Error naming the unknown names and every known one.
 */
export function selectVariants(names: readonly string[], registry: readonly Variant[] = VARIANTS): Variant[] {
  const known = new Set(registry.map((v) => v.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new Error(`unknown variant(s) ${unknown.join(', ')}; known: ${registry.map((v) => v.name).join(', ')}`);
  }
  const wanted = new Set(names);
  return registry.filter((v) => wanted.has(v.name));
}
