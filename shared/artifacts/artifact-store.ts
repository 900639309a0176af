import type { z } from 'zod';

/**
 * Names of the artifacts a document version accumulates, one per stage. Artifacts live under
 * `<doc_id>/<version>/<name>`; job payloads carry only ids, so any stage can be replayed from here.
 */
export const ARTIFACT_NAMES = [
  'source.pdf',
  'source.json',
  'extracted.json',
  'sections.json',
  'chunks.json',
  'enriched.json',
  'embeddings.json',
  'embeddings.bin',
] as const;
export type ArtifactName = (typeof ARTIFACT_NAMES)[number];

/** Where stage outputs are kept between stages (local directory now, S3-compatible bucket later). */
export interface ArtifactStore {
  putBytes(docId: string, version: string, name: ArtifactName, bytes: Uint8Array): Promise<void>;
  /** @throws PermanentError ARTIFACT_MISSING when absent. */
  getBytes(docId: string, version: string, name: ArtifactName): Promise<Uint8Array>;
  putJson(docId: string, version: string, name: ArtifactName, value: unknown): Promise<void>;
  /**
   * Reads and validates: an artifact written by older code may not match today's schema.
   * @throws PermanentError ARTIFACT_MISSING when absent, INVALID_PAYLOAD when it does not parse.
   */
  getJson<T extends z.ZodType>(docId: string, version: string, name: ArtifactName, schema: T): Promise<z.infer<T>>;
  exists(docId: string, version: string, name: ArtifactName): Promise<boolean>;
  /** Versions that have artifacts for this document. */
  listVersions(docId: string): Promise<string[]>;
  /** Removes a document's artifacts, all versions or all but one. */
  deleteDoc(docId: string, opts?: { exceptVersion?: string }): Promise<void>;
}
