/**
 * `quarry reindex --to <lancedb|weaviate>`: copies the index into another vector store from the
 * stored artifacts (enriched chunks + their vectors), without extracting or embedding again, and
 * copies the facet-value vectors. The configured store stays the source; switch VECTOR_STORE
 * afterwards. Safe to re-run: every write is an idempotent upsert, and a document's chunks of
 * other versions are removed from the target.
 */
import type { Command } from 'commander';
import { loadConfig, type VectorStoreSettings } from '../../../shared/config/index.ts';
import { unpackVectors } from '../../../shared/embed/index.ts';
import { describeError } from '../../../shared/errors.ts';
import { FACET_NAMES, createVectorStore, type VectorStore } from '../../../shared/store/index.ts';
import { upsertStage } from '../../../workers/upsert/index.ts';
import type { Ports } from '../../../workers/runtime/index.ts';
import { withPorts } from '../app.ts';
import { describeCommand } from '../command-summaries.ts';

export interface ReindexResult {
  documents: number;
  chunks: number;
  facetValues: number;
  /** Indexed documents that could not be copied, and why (their artifacts are gone, say). */
  skipped: { docId: string; code: string; message: string }[];
}

/** Copies every indexed document's current version, then the facet values, from `ports.store` to `target`. */
export async function reindex(ports: Pick<Ports, 'store' | 'status' | 'artifacts'>, target: VectorStore, log: (line: string) => void): Promise<ReindexResult> {
  const result: ReindexResult = { documents: 0, chunks: 0, facetValues: 0, skipped: [] };
  const indexed = (await ports.status.list()).filter((s) => s.state === 'indexed');
  const now = new Date().toISOString();
  for (const [i, s] of indexed.entries()) {
    try {
      const [enriched, meta, bin] = await Promise.all([
        ports.artifacts.getJson(s.docId, s.version, 'enriched.json'),
        ports.artifacts.getJson(s.docId, s.version, 'embeddings.json'),
        ports.artifacts.getBytes(s.docId, s.version, 'embeddings.bin'),
      ]);
      // Keep each chunk's age as the source store knows it.
      const existing = await ports.store.fetchByIds(enriched.chunks.map((c) => c.chunk_id));
      const rows = upsertStage(enriched, { meta, vectors: unpackVectors(bin, meta.dimension, meta.count) }, new Map(existing.map((c) => [c.chunk_id, c.created_at])), now);
      // The copied vectors' own embedder: the target records it, and refuses a mix.
      await target.ensureSchema({ dimension: meta.dimension, model: meta.model });
      await target.upsertDocuments([enriched.document]);
      await target.upsertChunks(rows);
      await target.deleteByDoc(s.docId, { exceptVersion: s.version });
      result.documents += 1;
      result.chunks += rows.length;
      log(`[${i + 1}/${indexed.length}] ${s.docId}: ${rows.length} chunks`);
    } catch (err) {
      const { code, message } = describeError(err);
      result.skipped.push({ docId: s.docId, code, message });
      log(`[${i + 1}/${indexed.length}] ${s.docId}: skipped (${code}: ${message})`);
    }
  }
  if (result.documents > 0) {
    for (const facet of FACET_NAMES) {
      const rows = await ports.store.listFacetValues(facet);
      await target.replaceFacetValues(facet, rows);
      result.facetValues += rows.length;
    }
  }
  return result;
}

/** True when two settings name the same store (reindexing onto itself would do nothing useful). */
export function sameStore(a: VectorStoreSettings, b: VectorStoreSettings): boolean {
  if (a.kind === 'lancedb' && b.kind === 'lancedb') return a.dir === b.dir;
  if (a.kind === 'weaviate' && b.kind === 'weaviate') return a.url === b.url && a.collectionPrefix === b.collectionPrefix;
  return false;
}

/**
 * The target store's settings: Quarry's configuration with VECTOR_STORE (and, for LanceDB,
 * QUARRY_DATA_DIR) replaced, so every WEAVIATE_* variable applies as usual.
 * @throws Error when the target is the configured store itself, or ConfigError for missing settings.
 */
export function targetSettings(env: NodeJS.ProcessEnv, to: string, dataDir: string | undefined, source: VectorStoreSettings): VectorStoreSettings {
  if (to !== 'lancedb' && to !== 'weaviate') throw new Error(`--to must be lancedb or weaviate, got ${to}`);
  const settings = loadConfig({ ...env, VECTOR_STORE: to, ...(dataDir ? { QUARRY_DATA_DIR: dataDir } : {}) }).vectorStore;
  if (sameStore(settings, source)) {
    throw new Error(`the target is the configured store itself (VECTOR_STORE=${source.kind}); reindex copies into another one${to === 'lancedb' ? ': pass --data-dir' : ''}`);
  }
  return settings;
}

export function reindexCommand(program: Command): void {
  program
    .command('reindex')
    .description(describeCommand('reindex'))
    .requiredOption('--to <store>', 'lancedb or weaviate (WEAVIATE_* variables apply)')
    .option('--data-dir <dir>', 'for --to lancedb: the QUARRY_DATA_DIR of the target')
    .action(async (o: { to: string; dataDir?: string }) => {
      await withPorts(async (ports, config) => {
        const target = await createVectorStore(targetSettings(process.env, o.to, o.dataDir, config.vectorStore));
        try {
          const r = await reindex(ports, target, (line) => process.stderr.write(`${line}\n`));
          process.stdout.write(`reindexed ${r.documents} document(s), ${r.chunks} chunk(s), ${r.facetValues} facet value(s) into ${o.to}\n`);
          for (const s of r.skipped) process.stdout.write(`skipped ${s.docId}: ${s.code}: ${s.message}\n`);
          if (r.skipped.length > 0) process.exitCode = 1;
          else process.stdout.write(`now set VECTOR_STORE=${o.to} (and restart the workers) to use it\n`);
        } finally {
          await target.close();
        }
      });
    });
}
