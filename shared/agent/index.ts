export { createAgentRanking } from './agent-ranking.ts';
export { createAnswerer } from './compose-answer.ts';
export { DEFAULT_KNOBS, type AgentDeps, type AgentKnobs, type ChunkMemory } from './deps.ts';
export { buildAgentGraph, runAgent, type AgentGraph } from './graph.ts';
export { hypotheticalPrompt } from './hyde.ts';
