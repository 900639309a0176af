/**
 * Object keys of a watched bucket, checked before anything is done with them. Keys are only ever
 * used as S3 keys and inside source keys, never joined into local paths; still, a key that looks
 * like a path escape or carries control characters is refused outright.
 */
import { PermanentError } from '../errors.ts';

/** Why `key` is refused, or null when it is acceptable. */
export function objectKeyProblem(key: string): string | null {
  if (key.length === 0) return 'is empty';
  if (key.length > 1024) return 'is longer than 1024 characters';
  if (key.startsWith('/')) return 'starts with "/"';
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'contains a control character';
  if (key.split('/').some((segment) => segment === '..' || segment === '.')) return 'contains a "." or ".." path segment';
  if (key.includes('\\')) return 'contains a backslash';
  return null;
}

/** @throws PermanentError `INVALID_PAYLOAD` naming the key and what is wrong with it. */
export function checkObjectKey(key: string): string {
  const problem = objectKeyProblem(key);
  if (problem) throw new PermanentError('INVALID_PAYLOAD', `object key ${JSON.stringify(key)} rejected: it ${problem}`);
  return key;
}

export const isPdfKey = (key: string) => /\.pdf$/i.test(key);
export const isSidecarKey = (key: string) => /\.meta\.json$/i.test(key);
export const pdfKeyOfSidecar = (sidecarKey: string) => sidecarKey.replace(/\.meta\.json$/i, '.pdf');
