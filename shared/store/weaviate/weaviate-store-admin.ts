import { checkModel } from '../embedder-record.ts';
import type { EmbedderRecord, MaintenanceReport, StoreAdmin } from '../store-admin.ts';
import { checkDimension } from '../validation.ts';
import { ensureCollections } from './weaviate-schema-sync.ts';
import type { WeaviateState } from './weaviate-state.ts';

/**
 * The Weaviate store as a whole: its three collections (created and checked by `ensureSchema`,
 * see weaviate-schema-sync.ts), the embedder recorded in the Chunk collection's description, and
 * the client. The server keeps its indexes current on every write, so there is nothing to maintain.
 */
export class WeaviateStoreAdmin implements StoreAdmin {
  constructor(private readonly s: WeaviateState) {}

  async ensureSchema({ dimension, model }: { dimension: number; model: string }): Promise<void> {
    checkDimension(dimension);
    checkModel(model);
    const { collectionPrefix: prefix, bodyTokenization: body } = this.s.settings;
    this.s.schemaEnsured(await this.s.guarded('ensureSchema', () => ensureCollections(this.s.client, { prefix, create: true, dimension, model, body })));
  }

  async dimension(): Promise<number | null> {
    return (await this.s.schema())?.dimension ?? null;
  }

  async embedderRecord(): Promise<EmbedderRecord | null> {
    const s = await this.s.schema();
    return s?.embedder ? { model: s.embedder, dimension: s.dimension } : null;
  }

  async maintain(): Promise<MaintenanceReport> {
    return { vectorIndex: 'server', reason: 'Weaviate keeps its HNSW index current on every write', seconds: 0 };
  }

  async close(): Promise<void> {
    if (this.s.closed) return;
    this.s.closed = true;
    await this.s.client.close();
  }
}
