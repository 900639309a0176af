/** Facet-value vectors: building them (text, sampling, store I/O) and query-time weights. */
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
