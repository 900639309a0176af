import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startService, type Service } from '../../apps/cli/service.ts';
import type { WatchEvent } from '../../apps/watcher/local-watcher.ts';
import { waitForDrained, waitForSettled } from '../../apps/cli/wait.ts';
import { INGEST_QUEUES } from '../../queues/ingest.queues.ts';
import { loadConfig, type Config } from '../../shared/config/config.ts';
import type { ArtifactStore } from '../../shared/artifacts/artifact-store.ts';
import { sha256Hex } from '../../shared/domain/index.ts';
import type { DocStatus } from '../../shared/status/doc-status.ts';
import { INGEST_WORKERS } from '../../workers/index.ts';

/**
 * The vector store the suites run on: the embedded LanceDB, or — when VECTOR_STORE=weaviate and
 * WEAVIATE_URL are set (the hosted CI workflow) — Weaviate, each workspace in collections of
 * its own prefix.
 */
export function storeEnv(): Record<string, string> {
  if (process.env.VECTOR_STORE !== 'weaviate') return {};
  const pick = (k: string) => (process.env[k] ? { [k]: process.env[k] as string } : {});
  return {
    VECTOR_STORE: 'weaviate',
    ...pick('WEAVIATE_URL'),
    ...pick('WEAVIATE_GRPC_URL'),
    ...pick('WEAVIATE_API_KEY'),
    WEAVIATE_COLLECTION_PREFIX: `T${Math.random().toString(36).slice(2, 10)}`,
  };
}

/** A temp workspace: watched folder, data directory, its own Redis prefix (and Weaviate collections, see {@link storeEnv}). */
export function testWorkspace(redisUrl: string, env: Record<string, string> = {}): { config: Config; root: string; cleanup(): void } {
  const root = mkdtempSync(path.join(tmpdir(), 'quarry-test-'));
  const watchDir = path.join(root, 'inbox');
  mkdirSync(watchDir);
  const config = loadConfig({
    REDIS_URL: redisUrl,
    QUARRY_PREFIX: `t${Math.random().toString(36).slice(2, 10)}`,
    QUARRY_DATA_DIR: path.join(root, 'data'),
    QUARRY_WATCH_DIR: watchDir,
    LOG_LEVEL: 'error',
    WORKER_CONCURRENCY: '2',
    ...storeEnv(),
    ...env,
  });
  return { config, root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Every worker and the watcher in this process, as `quarry dev` runs them. */
export async function startPipeline(
  config: Config,
  opts: { workers?: boolean; watch?: boolean; onWatchEvent?: (e: WatchEvent) => void } = {},
): Promise<Service> {
  return startService(config, {
    workers: opts.workers === false ? [] : Object.values(INGEST_WORKERS),
    watch: opts.watch ?? true,
    onWatchEvent: opts.onWatchEvent,
  });
}

/** Waits for documents to settle, then for every queue to be drained (nothing waiting, active or delayed). */
export async function settle(service: Service, opts: { docIds?: string[]; count?: number; timeoutMs?: number } = {}): Promise<DocStatus[]> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  if (opts.count !== undefined) {
    while ((await service.ports.status.list()).length < opts.count) {
      if (Date.now() > deadline) throw new Error(`fewer than ${opts.count} documents registered`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const settled = await waitForSettled(service.ports.status, { docIds: opts.docIds, timeoutMs, intervalMs: 100 });
  await waitForDrained(service.ports.queues, Math.max(1000, deadline - Date.now()));
  // Read again once the queues are drained: a stage records its timing just after its handler
  // returns, and the last stage's handler is what marks the document indexed.
  const ids = new Set(settled.map((s) => s.docId));
  return (await service.ports.status.list()).filter((s) => ids.has(s.docId));
}

export async function queueTotals(service: Service): Promise<{ open: number; completed: number; failed: number }> {
  const all = await Promise.all(INGEST_QUEUES.map((q) => service.ports.queues.counts(q)));
  return all.reduce(
    (acc, c) => ({ open: acc.open + c.waiting + c.active + c.delayed + c.prioritized, completed: acc.completed + c.completed, failed: acc.failed + c.failed }),
    { open: 0, completed: 0, failed: 0 },
  );
}

/**
 * Stores a PDF's source artifacts (bytes and record) as the watcher would, without registering
 * it: for tests that drive one stage directly. Returns its version (the bytes' sha256).
 */
export async function putSource(artifacts: ArtifactStore, docId: string, bytes: Uint8Array): Promise<string> {
  const version = sha256Hex(bytes);
  await artifacts.putBytes(docId, version, 'source.pdf', bytes);
  await artifacts.putJson(docId, version, 'source.json', {
    doc_id: docId,
    version,
    source_key: `dir:${docId}.pdf`,
    meta: {},
    provenance: { source_uri: `file://${docId}.pdf`, sha256: version, fetched_at: new Date(0).toISOString(), collector: 'test', bytes: bytes.length },
  });
  return version;
}
