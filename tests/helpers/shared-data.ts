import { existsSync } from 'node:fs';
import path from 'node:path';

/** `../shared` beside the repository: design docs, real PDFs, evaluation data (read-only). */
export const SHARED_DIR = path.resolve(import.meta.dirname, '../../../shared');

/** Path of a folder under ../shared, and whether it is there (a suite without it skips, saying why). */
export function sharedPath(...parts: string[]): { path: string; present: boolean } {
  const p = path.join(SHARED_DIR, ...parts);
  const present = existsSync(p);
  if (!present) console.warn(`skipping: ${path.join('../shared', ...parts)} is not present beside the repository`);
  return { path: p, present };
}

/** The robustness MANIFEST writes non-ASCII password characters as literal "\u00ad" escapes. */
export function decodePassword(raw: string): string {
  return raw.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
