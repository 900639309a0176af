import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { DocumentMeta } from '../domain/index.ts';
import { PermanentError } from '../errors.ts';
import { readMetadataFile } from './safe-read.ts';

function formatIssues(err: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return err.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');
}

/** Validates metadata from any source, naming where it came from in the error. */
export function parseMeta(value: unknown, where: string): DocumentMeta {
  const parsed = DocumentMeta.safeParse(value);
  if (!parsed.success) throw new PermanentError('INVALID_METADATA', `${where}: ${formatIssues(parsed.error)}`);
  return parsed.data;
}

/** `<name>.pdf` → `<name>.meta.json`. */
export function sidecarPathOf(pdfPath: string): string {
  return pdfPath.replace(/\.pdf$/i, '.meta.json');
}

/**
 * Reads a sidecar if there is one, never through a symbolic link nor from outside `root`.
 * @param root the watched folder (resolved); defaults to the PDF's own folder.
 * @throws PermanentError INVALID_METADATA for bad JSON or fields, or a sidecar over 1 MiB;
 *   SYMLINK_REFUSED when the sidecar is a link.
 */
export async function readSidecar(pdfPath: string, root?: string): Promise<DocumentMeta | null> {
  const file = sidecarPathOf(pdfPath);
  const text = await readMetadataFile(file, root ?? (await realpath(path.dirname(pdfPath))), file);
  return text === null ? null : parseSidecar(text, file);
}

/** A sidecar's text as metadata. @throws PermanentError INVALID_METADATA for bad JSON or fields. */
export function parseSidecar(text: string, where: string): DocumentMeta {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new PermanentError('INVALID_METADATA', `${where}: not JSON (${(err as Error).message})`);
  }
  return parseMeta(json, where);
}

export interface ManifestEntry {
  path: string;
  meta: DocumentMeta;
}

/**
 * Parses a JSONL manifest: one `{"path": …, ...metadata}` object a line; blank lines and `#`
 * comments are skipped. @throws PermanentError INVALID_METADATA naming every bad line.
 */
export function parseManifest(text: string, where: string): ManifestEntry[] {
  const entries: ManifestEntry[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) return;
    try {
      const obj: unknown = JSON.parse(trimmed);
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new Error('not a JSON object');
      const { path, ...rest } = obj as Record<string, unknown>;
      if (typeof path !== 'string' || !path) throw new Error('"path" is required');
      entries.push({ path, meta: parseMeta(rest, `${where}:${i + 1}`) });
    } catch (err) {
      problems.push(err instanceof PermanentError ? err.message : `${where}:${i + 1}: ${(err as Error).message}`);
    }
  });
  if (problems.length) throw new PermanentError('INVALID_METADATA', problems.join('\n'));
  return entries;
}
