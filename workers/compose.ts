/**
 * The composition root of a Quarry process: the one module that knows every adapter factory and
 * builds the ports from configuration. It sits beside `workers/runtime`, not in it: the runtime
 * (the BullMQ adapter and the document life-cycle) works against the port interfaces of
 * `runtime/ports.ts` only, so a test or a benchmark hands it any ports it likes (fakes, timed
 * wrappers) and importing the runtime never pulls in an adapter. Processes (`apps/cli`, benches,
 * eval, tests) call {@link createPorts} once at start.
 */
import { createQueueClient } from '../queues/queue-client.ts';
import { createRedis } from '../queues/redis-connection.ts';
import { createArtifactStore } from '../shared/artifacts/index.ts';
import type { Config } from '../shared/config/index.ts';
import { createEmbedder, createRedisEmbeddingCache } from '../shared/embed/index.ts';
import { createRedisMemoryStore } from '../shared/memory/index.ts';
import { createExtractionPool, withPageSplitting } from '../shared/pdf/index.ts';
import { createStatusStore } from '../shared/status/index.ts';
import { createVectorStore, withEmbedderCheck, createLazyVectorStore } from '../shared/store/index.ts';
import { createLogger } from '../shared/telemetry/index.ts';
import type { Ports } from './runtime/index.ts';

/** Where the configured vector store is, for messages. */
function storeLocation(config: Config): string {
  const s = config.vectorStore;
  return s.kind === 'lancedb' ? `LanceDB at ${s.dir}` : `Weaviate ${s.url}, collection ${s.collectionPrefix ?? ''}Chunk`;
}

/** Every port of this process from its configuration, and how to close them all. */
export async function createPorts(config: Config): Promise<Ports & { close(): Promise<void> }> {
  const redis = createRedis(config.redisUrl);
  const queues = createQueueClient(redis, config.prefix);
  const embedder = createEmbedder(config.embedder);
  // Opened on first use: most stage workers never touch the store (see lazy-store.ts). Searches
  // check once that the store was written by this embedder (see embedder-record.ts).
  const log = createLogger(config.logLevel, { component: 'vector-store' });
  const store = withEmbedderCheck(createLazyVectorStore(() => createVectorStore(config.vectorStore)), {
    model: embedder.model,
    where: storeLocation(config),
    warn: (message) => log.warn(message, { code: 'STORE_EMBEDDER_UNKNOWN' }),
  });
  const ports: Ports = {
    config,
    redis,
    queues,
    artifacts: createArtifactStore(config.artifactStore, config.s3),
    store,
    embedder,
    embeddingCache: createRedisEmbeddingCache(redis, config.prefix),
    status: createStatusStore(redis, config.prefix),
    extractor: withPageSplitting(
      createExtractionPool({
        size: config.worker.concurrency,
        timeoutMs: config.extract.timeoutMs,
        maxHeapMb: config.extract.maxHeapMb,
        maxRssMb: config.extract.maxRssMb,
      }),
      // 0 turns splitting off: no file is that small.
      { minBytes: config.extract.splitMinBytes || Number.POSITIVE_INFINITY, parts: config.worker.concurrency },
    ),
    memory: createRedisMemoryStore(redis, config.prefix, { halfLifeMs: config.memory.halfLifeMs }),
  };
  return {
    ...ports,
    async close() {
      await queues.close();
      await ports.extractor.close();
      await store.close();
      redis.disconnect();
    },
  };
}
