import { analyseQuery, createPreparedTextCache, headedLexicalScores } from './lexical-match.ts';
import { orderResults, type Reranker } from './reranker.ts';

/**
 * The embedded reranker: no model, no server. Scores are {@link lexicalScores}: idf-weighted
 * term coverage, proximity (smallest window holding the matched terms) and an exact-phrase
 * bonus, with Korean compared spacing-insensitively (Hangul bigrams over text with the spaces
 * inside Hangul runs removed). A doc whose `heading` (title, section heading) covers the query is
 * lifted toward 1 ({@link headedLexicalScores}), BM25F-style. Deterministic; idf is taken over
 * the docs of the call, so a term every candidate shares counts for less. Prepared passages are
 * cached (see {@link createPreparedTextCache}); the cache changes no score.
 */
export function createLexicalReranker(): Reranker {
  const prepare = createPreparedTextCache();
  return {
    name: 'lexical',
    async rerank(query, docs, signal) {
      signal?.throwIfAborted();
      if (docs.length === 0) return [];
      return orderResults(docs, headedLexicalScores(analyseQuery(query), docs, prepare));
    },
  };
}
