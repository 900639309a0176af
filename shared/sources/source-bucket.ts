/**
 * The SourceBucket port: where PDFs come from, a watched folder or an S3-compatible bucket
 * (docs/architecture.md §2). Both adapters list their objects with a size and a tag that changes
 * when the object does, tell one object's size and tag, and read one object's bytes after the
 * checks every way into Quarry runs (size first, then the `%PDF-` header), never past a limit.
 * What each does with the objects (chokidar events, a polled cursor) stays with the watcher.
 */
import type { SourceProblem } from './source-checks.ts';

/** One object as a listing (or a stat) shows it: enough to decide whether to read it. */
export interface SourceObject {
  /** Its key, `/`-separated: the object key (bucket) or the path below the folder (folder). */
  key: string;
  /** Its size in bytes. */
  size: number;
  /** Changes when the object does: its ETag (bucket) or its modification time in ms (folder). */
  tag: string;
}

/** What to read of an object. */
export interface ReadLimits {
  /** Larger objects are refused (TOO_LARGE) before their bytes are read. */
  maxBytes: number;
  /** Refuse (NOT_A_PDF) an object without a `%PDF-` header in its first KiB, before reading the rest. */
  pdf: boolean;
}

/** An object read whole, or refused before (or while) its bytes were read. */
export type SourceObjectRead =
  | { kind: 'read'; bytes: Uint8Array; size: number; tag: string }
  | {
      kind: 'refused';
      problem: SourceProblem;
      size: number;
      tag: string;
      /** What was seen of it (tag and size), for `unreadVersion`: a changed object gets a new version. */
      seen: string;
    };

export interface SourceBucket {
  /** How messages and provenance name an object (`s3://bucket/key`, or the folder-relative path). */
  where(key: string): string;
  /** Every object in the bucket (below its prefix) or the folder (subfolders included), by key. */
  list(): Promise<SourceObject[]>;
  /** One object's size and tag; null when there is no such object. */
  stat(key: string): Promise<SourceObject | null>;
  /**
   * One object's bytes, after the checks of `limits`.
   * @returns null when the object is gone.
   * @throws the adapter's errors (STORE_UNAVAILABLE-like classified S3 errors, filesystem errors).
   */
  read(key: string, limits: ReadLimits): Promise<SourceObjectRead | null>;
}
