import { randomBytes } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { docIdForSource, type DocumentMeta } from '../../shared/domain/index.ts';
import { PermanentError } from '../../shared/errors.ts';
import { parseSidecar, PDF_HEADER_WINDOW, sourceProblem } from '../../shared/sources/index.ts';
import { DIR_KEY_PREFIX } from '../sources/index.ts';

async function atomicWrite(file: string, data: Uint8Array | string): Promise<void> {
  // The temp name does not end in .pdf or .meta.json, so the watcher ignores it until the rename.
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.upload`);
  await writeFile(tmp, data);
  await rename(tmp, file);
}

/**
 * The upload's checks, the very ones the watched folder runs on a file (size, `%PDF-` header within
 * the first KiB, sidecar metadata), so a bad file fails with the same code whichever way it came in.
 * @throws PermanentError TOO_LARGE, NOT_A_PDF or INVALID_METADATA.
 */
export function checkUpload(input: { filename: string; bytes: Uint8Array; rawMeta: string | undefined; maxSourceBytes: number }): DocumentMeta | null {
  const { bytes } = input;
  const problem = sourceProblem({ size: bytes.byteLength, head: bytes.subarray(0, PDF_HEADER_WINDOW) }, { maxBytes: input.maxSourceBytes }, input.filename);
  if (problem) throw new PermanentError(problem.code, problem.message);
  // The header is the sidecar's text: parsed as the watcher parses `<name>.meta.json`.
  return input.rawMeta?.trim() ? parseSidecar(input.rawMeta, 'headers.x-quarry-metadata') : null;
}

/**
 * An upload (`POST /v1/documents`): checked as the watcher checks a file, then written into the
 * watched folder, where the watcher registers it. The sidecar is written first, so the watcher
 * registers the PDF with its metadata in one go. `filename` must already be a plain name
 * (`UploadName`, core/schemas.ts).
 * @returns the doc_id the document will have (the watcher names it by its folder path).
 * @throws PermanentError as {@link checkUpload}; the filesystem's error when the folder cannot be written.
 */
export async function uploadToFolder(input: { watchDir: string; filename: string; bytes: Uint8Array; rawMeta: string | undefined; maxSourceBytes: number }): Promise<{ docId: string; filename: string }> {
  const meta = checkUpload(input);
  const target = path.join(input.watchDir, input.filename);
  if (meta) await atomicWrite(target.replace(/\.pdf$/i, '.meta.json'), JSON.stringify(meta));
  await atomicWrite(target, input.bytes);
  return { docId: docIdForSource(`${DIR_KEY_PREFIX}${input.filename}`), filename: input.filename };
}
