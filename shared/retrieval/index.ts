/**
 * Retrieval: query understanding and its dates, the planner and the hybrid weight, routing to
 * documents (and the document directory it reads), the rerankers (lexical; HTTP cross-encoder with
 * a lexical fallback), MMR, facet and memory priors, instruction-like text, the ranking that
 * composes them.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: understandQuery, planQuery, createReranker, rankCandidates, routedHybrid,
 * createDocumentDirectory.
 */

import { PermanentError } from '../errors.ts';
import { createHttpReranker, type RerankShape } from './http-reranker.ts';
import { createLexicalReranker } from './lexical-reranker.ts';
import { withFallback, type Reranker } from './reranker.ts';

export { orderResults, withFallback, type RerankDoc, type RerankResult, type Reranker } from './reranker.ts';
export { createLexicalReranker } from './lexical-reranker.ts';
export {
  createHttpReranker,
  parseRerankResponse,
  rerankEndpoint,
  rerankRequestBody,
  RERANKER_UNAVAILABLE_CODE,
  toUnitScores,
  type HttpRerankerOptions,
  type RerankShape,
} from './http-reranker.ts';
export { analyseQuery, lexicalScores, matchForm, LEXICAL_WEIGHTS, type LexicalScore, type MatchUnit, type QueryAnalysis } from './lexical-match.ts';
export {
  findDateMentions,
  keywordSearchText,
  normaliseQuery,
  resolvePeriod,
  understandQuery,
  type DateMention,
  type DatePrecision,
  type UnderstandOptions,
  type UnderstoodQuery,
} from './query-understanding.ts';
export { spelledOutAbbreviations } from './abbreviations.ts';
export { ASKS_LIMIT, STATES_AT_LEAST, STATES_AT_MOST, limitSearchWords } from './limit-words.ts';
export {
  chooseAlpha,
  detectIntent,
  facetHypotheses,
  hasLawReference,
  INTENTS,
  mergeFacetWeights,
  planQuery,
  type AlphaReason,
  type Intent,
  type PlannerInput,
  type PlannerOptions,
  type QueryPlan,
} from './planner.ts';
export {
  citedPeriodQualifier,
  findQueryForm,
  findQueryPeriod,
  findQueryPeriods,
  periodMatches,
  periodQualifier,
  routeQuery,
  type DirectoryEntry,
  type QueryPeriod,
  type QueryScope,
} from './document-routing.ts';
export { routedHybrid, type RoutedSearchDeps } from './routed-search.ts';
export { layeredDocWeights, scoreLayers, type DocumentLayers, type LayerScore } from './document-layer.ts';
export { coverDocuments } from './document-coverage.ts';
export { DEFAULT_MMR_LAMBDA, mmrSelect, type MmrItem, type MmrOptions, type MmrPick } from './mmr.ts';
export { cosine } from '../vector-math.ts';
export {
  applyExploration,
  createSeededRng,
  DEFAULT_MEMORY,
  DEFAULT_PRIOR,
  explorationSlots,
  facetKey,
  memoryBonus,
  metadataPrior,
  softCap,
  squashUtility,
  type ExplorationOptions,
  type FacetValues,
  type FacetWeights,
  type MemoryBonusOptions,
  type MemorySignal,
  type PriorContribution,
  type PriorOptions,
  type Rng,
} from './priors.ts';
export { detectInstructionLike, INSTRUCTION_FLAG_SCORE, type InstructionLikeResult } from './instruction-like.ts';
export { DEFAULT_INSTRUCTION_PENALTY, rankCandidates, type ChunkMemory, type RankCandidate, type RankedCandidate, type RankInput, type RankOptions, type RankTerms } from './rank.ts';
export { rerankHits } from './rerank-hits.ts';

/** Reranker settings as they appear in Quarry's config. */
export type RerankerConfig =
  | { provider: 'lexical' }
  | {
      provider: 'http';
      url: string;
      shape: RerankShape;
      model?: string;
      apiKey?: string;
      /** @defaultValue 10000 */
      timeoutMs?: number;
      /**
       * Fall back to the lexical reranker when the server fails, instead of failing the query.
       * @defaultValue true
       */
      fallbackToLexical?: boolean;
    };

/**
 * Builds the reranker named by `config.provider`. An `http` reranker falls back to the lexical
 * one unless `fallbackToLexical` is false; `onFallback` hears about each fallback.
 *
 * @throws PermanentError `INVALID_CONFIG` for an unknown provider or bad HTTP options.
 */
export function createReranker(config: RerankerConfig, onFallback?: (err: unknown) => void): Reranker {
  switch (config.provider) {
    case 'lexical':
      return createLexicalReranker();
    case 'http': {
      const http = createHttpReranker({
        url: config.url,
        shape: config.shape,
        ...(config.model !== undefined ? { model: config.model } : {}),
        ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
        ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
      });
      return config.fallbackToLexical === false ? http : withFallback(http, createLexicalReranker(), onFallback);
    }
    default: {
      const provider: never = config;
      throw new PermanentError('INVALID_CONFIG', `unknown reranker provider ${JSON.stringify(provider)}`);
    }
  }
}

export { scaledAlphas } from './alpha.ts';

export { createDocumentDirectory } from './document-directory.ts';
export { reckonedQuarters } from './period-match.ts';
export { broadEvidenceDocs } from './routed-search.ts';
export { provisionMatcher } from './provisions.ts';
