import { PermanentError } from '../../errors.ts';
import { checkModel } from '../embedder-record.ts';
import type { EmbedderRecord, MaintenanceReport, StoreAdmin } from '../store-admin.ts';
import { checkDimension } from '../validation.ts';
import { ensureEmbedderRecord, META_TABLE, metaSchema, readEmbedderRecord } from './embedder-table.ts';
import { ensureFacetTable } from './facet-table.ts';
import { advanceSearchViews, guarded, type LanceStoreState } from './lance-state.ts';
import { CHUNKS_TABLE, DOCUMENTS_TABLE, RECENT_TABLE, chunksSchema, documentsSchema, recentSchema } from './schema.ts';
import { upgradeChunksTable, upgradeDocumentsTable, upgradeRecentTable } from './table-upgrades.ts';
import { buildVectorIndex, vectorIndexAction, vectorIndexOf } from './vector-index.ts';
import { withConflictRetry } from './write-guard.ts';

/**
 * The LanceDB store as a whole: its tables (created and upgraded by `ensureSchema`), the
 * embedder record in `store_meta`, index upkeep and closing.
 */
export class LanceStoreAdmin implements StoreAdmin {
  /** The embedder record once read (see embedder-table.ts). */
  private recorded: EmbedderRecord | null = null;

  /** @param drainWrites settles the writes the other parts have queued (before closing). */
  constructor(
    private readonly s: LanceStoreState,
    private readonly drainWrites: () => Promise<void>,
  ) {}

  async ensureSchema({ dimension, model }: { dimension: number; model: string }): Promise<void> {
    checkDimension(dimension);
    checkModel(model);
    const { tables } = this.s;
    await this.s.lock(() =>
      withConflictRetry('ensureSchema', async () => {
        const chunks = (await tables.open(CHUNKS_TABLE)) ?? (await tables.create(CHUNKS_TABLE, chunksSchema(dimension)));
        const existing = await tables.dimension(chunks);
        if (existing !== dimension) {
          throw new PermanentError('DIMENSION_MISMATCH', `store has dimension ${existing}, asked for ${dimension}`);
        }
        // Before any upgrade: a store of another embedder is left exactly as it was.
        const meta = (await tables.open(META_TABLE)) ?? (await tables.create(META_TABLE, metaSchema));
        await ensureEmbedderRecord(meta, () => chunks.countRows(), { model, dimension }, `LanceDB at ${tables.dir}`);
        await upgradeChunksTable(chunks);
        await upgradeRecentTable((await tables.open(RECENT_TABLE)) ?? (await tables.create(RECENT_TABLE, recentSchema())));
        await upgradeDocumentsTable((await tables.open(DOCUMENTS_TABLE)) ?? (await tables.create(DOCUMENTS_TABLE, documentsSchema)));
        await ensureFacetTable((name) => tables.open(name), (name, schema) => tables.create(name, schema), dimension);
      }),
    );
  }

  async embedderRecord(): Promise<EmbedderRecord | null> {
    if (this.recorded) return this.recorded;
    return guarded('embedderRecord', async () => {
      const meta = await this.s.tables.open(META_TABLE);
      // A record never changes once written: keep it, but not its absence (ensureSchema may add it).
      this.recorded = meta ? await readEmbedderRecord(meta) : null;
      return this.recorded;
    });
  }

  async dimension(): Promise<number | null> {
    return guarded('dimension', async () => {
      const table = await this.s.tables.open(CHUNKS_TABLE);
      return table ? this.s.tables.dimension(table) : null;
    });
  }

  /**
   * Folds every unindexed row into the full-text index, compacts files and prunes old versions
   * now, instead of waiting for the background trigger. Waits for queued writes first.
   * @throws RetryableError `STORE_UNAVAILABLE` on I/O failure or persistent commit conflicts.
   */
  async optimize(): Promise<void> {
    const table = await guarded('optimize', () => this.s.tables.require(CHUNKS_TABLE));
    await this.s.lock(() => withConflictRetry('optimize', () => this.s.upkeep.refreshText(table, { compact: true })));
    advanceSearchViews(this.s);
  }

  async maintain(): Promise<MaintenanceReport> {
    const { lock, upkeep } = this.s;
    const t0 = performance.now();
    const seconds = () => Math.round(performance.now() - t0) / 1000;
    // Each upsertDocuments (one per ingested document) adds a file: compact them into doc_id's index.
    const documents = await guarded('maintain', () => this.s.tables.open(DOCUMENTS_TABLE));
    if (documents) await lock(() => withConflictRetry('maintain', () => upkeep.optimize(documents)));
    const table = await guarded('maintain', () => this.s.tables.open(CHUNKS_TABLE));
    if (!table) return { vectorIndex: 'exact', reason: 'no chunks yet', seconds: seconds() };
    // Now, not paced: rows a failed or still pending background refresh left out of the index.
    await lock(() => withConflictRetry('maintain', () => upkeep.refreshText(table)));
    advanceSearchViews(this.s);
    const state = await guarded('maintain', async () => ({ rows: await table.countRows(), index: vectorIndexOf(await table.listIndices()) }));
    const { action, reason } = vectorIndexAction(state, this.s.settings.vectorIndex);
    if (action === 'none') return { vectorIndex: state.index ? 'current' : 'exact', reason, seconds: seconds() };
    // Not under the write lock: the build takes tens of seconds and commits alongside writes
    // (their rows stay unindexed, and exactly searched, until their own refresh folds them in).
    await withConflictRetry('maintain', () => buildVectorIndex(table));
    // LanceDB compacts no files while delta segments cover them; with one segment again, this
    // optimize compacts what writes left (~35 s at 100k), so no write's refresh waits for it.
    await lock(() => withConflictRetry('maintain', () => upkeep.optimize(table)));
    advanceSearchViews(this.s);
    return { vectorIndex: action === 'build' ? 'built' : 'rebuilt', reason, seconds: seconds() };
  }

  async close(): Promise<void> {
    if (this.s.tables.closed) return;
    // Let queued writes and index refreshes finish before the handles go away.
    await this.drainWrites();
    await this.s.upkeep.settled();
    await this.s.lock(async () => undefined);
    this.s.tables.close();
    this.s.searchView.close();
    this.s.recentView.close();
  }
}
