/**
 * Chunking: sections → 400–900-token chunks per doc type policy, each table a chunk of its own,
 * content-addressed ids; sentences, the token counters, a chunk's pages from its lines, coverage.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: chunkDocument and chunkSections, DEFAULT_CHUNK_POLICIES, createCl100kCounter.
 */

export { chunkSections, draftChunks, embeddingTextOf, finaliseChunks, type ChunkDocument, type ChunkDraft } from './chunker.ts';
export { ChunkPolicy, ChunkPolicyTable, DEFAULT_CHUNK_POLICIES, resolvePolicy } from './policy.ts';
export { splitSentenceSpans, splitSentences, type Span } from './sentences.ts';
export { createCharEstimateCounter, createCl100kCounter, type TokenCounter } from './tokenizer.ts';

export { chunkDocument } from './chunker.ts';
export { coverageOf } from './coverage.ts';
export { quotedPages } from './line-pages.ts';
