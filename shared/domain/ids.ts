import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';

/** Stable document id derived from the source key: a readable slug plus a short hash of the key. */
export const DocId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,127}$/, 'doc id: lowercase letters, digits, "-" or "_", at most 128');
export type DocId = z.infer<typeof DocId>;

/** A document version is the sha256 of its bytes, hex. */
export const Version = z.string().regex(/^[0-9a-f]{64}$/, 'version: sha256 hex');
export type Version = z.infer<typeof Version>;

/**
 * An agent run's id, chosen by the gateway (or the CLI): it becomes the job id of the run and of
 * its memory update and part of Redis keys, so never contains `:`.
 */
export const RunId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'run id: 8–64 letters, digits, "-" or "_"');
export type RunId = z.infer<typeof RunId>;

/** Namespace for every Quarry uuid5 (fixed forever: changing it changes every chunk id). */
export const QUARRY_NAMESPACE = '6f0b7c52-3a7e-5f5c-9f59-2f1d7c0e8a41';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Doc id for a source key (a path relative to the watched folder, or an object key).
 * The slug keeps it readable; the hash keeps `a/b.pdf` and `a-b.pdf` apart.
 */
export function docIdForSource(sourceKey: string): DocId {
  const base = sourceKey.replace(/\.pdf$/i, '');
  const slug = base
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  const hash = sha256Hex(sourceKey).slice(0, 10);
  return slug ? `${slug}-${hash}` : `doc-${hash}`;
}

/**
 * uuid5 of a delimited key. The parts are joined with `|` after escaping `\` and `|`, so two
 * different part lists can never produce the same key (unlike plain concatenation).
 */
export function uuid5Of(parts: readonly string[]): string {
  const key = parts.map((p) => p.replace(/\\/g, '\\\\').replace(/\|/g, '\\|')).join('|');
  return uuidv5(key, QUARRY_NAMESPACE);
}

/** Body normalisation used for content addressing: whitespace folded, NFC. */
export function normaliseBody(body: string): string {
  return body.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** chunk_id = uuid5(`doc_id|section_path|sha256(normalised body)`), plus an occurrence suffix for repeats. */
export function chunkIdFor(docId: string, sectionPath: string, body: string, occurrence = 0): string {
  const parts = [docId, sectionPath, sha256Hex(normaliseBody(body))];
  if (occurrence > 0) parts.push(String(occurrence));
  return uuid5Of(parts);
}

/** BullMQ job ids may not contain `:`; ours are `<queue>-<doc_id>-<version>[-<run>]`. */
export function jobIdFor(queueName: string, docId: string, version: string, run?: string): string {
  const id = [queueName, docId, version, run].filter(Boolean).join('-');
  if (id.includes(':')) throw new TypeError(`job id may not contain ':' (${id})`);
  return id;
}
