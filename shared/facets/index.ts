/** Facet-value vectors: building them (text, sampling, store I/O) and query-time weights. */
export * from './facet-vectors.ts';
