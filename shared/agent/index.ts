/**
 * The LangGraph agent that answers a question: the graph and its state, the nodes (understand,
 * plan, search, rank, validate, answer), the answerer (extractive, or with the Llm), the agent's
 * ranking and its HyDE prompt. What a run leaves behind (answer, events, trace) is shared/runs/.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: buildAgentGraph, runAgent and the AgentDeps they run on (built by
 * workers/agent/agent-deps.ts). This index loads @langchain/langgraph: only the agent worker
 * imports it, on its first run.
 */

export { createAgentRanking } from './agent-ranking.ts';
export { reusedBranchCounts } from './branch-counts.ts';
export { createAnswerer } from './compose-answer.ts';
export { createDocumentLookup, type DocumentFacts } from './document-lookup.ts';
export { DEFAULT_KNOBS, type AgentDeps, type AgentKnobs, type ChunkMemory } from './deps.ts';
export { buildAgentGraph, runAgent, type AgentGraph } from './graph.ts';
export { hypotheticalPrompt } from './hyde.ts';
