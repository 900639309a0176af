import {
  facetSeed,
  facetValueText,
  pickSentences,
  type FacetSamplingOptions,
  type FacetValueSamples,
  type FacetValueText,
} from '../../shared/facets/index.ts';

/** A facet value's text, ready to embed, and how many chunks carry the value. */
export type FacetRebuildText = FacetValueText & { sampleCount: number };

/**
 * Pure: each facet value with the bodies of its sampled chunks → the one text to embed for it
 * (typed description, aliases, 3–10 sentences picked deterministically, seeded by facet and
 * value). Same samples in, same texts out, in the same order.
 */
export function facetRebuildStage(samples: readonly FacetValueSamples[], options: FacetSamplingOptions = {}): FacetRebuildText[] {
  return samples.map((s) => ({
    ...facetValueText(s.facet, s.value, pickSentences(facetSeed(s.facet, s.value), s.bodies, options)),
    sampleCount: s.chunkCount,
  }));
}
