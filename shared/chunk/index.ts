/** Chunking: sections → sized, overlapping, content-addressed chunks. */
export { chunkSections, draftChunks, embeddingTextOf, finaliseChunks, type ChunkDocument, type ChunkDraft } from './chunker.ts';
export { ChunkPolicy, ChunkPolicyTable, DEFAULT_CHUNK_POLICIES, resolvePolicy } from './policy.ts';
export { splitSentenceSpans, splitSentences, type Span } from './sentences.ts';
export { createCharEstimateCounter, createCl100kCounter, type TokenCounter } from './tokenizer.ts';

export { chunkDocument } from './chunker.ts';
export { coverageOf } from './coverage.ts';
export { quotedPages } from './line-pages.ts';
