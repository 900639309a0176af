import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startRedisServer } from '../apps/cli/local-redis.ts';
import { registerSource } from '../core/sources/register-source.ts';
import { STAGE_NAMES } from '../queues/ingest.queues.ts';
import { loadConfig } from '../shared/config/config.ts';
import { createLogger } from '../shared/telemetry/logger.ts';
import { FACET_WORKERS, INGEST_WORKERS } from '../workers/index.ts';
import { createPorts } from '../workers/compose.ts';
import type { Ports } from '../workers/runtime/ports.ts';
import { runStageOnce } from '../workers/runtime/run-once.ts';

/** The ingest stages a file passes before its upsert, in order. */
const BEFORE_UPSERT = STAGE_NAMES.filter((s) => s !== 'delete' && s !== 'upsert');

/** One PDF that reached the store. */
export interface IndexedFiling {
  file: string;
  docId: string;
  version: string;
}

/** A folder of PDFs ingested into a temporary workspace. */
export interface IngestedFilings {
  ports: Ports;
  /** Store doc id → file name. */
  fileOf: Map<string, string>;
  /** The documents indexed (every stage passed), in file order, with the version their artifacts are under. */
  indexed: IndexedFiling[];
  /** Files that failed a stage, with the error's message. */
  failed: { file: string; error: string }[];
  pages: number;
  chunks: number;
  ingestMs: number;
  /** Stops Redis, closes the ports and removes the workspace. */
  dispose(): Promise<void>;
}

/** Options of {@link ingestFilings}. */
export interface IngestFilingsOptions {
  /** Folder holding the PDFs. */
  docsDir: string;
  files: readonly string[];
  /**
   * The environment the run's config is read from (embedder, chunking, LLM…); the workspace keys
   * (Redis, data dir, prefix, vector store) are always the run's own.
   * @defaultValue process.env
   */
  env?: NodeJS.ProcessEnv;
  /**
   * Where the temporary workspace is made (removed by `dispose`).
   * @defaultValue the OS temp dir
   */
  tmpRoot?: string;
  log?: (line: string) => void;
}

/**
 * Ingests PDFs through Quarry's real stage handlers (extract → sectionize → chunk → enrich →
 * embed → upsert), called in this process as `quarry ingest <stage>` replays them — no workers,
 * no queues to wait on — into a fresh LanceDB store beside a private redis-server (status
 * records, embedding cache, locks). Then the facet-value vectors are rebuilt once, as the
 * debounced facet-rebuild would after the last upsert. As many files are in flight as
 * WORKER_CONCURRENCY allows up to the embed stage; upserts run in file order. A file that fails a stage is reported and left out, as the product
 * would fail that document alone. On failure here the workspace is already removed.
 *
 * @throws Error when redis-server is missing; whatever the store or embedder throws.
 */
export async function ingestFilings(opts: IngestFilingsOptions): Promise<IngestedFilings> {
  const log = opts.log ?? (() => undefined);
  const root = await mkdtemp(path.join(opts.tmpRoot ?? tmpdir(), 'quarry-eval-filings-'));
  const redis = await startRedisServer({ dir: path.join(root, 'redis') }).catch(async (err: unknown) => {
    await rm(root, { recursive: true, force: true });
    throw err;
  });
  let ports: (Ports & { close(): Promise<void> }) | null = null;
  const dispose = async (): Promise<void> => {
    await ports?.close();
    await redis.stop();
    await rm(root, { recursive: true, force: true });
  };
  try {
    const config = loadConfig({
      LOG_LEVEL: 'error',
      ...(opts.env ?? process.env),
      REDIS_URL: redis.url,
      QUARRY_PREFIX: 'eval',
      QUARRY_DATA_DIR: path.join(root, 'data'),
      QUARRY_WATCH_DIR: opts.docsDir,
      VECTOR_STORE: 'lancedb',
      ARTIFACT_STORE: 'local',
    });
    ports = await createPorts(config);
    const p = ports;
    const stageLog = createLogger('error');
    const t0 = performance.now();
    const fileOf = new Map<string, string>();
    const failed: { file: string; error: string }[] = [];
    const registered: ({ file: string; docId: string; version: string; gen: number } | null)[] = opts.files.map(() => null);
    let next = 0;
    let done = 0;
    // Up to embed in parallel lanes; upserts afterwards one by one in file order, so the store's
    // rows — and how it breaks score ties — are the same on every run.
    const lane = async (): Promise<void> => {
      while (next < opts.files.length) {
        const i = next++;
        const file = opts.files[i] as string;
        const full = path.join(opts.docsDir, file);
        const reg = await registerSource({ ...p, prefix: config.prefix }, {
          sourceKey: `file:${file}`,
          sourceUri: pathToFileURL(full).href,
          collector: 'eval',
          bytes: new Uint8Array(await readFile(full)),
          meta: {},
          fetchedAt: new Date(),
        });
        fileOf.set(reg.docId, file);
        const job = { docId: reg.docId, version: reg.version, gen: (await p.status.get(reg.docId))?.gen ?? 0 };
        try {
          for (const stage of BEFORE_UPSERT) await runStageOnce(INGEST_WORKERS[stage], job, p, stageLog);
          registered[i] = { file, ...job };
        } catch (err) {
          failed.push({ file, error: err instanceof Error ? err.message : String(err) });
        }
        log(`processed ${++done}/${opts.files.length}: ${file}`);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, config.worker.concurrency) }, lane));
    let pages = 0;
    let chunks = 0;
    const indexed: IndexedFiling[] = [];
    for (const doc of registered) {
      if (!doc) continue;
      const { file, ...job } = doc;
      try {
        await runStageOnce(INGEST_WORKERS.upsert, job, p, stageLog);
        const status = await p.status.get(job.docId);
        const held = await p.store.countChunks({ op: 'eq', field: 'doc_id', value: job.docId });
        pages += status?.pageCount ?? 0;
        chunks += held;
        indexed.push({ file, docId: job.docId, version: job.version });
      } catch (err) {
        failed.push({ file, error: err instanceof Error ? err.message : String(err) });
      }
    }
    await runStageOnce(FACET_WORKERS['facet-rebuild'], { facet: 'all', requestedAt: Date.now() }, p, stageLog);
    return { ports: p, fileOf, indexed, failed, pages, chunks, ingestMs: performance.now() - t0, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

/**
 * The extracted text of every page of the indexed filings (file → page number → its lines joined
 * by newlines), read from each version's `extracted.json` — the text the chunks were cut from,
 * running headers and footers already removed — so a citation's pages can be checked for a figure.
 */
export async function readPageTexts(ports: Pick<Ports, 'artifacts'>, indexed: readonly IndexedFiling[]): Promise<Map<string, Map<number, string>>> {
  const out = new Map<string, Map<number, string>>();
  for (const doc of indexed) {
    const extracted = await ports.artifacts.getJson(doc.docId, doc.version, 'extracted.json');
    out.set(doc.file, new Map(extracted.pages.map((page) => [page.number, page.lines.map((l) => l.text).join('\n')])));
  }
  return out;
}

/** Each indexed filing's title as the store keeps it (what citations and the library show). */
export async function readStoredTitles(ports: Pick<Ports, 'store'>, indexed: readonly IndexedFiling[]): Promise<{ file: string; title: string }[]> {
  const out: { file: string; title: string }[] = [];
  for (const doc of indexed) out.push({ file: doc.file, title: (await ports.store.getDocument(doc.docId))?.title ?? '' });
  return out;
}
