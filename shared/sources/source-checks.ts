/**
 * The checks every way into Quarry (watched folder, watched bucket, `quarry ingest`) runs on a
 * source BEFORE its bytes are read or copied: its size from stat / the listing / HEAD, and the
 * PDF header in its first KiB. Pure functions; the I/O shells are `safe-read.ts` (files) and
 * `bucket-watcher.ts` (objects).
 */
import path from 'node:path';
import { sha256Hex } from '../domain/index.ts';
import type { ErrorCode } from '../errors.ts';

/** Limits a source must meet before it is read. */
export interface SourceLimits {
  /** Largest source accepted, in bytes (MAX_PDF_BYTES). @defaultValue 104857600 (100 MiB) */
  maxBytes: number;
}

/** Where the `%PDF-` header may start: readers (pdf.js, Acrobat) accept junk before it within the first KiB. */
export const PDF_HEADER_WINDOW = 1024;

/**
 * Largest sidecar (`*.meta.json`) or manifest (`*.jsonl`) read: metadata is small, and a huge file
 * in their place would otherwise be read whole into memory.
 */
export const MAX_METADATA_BYTES = 1024 * 1024;

/** Why a source is refused without being read. */
export interface SourceProblem {
  code: Extract<ErrorCode, 'TOO_LARGE' | 'NOT_A_PDF' | 'SYMLINK_REFUSED'>;
  message: string;
}

/** True when `%PDF-` starts within the first {@link PDF_HEADER_WINDOW} bytes of `head`. */
export function hasPdfHeader(head: Uint8Array): boolean {
  return Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, PDF_HEADER_WINDOW)).indexOf('%PDF-', 0, 'latin1') >= 0;
}

/**
 * The one check of a source before its bytes are read: first with only its size (from stat, a
 * bucket listing or HEAD), then with its first KiB as well.
 * @param input.size the source's size in bytes.
 * @param input.head its first bytes, when read (at least {@link PDF_HEADER_WINDOW}, or all of a smaller source).
 * @param where names the source in the message.
 * @returns the problem, or null when the source may be read.
 */
export function sourceProblem(input: { size: number; head?: Uint8Array }, limits: SourceLimits, where: string): SourceProblem | null {
  if (input.size > limits.maxBytes) {
    return { code: 'TOO_LARGE', message: `${where} is ${input.size} bytes, over the ${limits.maxBytes}-byte limit (MAX_PDF_BYTES); it was not read` };
  }
  if (input.head === undefined) return null;
  if (input.size === 0) return { code: 'NOT_A_PDF', message: `${where} is empty` };
  if (!hasPdfHeader(input.head)) return { code: 'NOT_A_PDF', message: `${where} is not a PDF (no %PDF- header in its first ${PDF_HEADER_WINDOW} bytes)` };
  return null;
}

/**
 * The version recorded for a source refused unread: its bytes are never hashed, so it names what
 * was seen of it instead (the problem, and the size and modification time, or the ETag). A changed
 * file gets a new one, so fixing it registers it again.
 */
export function unreadVersion(code: string, fingerprint: string): string {
  return sha256Hex(`unread|${code}|${fingerprint}`);
}

/** True when `target` is `root` itself or lies below it (both absolute, already resolved). */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}
