import { PermanentError } from '../errors.ts';

/** Packs equal-length vectors into one float32 little-endian buffer, row-major. */
export function packVectors(vectors: readonly (ArrayLike<number>)[], dimension: number): Uint8Array {
  const out = new Float32Array(vectors.length * dimension);
  vectors.forEach((v, i) => {
    if (v.length !== dimension) throw new PermanentError('DIMENSION_MISMATCH', `vector ${i} has ${v.length} dimensions, expected ${dimension}`);
    out.set(v, i * dimension);
  });
  return new Uint8Array(out.buffer);
}

/** Inverse of packVectors. @throws PermanentError DIMENSION_MISMATCH when the size does not fit. */
export function unpackVectors(bytes: Uint8Array, dimension: number, count: number): Float32Array[] {
  if (bytes.byteLength !== dimension * count * 4) {
    throw new PermanentError('DIMENSION_MISMATCH', `embeddings file holds ${bytes.byteLength} bytes, expected ${count}×${dimension} float32`);
  }
  // Copy into an aligned buffer: the input may be a view at any offset.
  const all = new Float32Array(bytes.slice().buffer);
  return Array.from({ length: count }, (_, i) => all.subarray(i * dimension, (i + 1) * dimension));
}
