import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Redis } from 'ioredis';
import { extractQueue } from '../../queues/ingest.queues.ts';
import type { QueueClient } from '../../queues/queue-client.ts';
import type { ArtifactStore } from '../../shared/artifacts/index.ts';
import { docIdForSource, sha256Hex, type DocumentMeta, type SourceRecord } from '../../shared/domain/index.ts';
import { withDocLock, type StatusStore } from '../../shared/status/index.ts';
import { ATTR, withSpan } from '../../shared/telemetry/index.ts';
import { readSourceFile } from '../../shared/sources/index.ts';

export interface RegisterPorts {
  redis: Redis;
  prefix: string;
  artifacts: ArtifactStore;
  status: StatusStore;
  queues: QueueClient;
}

/** Stable JSON: keys sorted, so equal metadata always hashes the same. */
function canonical(meta: DocumentMeta): string {
  return JSON.stringify(Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b))));
}

/**
 * A version names the bytes AND the metadata: editing a sidecar (say, setting valid_to when a
 * policy is superseded) re-processes the document; dropping identical bytes and metadata does not.
 */
export function versionOf(bytesSha: string, meta: DocumentMeta): string {
  const m = canonical(meta);
  return m === '{}' ? bytesSha : sha256Hex(`${bytesSha}\n${m}`);
}

export interface RegisterResult {
  docId: string;
  version: string;
  action: 'registered' | 'unchanged';
  enqueued: boolean;
}

/**
 * Registers a source: stores its bytes and record as artifacts, records the version, enqueues
 * extraction. Idempotent: unchanged bytes and metadata are never re-processed (unless forced).
 */
export async function registerSource(
  ports: RegisterPorts,
  input: { sourceKey: string; sourceUri: string; collector: string; bytes: Uint8Array; meta: DocumentMeta; force?: boolean; fetchedAt: Date },
): Promise<RegisterResult> {
  const docId = docIdForSource(input.sourceKey);
  const bytesSha = sha256Hex(input.bytes);
  const version = versionOf(bytesSha, input.meta);
  const record: SourceRecord = {
    doc_id: docId,
    version,
    source_key: input.sourceKey,
    meta: input.meta,
    provenance: {
      source_uri: input.sourceUri,
      sha256: bytesSha,
      fetched_at: input.fetchedAt.toISOString(),
      collector: input.collector,
      bytes: input.bytes.byteLength,
    },
  };
  // The root span of the document's trace: the extract job enqueued below, and every stage after
  // it, join it.
  return withSpan('register source', { [ATTR.docId]: docId, [ATTR.version]: version }, async (span) => {
    // Under the document's lock so a deletion in flight cannot remove the artifacts written here.
    const outcome = await withDocLock(ports.redis, ports.prefix, docId, async () => {
      const before = await ports.status.get(docId);
      const unchanged = !input.force && before?.version === version && before.state !== 'deleting' && before.state !== 'deleted';
      if (unchanged) return { action: 'unchanged' as const, gen: before.gen, resume: before.state === 'queued' && before.stage === 'extract' };
      await ports.artifacts.putBytes(docId, version, 'source.pdf', input.bytes);
      await ports.artifacts.putJson(docId, version, 'source.json', record);
      const reg = await ports.status.register({ docId, sourceKey: input.sourceKey, version, force: input.force });
      return { ...reg, resume: true };
    });
    // Enqueueing is idempotent (deterministic job id), so a registration cut short before it is
    // completed by the next drop of the same file.
    if (outcome.resume) await ports.queues.enqueue(extractQueue, { docId, version, gen: outcome.gen });
    span.setAttribute('quarry.registration', outcome.action);
    return { docId, version, action: outcome.action, enqueued: outcome.resume };
  });
}

/**
 * Records a source that could not be registered (say, a sidecar that does not validate, or a file
 * refused before it was read) as a failed document, so `quarry status` shows it with its reason.
 * Its previous version, if any, stays searchable; fixing the input registers it again. Seeing the
 * same refusal again (a restart, a rescan) changes nothing.
 * @param input.version the sha256 of the bytes when they were read, else a fingerprint of what was seen (`unreadVersion`).
 */
export async function recordRejectedSource(
  ports: Pick<RegisterPorts, 'status'>,
  input: { sourceKey: string; version: string; error: { code: string; message: string } },
): Promise<string> {
  const docId = docIdForSource(input.sourceKey);
  const before = await ports.status.get(docId);
  if (before?.version === input.version && before.state === 'failed' && before.errorCode === input.error.code) return docId;
  const { gen } = await ports.status.register({ docId, sourceKey: input.sourceKey, version: input.version, force: true });
  await ports.status.update(docId, input.version, gen, { state: 'failed', error: input.error });
  return docId;
}

/** A file registered, or refused before its bytes were read (recorded `failed` with its code). */
export type FileRegistration = RegisterResult | { action: 'rejected'; docId: string; code: string; message: string };

/**
 * Registers a PDF named on the command line (`quarry ingest register-source`, `quarry jobs run`):
 * its size and type are checked before it is read, as the watchers do; a refused file is recorded
 * `failed` (TOO_LARGE, NOT_A_PDF) so `quarry status` shows it. The operator named the path, so a
 * symbolic link is followed here (the watched folder never follows one).
 * @throws the filesystem's error when the file cannot be opened (ENOENT…).
 */
export async function registerFile(
  ports: RegisterPorts,
  input: { file: string; sourceKey: string; collector: string; meta: DocumentMeta; force?: boolean; fetchedAt: Date; maxBytes: number },
): Promise<FileRegistration> {
  const read = await readSourceFile(input.file, { root: null, maxBytes: input.maxBytes, where: input.file });
  if (read.kind === 'refused') {
    const error = { code: read.code, message: read.message };
    const docId = await recordRejectedSource(ports, { sourceKey: input.sourceKey, version: read.version, error });
    return { action: 'rejected', docId, ...error };
  }
  return registerSource(ports, {
    sourceKey: input.sourceKey,
    sourceUri: pathToFileURL(path.resolve(input.file)).href,
    collector: input.collector,
    bytes: read.bytes,
    meta: input.meta,
    force: input.force,
    fetchedAt: input.fetchedAt,
  });
}
