import {
  artifactSchema,
  isArtifactName,
  DocId,
  Version,
  type ArtifactJson,
  type ArtifactName,
  type BytesArtifactName,
  type JsonArtifactName,
} from '../domain/index.ts';
import { PermanentError } from '../errors.ts';

/**
 * The artifacts a document version accumulates, one or two per stage, and what each holds: the
 * table is `ARTIFACTS` in shared/domain/artifacts.ts. Artifacts live under
 * `<doc_id>/<version>/<name>`; job payloads carry only ids, so any stage can be replayed from here.
 */
export { ARTIFACT_NAMES, ARTIFACTS, type ArtifactJson, type ArtifactName, type BytesArtifactName, type JsonArtifactName } from '../domain/index.ts';

/**
 * Where stage outputs are kept between stages (a local directory, or an S3-compatible bucket).
 * A JSON artifact is read and written by its name alone: the name says its schema (`ARTIFACTS`),
 * so `getJson(docId, version, 'chunks.json')` is a `ChunksArtifact` and `putJson` of
 * `'chunks.json'` takes nothing else.
 */
export interface ArtifactStore {
  /** Stores an artifact kept as bytes (`source.pdf`, `embeddings.bin`). */
  putBytes(docId: string, version: string, name: BytesArtifactName, bytes: Uint8Array): Promise<void>;
  /**
   * Any artifact's stored bytes, a JSON one's as its UTF-8 text (what the cache keeps).
   * @throws PermanentError ARTIFACT_MISSING when absent.
   */
  getBytes(docId: string, version: string, name: ArtifactName): Promise<Uint8Array>;
  /**
   * Stores `value` as JSON. Not validated here: the compiler holds every writer to the name's
   * type, and the reader validates what it reads anyway (see {@link parseArtifactJson}).
   */
  putJson<N extends JsonArtifactName>(docId: string, version: string, name: N, value: NoInfer<ArtifactJson<N>>): Promise<void>;
  /**
   * Reads and validates against the name's schema: an artifact written by older code may not match
   * today's schema.
   * @throws PermanentError ARTIFACT_MISSING when absent, INVALID_PAYLOAD when it does not parse.
   */
  getJson<N extends JsonArtifactName>(docId: string, version: string, name: N): Promise<ArtifactJson<N>>;
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
  if (!isArtifactName(name)) throw new TypeError(`unknown artifact ${name as string}`);
}

/** The error every adapter throws for an absent artifact. */
export function artifactMissing(docId: string, version: string, name: ArtifactName): PermanentError {
  return new PermanentError('ARTIFACT_MISSING', `artifact ${name} of ${docId}@${version.slice(0, 12)} is missing`);
}

/**
 * Parses a JSON artifact and validates it against its name's schema (`ARTIFACTS`).
 * @throws PermanentError `INVALID_PAYLOAD` when it does not parse or match.
 */
export function parseArtifactJson<N extends JsonArtifactName>(text: string, docId: string, name: N): ArtifactJson<N> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new PermanentError('INVALID_PAYLOAD', `artifact ${name} of ${docId} is not JSON: ${(err as Error).message}`);
  }
  const parsed = artifactSchema(name).safeParse(value);
  if (!parsed.success) {
    throw new PermanentError('INVALID_PAYLOAD', `artifact ${name} of ${docId} does not match its schema: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  }
  return parsed.data as ArtifactJson<N>;
}
