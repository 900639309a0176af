import {
  createAgentRanking,
  createAnswerer,
  createDocumentLookup,
  DEFAULT_KNOBS,
  hypotheticalPrompt,
  reusedBranchCounts,
  type AgentDeps,
  type AgentKnobs,
  type ChunkMemory,
} from '../../shared/agent/index.ts';
import { createDocumentDirectory, createReranker, planQuery, reckonedQuarters, scaledAlphas, understandQuery } from '../../shared/retrieval/index.ts';
import { createRunContextStore, createTraceStore, type RunContext } from '../../shared/runs/index.ts';
import { PermanentError } from '../../shared/errors.ts';
import { facetWeights } from '../../shared/facets/index.ts';
import { createLlm } from '../../shared/llm/index.ts';
import type { FacetValueVector } from '../../shared/store/index.ts';
import { memoryUpdateQueue } from '../../queues/memory.queues.ts';
import type { Logger } from '../../shared/telemetry/index.ts';
import type { AgentPorts } from './agent-ports.ts';

/** Facet-value vectors change only when the facet-rebuild worker runs: read them at most this often. */
const FACET_ROWS_TTL_MS = 30_000;
/** Keyword weight of the search for a figure's table: labels and headers are words. */
const TABLE_SEARCH_ALPHA = 0.3;
/** How many chunks that search reads. */
const TABLE_SEARCH_LIMIT = 60;

/** A document's title changes only when it is ingested again: look it up at most this often. */
const TITLE_TTL_MS = 60_000;

/** The agent's dependencies from the ports an agent run has (see AGENT_PORTS) and config. */
export function createAgentDeps(ports: AgentPorts, log: Logger, knobs: AgentKnobs = DEFAULT_KNOBS, clock: () => Date = () => new Date()): AgentDeps {
  const { config } = ports;
  const reranker = createReranker(
    config.reranker.kind === 'lexical'
      ? { provider: 'lexical' }
      : { provider: 'http', url: config.reranker.url ?? '', shape: config.reranker.kind, model: config.reranker.model, apiKey: config.reranker.apiKey },
    (err) => log.warn('reranker failed: lexical fallback', { error: String(err) }),
  );
  const llm = createLlm(config.llm.provider === 'none' ? { provider: 'none' } : { provider: 'openai', model: config.llm.model, baseUrl: config.llm.baseUrl, apiKey: config.llm.apiKey });
  const traces = createTraceStore(ports.redis, config.prefix, config.gateway.traceTtlSeconds, config.gateway.traceMaxCount);
  const runContexts = createRunContextStore(ports.redis, config.prefix, config.gateway.traceTtlSeconds, config.gateway.traceMaxCount);
  let facetRows: { at: number; rows: Promise<FacetValueVector[]> } | null = null;
  // Routing's gazetteer: the documents' profiles, refreshed at most as often as titles.
  const documents = createDocumentDirectory(ports.store, { ttlMs: TITLE_TTL_MS, now: () => clock().getTime() });
  const documentRecord = createDocumentLookup({ listing: documents, read: (docId) => ports.store.getDocument(docId), ttlMs: TITLE_TTL_MS, now: () => clock().getTime() });
  const titleOf = async (docId: string, version?: string) => (await documentRecord(docId, version))?.title ?? docId;
  const documentOf = async (docId: string, version?: string) => {
    const record = await documentRecord(docId, version);
    const profile = record?.profile;
    if (!profile) return undefined;
    const first = profile.organisations[0];
    return { organisation: first?.name ?? null, aliases: profile.organisations.flatMap((o) => [o.name, ...o.aliases]), periodEnd: profile.period.end, quarters: reckonedQuarters(profile, record.source) };
  };

  return {
    knobs,
    today: () => clock().toISOString().slice(0, 10),
    understand: (query, today) => understandQuery(query, { today }),
    plan: (u) => planQuery(u, scaledAlphas(config.retrieval.alphaScale)),
    async embed(text) {
      const [v] = await ports.embedder.embed([text]);
      if (!v) throw new PermanentError('DIMENSION_MISMATCH', 'the embedder returned no vector for the query');
      return v;
    },
    hybrid: (q) => ports.store.hybrid(q),
    // On the version the branch's search will read (see VectorStore.countChunks); a positive
    // count reused for a few seconds across versions, as the estimate a branch choice needs.
    count: reusedBranchCounts((filter) => ports.store.countChunks(filter, { asSearched: true }), { now: () => performance.now() }),
    async facetWeights(vector) {
      if (!facetRows || clock().getTime() - facetRows.at > FACET_ROWS_TTL_MS) facetRows = { at: clock().getTime(), rows: ports.store.listFacetValues() };
      return facetWeights(vector, await facetRows.rows);
    },
    documents,
    // HyDE: with a model, a question worded far from the documents is searched by the passage it writes.
    ...(llm ? { hypothetical: (question: string) => llm.complete(hypotheticalPrompt(question), { maxTokens: 160 }) } : {}),
    async memory(chunkIds) {
      const views = await ports.memory.getMany(chunkIds, clock());
      const out = new Map<string, ChunkMemory>();
      for (const [id, v] of views) out.set(id, { decayedUtility: v.features.decayedUtility, centroid: v.stats.query_centroid, intentHist: v.stats.intent_hist });
      return out;
    },
    rank: createAgentRanking({ reranker, store: ports.store }),
    // Document text is data: instruction-like passages are withheld and the model's links checked.
    answer: createAnswerer({
      llm,
      titleOf,
      documentOf,
      // A statement's rows and headers are in its keyword text (row facts): a keyword-leaning search finds it.
      async searchTables(query, docIds) {
        if (docIds.length === 0) return [];
        const [vector] = await ports.embedder.embed([query]);
        if (!vector) return [];
        const hits = await ports.store.hybrid({ text: query, vector, alpha: TABLE_SEARCH_ALPHA, limit: TABLE_SEARCH_LIMIT, filter: { op: 'in', field: 'doc_id', values: [...docIds] } });
        return hits.map((h) => h.chunk).filter((c) => c.table !== undefined);
      },
    }),
    async remember(ctx: RunContext, at: Date) {
      await ports.queues.enqueue(memoryUpdateQueue, {
        runId: ctx.runId,
        outcomes: ctx.citedChunkIds.map((chunkId) => ({ chunkId, queryVector: ctx.queryVector, intent: ctx.intent, entities: ctx.entities })),
        at: at.toISOString(),
      });
    },
    async record(trace, ctx) {
      await Promise.all([traces.put(trace), runContexts.put(ctx)]);
    },
  };
}
