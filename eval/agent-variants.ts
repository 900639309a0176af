import { createAgentRanking } from '../shared/agent/agent-ranking.ts';
import { DEFAULT_KNOBS, type AgentDeps } from '../shared/agent/deps.ts';
import { buildAgentGraph, runAgentState } from '../shared/agent/graph.ts';
import { createLexicalReranker, planQuery, rerankHits, scaledAlphas, understandQuery } from '../shared/retrieval/index.ts';
import { retrieved, sortTies } from './retrieved.ts';
import type { AvailableVariant, VariantContext } from './variant-types.ts';

const TODAY = '2100-01-01';

/**
 * `hybrid+rerank`: the product-default hybrid candidates reordered by the lexical reranker, each
 * scored as the agent's content score does (0.5 · fused hybrid + 0.5 · rerank).
 */
export const hybridRerankVariant: AvailableVariant = {
  name: 'hybrid+rerank',
  description: 'hybrid candidates, content score 0.5·hybrid + 0.5·lexical rerank',
  available: true,
  create: ({ store, depth, alphaScale }) => {
    const reranker = createLexicalReranker();
    return async (query) => {
      const hits = await store.hybrid({ text: query.text, vector: query.vector, alpha: scaledAlphas(alphaScale ?? 1).defaultAlpha, limit: depth });
      const rerank = await rerankHits(reranker, query.text, hits);
      const scored = sortTies(hits.map((h) => ({ chunk: h.chunk, score: 0.5 * h.score + 0.5 * (rerank.get(h.chunk.chunk_id) ?? 0) })));
      return { chunks: scored.map((x) => retrieved(x.chunk)) };
    };
  },
};

/**
 * The agent's deps over the evaluation store: the same listener, planner, search, ranking and
 * validator as the product; no facet vectors or memory (a BEIR corpus has neither), nothing recorded.
 */
function evalAgentDeps(ctx: VariantContext): AgentDeps {
  const { store, embedder, depth } = ctx;
  return {
    knobs: { ...DEFAULT_KNOBS, stage1Limit: Math.max(300, depth), keep: depth },
    today: () => TODAY,
    understand: (q, today) => understandQuery(q, { today }),
    plan: (u) => planQuery(u, scaledAlphas(ctx.alphaScale ?? 1)),
    embed: async (text) => (await embedder.embed([text]))[0] as Float32Array,
    hybrid: async (q) => sortTies(await store.hybrid(q)),
    count: (filter) => store.countChunks(filter),
    facetWeights: async () => ({}),
    memory: async () => new Map(),
    rank: createAgentRanking({ reranker: createLexicalReranker(), store }),
    answer: async () => ({ text: '', citations: [], dateQualifier: null }),
    remember: async () => undefined,
    record: async () => undefined,
  };
}

/** `agent`: the full agent graph's ranking (planner alpha, narrowing, rerank, MMR, validator loops). */
export const agentVariant: AvailableVariant = {
  name: 'agent',
  description: 'the agent graph’s final ranking (planner alpha, rerank + MMR, validator loops)',
  available: true,
  create: (ctx) => {
    const graph = buildAgentGraph(ctx.agentDeps ?? evalAgentDeps(ctx));
    return async (query) => {
      const s = await runAgentState(graph, { runId: `eval-${query.id}`.replace(/[^A-Za-z0-9_-]/g, '_').padEnd(8, '_'), query: query.text });
      // The agent keeps `depth` passages; the rest of its candidates follow, so Recall@100 is comparable.
      const ranked = s.ranked.map((r) => retrieved(r.hit.chunk));
      const rest = (s.narrowed ?? s.candidates).map((h) => retrieved(h.chunk));
      return {
        chunks: [...ranked, ...rest],
        answer: {
          text: s.text,
          dateQualifier: s.dateQualifier,
          citations: s.citations.map((c) => ({ docId: c.docId, pages: c.pages })),
          validated: s.validated,
          notFound: s.notFound,
        },
      };
    };
  },
};
