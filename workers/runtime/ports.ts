import { Redis } from 'ioredis';
import { createQueueClient, type QueueClient } from '../../queues/queue-client.ts';
import { createArtifactStore } from '../../shared/artifacts/index.ts';
import type { ArtifactStore } from '../../shared/artifacts/artifact-store.ts';
import type { Config } from '../../shared/config/config.ts';
import { createEmbedder } from '../../shared/embed/index.ts';
import type { Embedder } from '../../shared/embed/embedder.ts';
import type { EmbeddingCache } from '../../shared/embed/embedding-cache.ts';
import { createRedisEmbeddingCache } from '../../shared/embed/redis-cache.ts';
import { createRedisMemoryStore, type MemoryStore } from '../../shared/memory/memory-store.ts';
import { createExtractionPool } from '../../shared/pdf/extraction-pool.ts';
import type { PdfExtractor } from '../../shared/pdf/pdf-extractor.ts';
import { withPageSplitting } from '../../shared/pdf/page-parts.ts';
import { createStatusStore, type StatusStore } from '../../shared/status/status-store.ts';
import { createVectorStore } from '../../shared/store/index.ts';
import { withEmbedderCheck } from '../../shared/store/embedder-record.ts';
import { createLazyVectorStore } from '../../shared/store/lazy-store.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import type { VectorStore } from '../../shared/store/vector-store.ts';

/** Every external system a stage may touch, built once per process from config. */
export interface Ports {
  config: Config;
  redis: Redis;
  queues: QueueClient;
  artifacts: ArtifactStore;
  store: VectorStore;
  embedder: Embedder;
  embeddingCache: EmbeddingCache;
  status: StatusStore;
  /** PDF extraction child processes, started on first use. */
  extractor: PdfExtractor;
  /** Per-chunk memory (ChunkStats) in the same Redis. */
  memory: MemoryStore;
}

/** A Redis client as BullMQ wants it: commands wait through reconnects instead of failing. */
export function createRedis(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
  // ioredis reconnects by itself and every command waiting on it fails or resumes on its own;
  // the listener only keeps connection errors from being reported as unhandled events.
  client.on('error', () => undefined);
  return client;
}

/** Where the configured vector store is, for messages. */
function storeLocation(config: Config): string {
  const s = config.vectorStore;
  return s.kind === 'lancedb' ? `LanceDB at ${s.dir}` : `Weaviate ${s.url}, collection ${s.collectionPrefix ?? ''}Chunk`;
}

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
