/**
 * The Embedder port: text in, vectors out. Adapters live next to this file and are made by
 * factory functions (`createHashEmbedder`, `createOpenAiEmbedder`); nothing outside an adapter
 * file imports a vendor package.
 */
export interface Embedder {
  /**
   * Name of the model, including every setting that changes the vectors. It is part of the
   * embedding-cache key, so two embedders that produce different vectors must never share it.
   */
  readonly model: string;
  /** Length of every vector this embedder returns. */
  readonly dimension: number;
  /**
   * Embeds `texts` in order: result `i` belongs to `texts[i]`. Vectors are L2-normalised.
   *
   * @throws RetryableError `EMBEDDER_UNAVAILABLE` when the backend is down, slow or rate-limited.
   * @throws PermanentError `EMBEDDER_UNAVAILABLE` when the backend rejects the request.
   * @throws PermanentError `DIMENSION_MISMATCH` when the backend answers with the wrong shape.
   */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/**
 * Scales `vector` in place to unit L2 norm and returns it. A zero vector is left as it is, so
 * the quality check in `embedWithCache` can name the text that produced it instead of this
 * function inventing a direction.
 */
export function l2Normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i] as number;
    sum += x * x;
  }
  if (sum > 0 && Number.isFinite(sum)) {
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) * inv;
  }
  return vector;
}
