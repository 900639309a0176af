/**
 * Facet-value vectors: the text of each value (description, aliases, sampled sentences), their
 * rebuild from the stored chunks, and the weights a query gives each facet value.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: collectFacetSamples and replaceFacets (the facet-rebuild worker), facetWeights
 * and queryFacetWeights (the agent, quarry facets show).
 */

export {
  collectFacetSamples,
  facetSeed,
  facetValueText,
  facetWeights,
  pickSentences,
  queryFacetWeights,
  replaceFacets,
  toFacetValueRows,
  type FacetSamplingOptions,
  type FacetValueSamples,
  type FacetValueText,
  type FacetWeights,
} from './facet-vectors.ts';
