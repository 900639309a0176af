/**
 * The VectorStore contract on a live Weaviate. Runs when WEAVIATE_URL is set (the hosted CI
 * workflow, or `docker compose -f infra/docker-compose.yml up -d weaviate` locally); otherwise
 * it is reported as skipped with that reason. Every store gets collections of its own prefix,
 * deleted afterwards.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createWeaviateStore } from '../../shared/store/weaviate/weaviate-store.ts';
import { connectWeaviate } from '../../shared/store/weaviate/weaviate-connection.ts';
import { collectionNames } from '../../shared/store/weaviate/weaviate-schema.ts';
import { DIM, MODEL, corpus, documents } from './store-fixtures.ts';
import { runVectorStoreContract } from './vector-store.contract.ts';

const url = process.env.WEAVIATE_URL;
const grpcUrl = process.env.WEAVIATE_GRPC_URL;
const apiKey = process.env.WEAVIATE_API_KEY;
const SKIP_REASON = 'WEAVIATE_URL is not set: start a Weaviate (infra/docker-compose.yml) and set WEAVIATE_URL (and WEAVIATE_GRPC_URL) to run the contract on it';

if (!url) {
  console.warn(`[weaviate contract] skipped: ${SKIP_REASON}`);
  describe('VectorStore contract: weaviate', () => {
    it.skip(`skipped: ${SKIP_REASON}`, () => undefined);
  });
} else {
  const prefixes: string[] = [];
  const newPrefix = () => {
    const p = `Qc${Math.random().toString(36).slice(2, 10)}`;
    prefixes.push(p);
    return p;
  };

  afterAll(async () => {
    const client = await connectWeaviate({ url, grpcUrl, apiKey });
    try {
      for (const p of prefixes) for (const name of Object.values(collectionNames(p))) await client.collections.delete(name).catch(() => undefined);
    } finally {
      await client.close();
    }
  });

  runVectorStoreContract('weaviate', () => createWeaviateStore({ url, grpcUrl, apiKey, collectionPrefix: newPrefix() }));

  describe('weaviate adapter specifics', () => {
    it('a second store on the same collections sees the schema and the data', async () => {
      const collectionPrefix = newPrefix();
      const a = await createWeaviateStore({ url, grpcUrl, apiKey, collectionPrefix });
      const b = await createWeaviateStore({ url, grpcUrl, apiKey, collectionPrefix });
      try {
        await a.ensureSchema({ dimension: DIM, model: MODEL });
        expect(await b.dimension()).toBe(DIM);
        await b.ensureSchema({ dimension: DIM, model: MODEL });
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('filtered scans larger than the result window fall back to a cursor scan with the same rows', async () => {
      const collectionPrefix = newPrefix();
      const windowed = await createWeaviateStore({ url, grpcUrl, apiKey, collectionPrefix, maxResultWindow: 1 });
      try {
        await windowed.ensureSchema({ dimension: DIM, model: MODEL });
        const c = corpus();
        const d = documents();
        await windowed.upsertDocuments([d.a, d.b]);
        await windowed.upsertChunks(Object.values(c));
        const all = Object.values(c).filter((x) => x.lang === 'ko').map((x) => x.chunk_id).sort();
        const scanned: string[] = [];
        for await (const row of windowed.scanChunks({ fields: ['chunk_id'], filter: { op: 'eq', field: 'lang', value: 'ko' } })) scanned.push(row.chunk_id);
        expect(scanned.sort()).toEqual(all);
      } finally {
        await windowed.close();
      }
    });
  });
}
