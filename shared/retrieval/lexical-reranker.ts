import { analyseQuery, createPreparedTextCache, lexicalScores } from './lexical-match.ts';
import { orderResults, type Reranker } from './reranker.ts';

/**
 * The embedded reranker: no model, no server. Scores are {@link lexicalScores}: idf-weighted
 * term coverage, proximity (smallest window holding the matched terms) and an exact-phrase
 * bonus, with Korean compared spacing-insensitively (Hangul bigrams over text with the spaces
 * inside Hangul runs removed). Deterministic; idf is taken over the docs of the call, so a term
 * every candidate shares counts for less. Prepared passages are cached (see
 * {@link createPreparedTextCache}); the cache changes no score.
 */
export function createLexicalReranker(): Reranker {
  const prepare = createPreparedTextCache();
  return {
    name: 'lexical',
    async rerank(query, docs, signal) {
      signal?.throwIfAborted();
      if (docs.length === 0) return [];
      const scores = lexicalScores(analyseQuery(query), docs.map((d) => d.text), prepare);
      return orderResults(docs, scores.map((s) => s.score));
    },
  };
}
