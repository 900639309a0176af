import type { z } from 'zod';
import { DocId, Version } from '../domain/ids.ts';
import { PermanentError } from '../errors.ts';

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

/**
 * Validates an artifact reference before it becomes a path or an object key, so a crafted id can
 * never escape its document's place.
 * @throws ZodError for a malformed doc id or version, TypeError for an unknown artifact name.
 */
export function checkArtifactRef(docId: string, version: string, name: ArtifactName): void {
  DocId.parse(docId);
  Version.parse(version);
  if (!ARTIFACT_NAMES.includes(name)) throw new TypeError(`unknown artifact ${name}`);
}

/** The error every adapter throws for an absent artifact. */
export function artifactMissing(docId: string, version: string, name: ArtifactName): PermanentError {
  return new PermanentError('ARTIFACT_MISSING', `artifact ${name} of ${docId}@${version.slice(0, 12)} is missing`);
}

/**
 * Parses a JSON artifact and validates it against today's schema.
 * @throws PermanentError `INVALID_PAYLOAD` when it does not parse or match.
 */
export function parseArtifactJson<T extends z.ZodType>(text: string, schema: T, docId: string, name: ArtifactName): z.infer<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new PermanentError('INVALID_PAYLOAD', `artifact ${name} of ${docId} is not JSON: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new PermanentError('INVALID_PAYLOAD', `artifact ${name} of ${docId} does not match its schema: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  }
  return parsed.data as z.infer<T>;
}
